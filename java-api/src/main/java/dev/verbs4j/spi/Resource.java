package dev.verbs4j.spi;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;

/**
 * Lifetime bookkeeping shared by providers so both close resources by the same rules:
 * a resource with live dependents (children such as the regions of a domain, or users
 * such as the queue pairs of a completion queue) refuses to close with {@code EBUSY},
 * as libibverbs does; a second close does nothing; using a closed resource is an
 * {@link IllegalStateException}.
 */
public abstract class Resource implements AutoCloseable {
    private final String kind;
    private final Resource[] dependencies;
    private int dependents;
    private boolean closed;

    /**
     * @param kind         what the resource is, for messages ("protection domain")
     * @param dependencies resources this one uses, which cannot close before it
     */
    protected Resource(String kind, Resource... dependencies) {
        this.kind = kind;
        this.dependencies = dependencies.clone();
        for (Resource d : this.dependencies) {
            if (d != null) {
                d.retain();
            }
        }
    }

    /** Records one more live dependent. @throws IllegalStateException if this resource is closed */
    public final synchronized void retain() {
        ensureOpen();
        dependents++;
    }

    /** Records that a dependent went away. */
    public final synchronized void release() {
        if (dependents > 0) {
            dependents--;
        }
    }

    /** The number of live dependents. */
    public final synchronized int dependents() {
        return dependents;
    }

    /** @throws IllegalStateException if this resource is closed */
    public final synchronized void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(kind + " is closed");
        }
    }

    public final synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Closes the resource: fails with {@code EBUSY} while dependents are alive, then runs
     * {@link #destroy()} and releases what it depended on. A second call does nothing.
     */
    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (dependents > 0) {
                throw new VerbsException(Errno.EBUSY, kind + " has " + dependents + " live dependent resource(s)");
            }
            destroy();
            closed = true;
        }
        for (Resource d : dependencies) {
            if (d != null) {
                d.release();
            }
        }
    }

    /**
     * Frees what the provider holds. It may throw {@link VerbsException}, in which case
     * the resource stays open.
     */
    protected abstract void destroy();

    @Override
    public String toString() {
        return kind;
    }
}

package dev.verbs4j.spi;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;

/**
 * Lifetime bookkeeping shared by providers so both close resources by the same rules:
 * a resource with live dependents (children such as the regions of a domain, or users
 * such as the queue pairs of a completion queue) refuses to close with {@code EBUSY},
 * as libibverbs does; a second close does nothing; using a closed resource is an
 * {@link IllegalStateException}. libibverbs has no such type: the reference counts it
 * mirrors live in the kernel (uverbs' {@code usecnt} on a PD, CQ or SRQ).
 */
public abstract class Resource implements AutoCloseable {
    private final String kind;
    private final Resource[] dependencies;
    private int dependents;
    private volatile boolean closed;
    private volatile boolean closing;

    /**
     * A resource that retains each of its dependencies for as long as it is open.
     *
     * @param kind         what the resource is, for messages ("protection domain")
     * @param dependencies resources this one uses, which cannot close before it
     */
    protected Resource(String kind, Resource... dependencies) {
        this.kind = kind;
        this.dependencies = dependencies.clone();
        for (int i = 0; i < this.dependencies.length; i++) {
            Resource d = this.dependencies[i];
            if (d != null && !d.tryRetain()) {
                // Leave no count behind on those already retained: they could never close.
                for (int j = 0; j < i; j++) {
                    if (this.dependencies[j] != null) {
                        this.dependencies[j].release();
                    }
                }
                throw new IllegalStateException(d.kind + " is closed");
            }
        }
    }

    /**
     * Records one more live dependent. A call that uses this resource from outside its own
     * monitor (a post naming an address handle, a queue pair created on a completion queue)
     * also holds it this way while it runs, so that a racing {@link #close()} fails with
     * {@code EBUSY} instead of freeing what the call is using.
     *
     * @throws IllegalStateException if this resource is closed
     */
    public final synchronized void retain() {
        ensureOpen();
        dependents++;
    }

    /**
     * {@link #retain()}, or false (and nothing recorded) when this resource is closed.
     *
     * @return true if the dependent was recorded
     */
    public final synchronized boolean tryRetain() {
        if (closed) {
            return false;
        }
        dependents++;
        return true;
    }

    /** Records that a dependent went away. */
    public final synchronized void release() {
        if (dependents > 0) {
            dependents--;
        }
    }

    /**
     * The number of live dependents.
     *
     * @return the count, 0 when the resource may close
     */
    public final synchronized int dependents() {
        return dependents;
    }

    /**
     * A volatile read, cheap enough for the data path. It only tells; a call that must keep
     * the resource open while it runs holds its monitor or {@linkplain #retain() retains} it.
     *
     * @throws IllegalStateException if this resource is closed
     */
    public final void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(kind + " is closed");
        }
    }

    /**
     * Whether {@link #close()} has finished; a volatile read.
     *
     * @return true once closed
     */
    public final boolean isClosed() {
        return closed;
    }

    /**
     * Whether a close has begun (it may still be freeing what the provider holds), or is
     * done: a call that another thread's close overtook reads this to report the closed
     * object rather than the half-destroyed state it saw.
     *
     * @return true from the start of a close on
     */
    public final boolean isClosing() {
        return closing || closed;
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
            closing = true;
            try {
                destroy();
            } catch (RuntimeException | Error e) {
                closing = false;
                throw e;
            }
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

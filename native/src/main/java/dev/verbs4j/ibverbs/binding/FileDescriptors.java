package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The two POSIX calls needed to wait for completion and async events with a
 * timeout.
 *
 * <p>{@code ibv_get_cq_event} and {@code ibv_get_async_event} block in
 * {@code read(2)} on {@code ibv_comp_channel.fd} /
 * {@code ibv_context.async_fd} without a timeout. The libibverbs man pages
 * (ibv_get_cq_event(3), ibv_get_async_event(3)) describe the way to bound
 * the wait: switch the descriptor to non-blocking once, {@code poll(2)} it
 * with the remaining time, then call the get-event verb, which fails with
 * {@link Errno#EAGAIN} if another thread took the event first.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class FileDescriptors {
    static {
        Loader.load();
    }

    private FileDescriptors() {
    }

    /** Adds O_NONBLOCK to the descriptor's status flags: 0, or -errno. */
    @Name("verbs4j::set_nonblocking")
    public static native int setNonBlocking(int fd);

    /**
     * Waits until the descriptor is readable: 1 when readable (or in error,
     * which the following read reports), 0 when {@code timeoutMs} elapsed,
     * or -errno ({@code -EINTR} included: the caller owns the deadline).
     * A negative {@code timeoutMs} waits without limit.
     */
    @Name("verbs4j::poll_readable")
    public static native int pollReadable(int fd, int timeoutMs);
}

package dev.verbs4j.ibverbs;

import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.Errno;
import org.bytedeco.javacpp.Pointer;

/**
 * libibverbs failures as {@link VerbsException}s. libibverbs reports them three ways, and
 * each call site says which one its function uses:
 * <ul>
 * <li>an errno value as the result ({@link #check}); providers sometimes return it negated
 *     (rxe's {@code post_recv} returns {@code -ENOMEM}), so the sign is dropped;</li>
 * <li>-1, with errno set ({@link #checkErrno});</li>
 * <li>a NULL object, with errno set ({@link #require}).</li>
 * </ul>
 * errno comes from {@link Errno#lastErrno()}, recorded inside the same native call. When a
 * provider failed without setting it, the error is reported as {@code EIO}.
 */
final class NativeErrors {
    /** What a failure without errno is reported as. */
    static final int EIO = 5;

    private NativeErrors() {
    }

    /** For calls returning 0 or an errno value (either sign). */
    static void check(int result, String call) {
        if (result != 0) {
            throw failure(result < 0 ? -result : result, call);
        }
    }

    /** For calls returning 0, or -1 with errno set. */
    static void checkErrno(int result, String call) {
        if (result != 0) {
            throw failure(capturedErrno(), call);
        }
    }

    /** For calls returning an object, or NULL with errno set. */
    static <T extends Pointer> T require(T handle, String call) {
        if (handle == null || handle.isNull()) {
            throw failure(capturedErrno(), call);
        }
        return handle;
    }

    /** errno of the last errno-recording binding call on this thread; {@link #EIO} when none was set. */
    static int capturedErrno() {
        int errno = Errno.lastErrno();
        return errno != 0 ? errno : EIO;
    }

    static VerbsException failure(int errno, String call) {
        return new VerbsException(errno, call + " failed");
    }
}

package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * errno of the binding's calls, and the errno numbers libibverbs reports.
 *
 * <p>Calls documented "errno in {@link #lastErrno()}" record errno inside
 * the same native call; reading the C {@code errno} from a later JNI call
 * would be unreliable because the JVM runs its own code on the thread in
 * between. Calls that return an error number themselves (most {@code int}
 * verbs: "0 on success, errno value on failure") need no capture.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class Errno {
    static {
        Loader.load();
    }

    /** Operation not permitted. */
    public static final int EPERM = 1;
    /** No such file or directory. */
    public static final int ENOENT = 2;
    /** Interrupted system call. */
    public static final int EINTR = 4;
    /** Input/output error. */
    public static final int EIO = 5;
    /** Resource temporarily unavailable (non-blocking read with nothing to read). */
    public static final int EAGAIN = 11;
    /** Cannot allocate memory. */
    public static final int ENOMEM = 12;
    /** Permission denied. */
    public static final int EACCES = 13;
    /** Bad address. */
    public static final int EFAULT = 14;
    /** Device or resource busy (a parent destroyed before its children). */
    public static final int EBUSY = 16;
    /** No such device. */
    public static final int ENODEV = 19;
    /** Invalid argument. */
    public static final int EINVAL = 22;
    /** Function not implemented: the kernel has no RDMA subsystem. */
    public static final int ENOSYS = 38;
    /** Operation not supported by the device or provider. */
    public static final int EOPNOTSUPP = 95;
    /** Connection timed out. */
    public static final int ETIMEDOUT = 110;

    private Errno() {
    }

    /** errno right after the last errno-capturing call of the binding on this thread. */
    @MemberGetter
    @Name("verbs4j::last_errno")
    public static native int lastErrno();

    /** The C library's text for an errno number. */
    public static native @Cast("const char*") String strerror(int errnum);
}

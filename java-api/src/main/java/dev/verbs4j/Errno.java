package dev.verbs4j;

/**
 * The Linux errno values that verbs calls report. libibverbs returns them either as
 * a negative return code or through {@code errno}; both providers raise a
 * {@link VerbsException} carrying the same value for the same mistake.
 */
public enum Errno {
    EPERM(1), ENOENT(2), EINTR(4), EIO(5), ENXIO(6), E2BIG(7), EBADF(9), EAGAIN(11),
    ENOMEM(12), EACCES(13), EFAULT(14), EBUSY(16), EEXIST(17), ENODEV(19), EINVAL(22),
    ENOSPC(28), ERANGE(34), ENOSYS(38), ENODATA(61), EPROTONOSUPPORT(93), EOPNOTSUPP(95),
    EADDRINUSE(98), EADDRNOTAVAIL(99), ENETUNREACH(101), ECONNRESET(104), EISCONN(106), ENOTCONN(107),
    ETIMEDOUT(110), ECONNREFUSED(111),
    EHOSTUNREACH(113), ECANCELED(125),
    /** A value this enum does not name; {@link VerbsException#errno()} keeps the number. */
    UNKNOWN(-1);

    private static final Errno[] BY_NUMBER = new Errno[128];

    static {
        for (Errno e : values()) {
            if (e.number > 0) {
                BY_NUMBER[e.number] = e;
            }
        }
    }

    private final int number;

    Errno(int number) {
        this.number = number;
    }

    /** The Linux errno number ({@code EINVAL} is 22). */
    public int number() {
        return number;
    }

    /** The constant for a Linux errno number, or {@link #UNKNOWN}. */
    public static Errno of(int number) {
        Errno e = number > 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
        return e == null ? UNKNOWN : e;
    }
}

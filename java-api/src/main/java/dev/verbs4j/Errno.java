package dev.verbs4j;

/**
 * The Linux errno values that verbs calls report. libibverbs returns them either as
 * a negative return code or through {@code errno}; both providers raise a
 * {@link VerbsException} carrying the same value for the same mistake. The C library's
 * {@code errno.h} names them; libibverbs has no type of its own for them.
 */
public enum Errno {
    /** Operation not permitted (1): e.g. a registration the process's limits or capabilities forbid. */
    EPERM(1),

    /** No such file or directory (2). */
    ENOENT(2),

    /** Interrupted system call (4). */
    EINTR(4),

    /** Input/output error (5): the device or its kernel driver failed the command. */
    EIO(5),

    /** No such device or address (6). */
    ENXIO(6),

    /** Argument list too long (7). */
    E2BIG(7),

    /** Bad file descriptor (9): an object already closed or destroyed. */
    EBADF(9),

    /** Try again (11): nothing ready yet on a non-blocking channel, or a resource temporarily out. */
    EAGAIN(11),

    /** Out of memory (12): also what a full send or receive queue gives a post in libibverbs. */
    ENOMEM(12),

    /** Permission denied (13). */
    EACCES(13),

    /** Bad address (14): memory that cannot be pinned or read. */
    EFAULT(14),

    /** Device or resource busy (16): e.g. destroying a protection domain that still has objects. */
    EBUSY(16),

    /** Already exists (17). */
    EEXIST(17),

    /** No such device (19): the device is gone, or librdmacm finds no RDMA device for an address. */
    ENODEV(19),

    /** Invalid argument (22): the most common answer to a bad attribute, mask or state. */
    EINVAL(22),

    /** No space left (28). */
    ENOSPC(28),

    /** Result out of range (34). */
    ERANGE(34),

    /** Function not implemented (38): e.g. a kernel without RDMA verbs. */
    ENOSYS(38),

    /** No data available (61). */
    ENODATA(61),

    /** Protocol not supported (93). */
    EPROTONOSUPPORT(93),

    /** Operation not supported (95): the device or provider lacks the verb or option. */
    EOPNOTSUPP(95),

    /** Address already in use (98): a bind or listen on a port another CM id holds. */
    EADDRINUSE(98),

    /** Address not available (99): e.g. a bind to an address no local interface has. */
    EADDRNOTAVAIL(99),

    /** Network unreachable (101): no route to the peer during address resolution. */
    ENETUNREACH(101),

    /** Connection reset by peer (104). */
    ECONNRESET(104),

    /** Already connected (106). */
    EISCONN(106),

    /** Not connected (107). */
    ENOTCONN(107),

    /** Timed out (110): address or route resolution, or a connection request, got no answer in time. */
    ETIMEDOUT(110),

    /** Connection refused (111): the peer's connection manager rejected the request. */
    ECONNREFUSED(111),

    /** No route to host (113). */
    EHOSTUNREACH(113),

    /** Operation canceled (125). */
    ECANCELED(125),

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

    /**
     * The Linux errno number ({@code EINVAL} is 22).
     *
     * @return the positive errno, or -1 for {@link #UNKNOWN}
     */
    public int number() {
        return number;
    }

    /**
     * The constant for a Linux errno number, or {@link #UNKNOWN}.
     *
     * @param number a positive errno as libibverbs or librdmacm give it
     * @return the constant, or {@link #UNKNOWN} for a number this enum does not name
     */
    public static Errno of(int number) {
        Errno e = number > 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
        return e == null ? UNKNOWN : e;
    }
}

package dev.verbs4j;

/**
 * The one exception type for failed verbs calls. It carries the errno that libibverbs
 * reports for the same failure, so code written against one provider handles the
 * other's errors the same way. Remote and transport failures are not exceptions: they
 * arrive as {@link WcStatus completion statuses}.
 */
public final class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int errno;

    public VerbsException(Errno errno, String message) {
        this(errno.number(), message, null);
    }

    public VerbsException(int errno, String message) {
        this(errno, message, null);
    }

    public VerbsException(int errno, String message, Throwable cause) {
        super(message + " (" + Errno.of(errno) + (Errno.of(errno) == Errno.UNKNOWN ? " " + errno : "") + ")", cause);
        this.errno = errno;
    }

    /** The errno number, as libibverbs would set it. */
    public int errno() {
        return errno;
    }

    /** The errno as a constant ({@link Errno#UNKNOWN} for numbers it does not name). */
    public Errno error() {
        return Errno.of(errno);
    }

    /** Shorthand used by providers: {@code throw VerbsException.of(Errno.EINVAL, "...")}. */
    public static VerbsException of(Errno errno, String message) {
        return new VerbsException(errno, message);
    }
}

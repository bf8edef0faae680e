package dev.verbs4j;

/**
 * The one exception type for failed verbs calls. It carries the errno that libibverbs
 * reports for the same failure, so code written against one provider handles the
 * other's errors the same way. Remote and transport failures are not exceptions: they
 * arrive as {@link WcStatus completion statuses}. libibverbs has no exception: its
 * counterpart is a call's non-zero return (a negative errno, or NULL with {@code errno} set).
 */
public final class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The positive errno number, serialized with the message. */
    private final int errno;

    /**
     * An exception for a failure libibverbs reports with {@code errno}.
     *
     * @param errno the errno
     * @param message what failed; the errno's name is appended
     */
    public VerbsException(Errno errno, String message) {
        this(errno.number(), message, null);
    }

    /**
     * An exception for a failure with a raw errno number, as a provider reads it from libibverbs.
     *
     * @param errno the positive errno number
     * @param message what failed; the errno's name (or number) is appended
     */
    public VerbsException(int errno, String message) {
        this(errno, message, null);
    }

    /**
     * An exception for a failure with a raw errno number and its cause.
     *
     * @param errno the positive errno number
     * @param message what failed; the errno's name (or number) is appended
     * @param cause the underlying failure, or null
     */
    public VerbsException(int errno, String message, Throwable cause) {
        super(message + " (" + Errno.of(errno) + (Errno.of(errno) == Errno.UNKNOWN ? " " + errno : "") + ")", cause);
        this.errno = errno;
    }

    /**
     * The errno number, as libibverbs would set it.
     *
     * @return the positive number
     */
    public int errno() {
        return errno;
    }

    /**
     * The errno as a constant ({@link Errno#UNKNOWN} for numbers it does not name).
     *
     * @return the constant
     */
    public Errno error() {
        return Errno.of(errno);
    }

    /**
     * Shorthand used by providers: {@code throw VerbsException.of(Errno.EINVAL, "...")}.
     *
     * @param errno the errno
     * @param message what failed
     * @return a new exception
     */
    public static VerbsException of(Errno errno, String message) {
        return new VerbsException(errno, message);
    }
}

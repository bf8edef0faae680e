package dev.verbs4j.softroce.memory;

/**
 * Outcomes of a key lookup, as int codes so the data path allocates nothing. Each maps
 * to the NAK or completion status the kernel rxe gives for it.
 */
public final class KeyCheck {
    public static final int OK = 0;
    /** No object has this key (wrong index or stale 8-bit key). */
    public static final int BAD_KEY = 1;
    /** The object belongs to another protection domain. */
    public static final int PD_MISMATCH = 2;
    /** The object does not grant the access asked for. */
    public static final int NO_ACCESS = 3;
    /** The range leaves the object. */
    public static final int OUT_OF_BOUNDS = 4;
    /** The object exists but is not valid (invalidated window or fast-register region). */
    public static final int INVALID_STATE = 5;
    /** A type 2 window used through a QP it is not bound to. */
    public static final int WRONG_QP = 6;
    /** A fast-registered region that cannot be invalidated while windows are bound to it. */
    public static final int WINDOWS_BOUND = 7;

    private KeyCheck() {
    }

    /** A name for counters and messages. */
    public static String name(int code) {
        return switch (code) {
            case OK -> "OK";
            case BAD_KEY -> "BAD_KEY";
            case PD_MISMATCH -> "PD_MISMATCH";
            case NO_ACCESS -> "NO_ACCESS";
            case OUT_OF_BOUNDS -> "OUT_OF_BOUNDS";
            case INVALID_STATE -> "INVALID_STATE";
            case WRONG_QP -> "WRONG_QP";
            case WINDOWS_BOUND -> "WINDOWS_BOUND";
            default -> "UNKNOWN(" + code + ")";
        };
    }
}

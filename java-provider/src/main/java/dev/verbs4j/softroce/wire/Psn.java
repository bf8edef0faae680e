package dev.verbs4j.softroce.wire;

/**
 * 24-bit packet sequence number arithmetic (IBTA Vol. 1, chapter 9). PSNs wrap from 0xFFFFFF to
 * 0, so they are serial numbers: "a is before b" means b lies less than 2^23 steps ahead of a
 * on the circle. Never compare PSNs with {@code <}; use {@link #compare(int, int)}.
 *
 * <p>All arguments are taken modulo 2^24 (only their low 24 bits are used), so values read
 * from a BTH word with the AckReq bit still attached give the right answer.
 */
public final class Psn {
    /** Mask of the 24 PSN bits. */
    public static final int MASK = 0x00FF_FFFF;
    /** Number of distinct PSNs, 2^24. */
    public static final int MODULUS = 1 << 24;
    /** Half the PSN space, 2^23: the window in which {@link #compare} is meaningful. */
    public static final int HALF = 1 << 23;

    private Psn() {
    }

    /**
     * Signed distance from {@code b} to {@code a} on the 24-bit circle, in
     * {@code [-2^23, 2^23)}: negative when a is before b, zero when equal, positive when a is
     * after b. This is what the rxe responder and completer compute with
     * {@code psn_compare()} (a 32-bit subtraction shifted left by 8).
     */
    public static int compare(int a, int b) {
        return ((a - b) << 8) >> 8;
    }

    /** True when {@code a} is strictly before {@code b}. */
    public static boolean isBefore(int a, int b) {
        return compare(a, b) < 0;
    }

    /** {@code psn + delta} modulo 2^24; {@code delta} may be negative. */
    public static int add(int psn, int delta) {
        return (psn + delta) & MASK;
    }

    /** The PSN after {@code psn}. */
    public static int next(int psn) {
        return (psn + 1) & MASK;
    }

    /** Forward distance from {@code from} to {@code to}: how many increments reach it, in {@code [0, 2^24)}. */
    public static int distance(int from, int to) {
        return (to - from) & MASK;
    }

    /** True when {@code value} fits in 24 bits (a PSN as the verbs API must accept it). */
    public static boolean isValid(int value) {
        return (value & ~MASK) == 0;
    }
}

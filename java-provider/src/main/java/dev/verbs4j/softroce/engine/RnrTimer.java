package dev.verbs4j.softroce.engine;

/**
 * The RNR NAK timer codes of IBTA Table 45 (5-bit field of the AETH and of
 * {@code min_rnr_timer}) and the local ACK timeout of IBTA 9.7.6.1.3.
 */
public final class RnrTimer {
    /** Code → wait in nanoseconds; code 0 means 655.36 ms. */
    private static final long[] RNR_NS = {
        655_360_000L, 10_000L, 20_000L, 30_000L, 40_000L, 60_000L, 80_000L, 120_000L,
        160_000L, 240_000L, 320_000L, 480_000L, 640_000L, 960_000L, 1_280_000L, 1_920_000L,
        2_560_000L, 3_840_000L, 5_120_000L, 7_680_000L, 10_240_000L, 15_360_000L, 20_480_000L, 30_720_000L,
        40_960_000L, 61_440_000L, 81_920_000L, 122_880_000L, 163_840_000L, 245_760_000L, 327_680_000L, 491_520_000L
    };

    private RnrTimer() {
    }

    /** The wait an RNR NAK with this 5-bit code asks for. */
    public static long rnrDelayNs(int code) {
        return RNR_NS[code & 0x1f];
    }

    /**
     * The local ACK timeout: 4.096 µs × 2^timeout; 0 means no timeout (returned as
     * {@link Long#MAX_VALUE}).
     */
    public static long ackTimeoutNs(int timeout) {
        if (timeout == 0) {
            return Long.MAX_VALUE;
        }
        return 4096L << Math.min(timeout, 31);
    }
}

package dev.verbs4j.softroce.engine;

import dev.verbs4j.Mtu;

/**
 * The limits a soft device enforces and reports; the defaults follow the kernel rxe's
 * {@code rxe_param.h} where a limit means the same thing.
 */
public record DeviceLimits(
        int maxQp, int maxQpWr, int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr, int maxMw, int maxPd,
        int maxAh, int maxSrq, int maxSrqWr, int maxSrqSge, int maxQpRdAtom, int maxQpInitRdAtom, int maxInlineData,
        Mtu maxMtu, int gidTableLength, long maxMrSize, int maxFastRegPages) {

    /** The limits of a default soft device. */
    public static DeviceLimits defaults() {
        return new DeviceLimits(0x10000, 0x4000, 32, 32, 0x4000, 0x10000, 0x10000, 0x10000, 0x1000, 0x1000, 0x1000,
                0x4000, 27, 128, 128, 256, Mtu.MTU_4096, 2, 1L << 46, 512);
    }

    /** A copy whose queue pairs may name source GID indexes below {@code length}. */
    public DeviceLimits withGidTableLength(int length) {
        return new DeviceLimits(maxQp, maxQpWr, maxSge, maxSgeRd, maxCq, maxCqe, maxMr, maxMw, maxPd, maxAh, maxSrq, maxSrqWr,
                maxSrqSge, maxQpRdAtom, maxQpInitRdAtom, maxInlineData, maxMtu, length, maxMrSize, maxFastRegPages);
    }
}

package dev.verbs4j;

/**
 * The transport a device speaks ({@code ibv_device.transport_type}). It decides what the
 * device can have at all: an iWARP device connects queue pairs only through the connection
 * manager, has no P_Keys, no UD and no address handles, and its GIDs are not IP addresses.
 */
public enum Transport {
    /** The InfiniBand transport: on InfiniBand links, and on Ethernet as RoCE (rxe, the soft provider). */
    IB,
    /** iWARP: RDMAP/DDP/MPA over TCP (siw, and iWARP NICs). */
    IWARP,
    /** Any other (usNIC, or one libibverbs reports as unknown or unspecified). */
    OTHER;

    /**
     * The transport of an {@code IBV_TRANSPORT_*} number.
     *
     * @param value {@code ibv_device.transport_type}
     * @return IB for 0, IWARP for 1, OTHER for anything else
     */
    public static Transport of(int value) {
        return switch (value) {
            case 0 -> IB;
            case 1 -> IWARP;
            default -> OTHER;
        };
    }
}

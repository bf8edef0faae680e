package dev.verbs4j;

/**
 * Where packets go ({@code struct ibv_ah_attr} with its global route header). On RoCE
 * every address is global: {@code dgid} is the peer port's GID.
 *
 * @param dgid         destination GID
 * @param sgidIndex    index of the local GID to send from
 * @param port         local port (from 1)
 * @param hopLimit     IP TTL / hop limit
 * @param trafficClass IP traffic class
 * @param flowLabel    IPv6 flow label (also seeds the UDP source port)
 * @param serviceLevel service level
 */
public record AddressHandleAttributes(Gid dgid, int sgidIndex, int port, int hopLimit, int trafficClass,
                                      int flowLabel, int serviceLevel) {
    /**
     * Checks the values' ranges.
     *
     * @throws NullPointerException if {@code dgid} is null
     * @throws IllegalArgumentException for a port below 1, a hop limit or traffic class outside
     *         0-255, or a flow label wider than 20 bits
     */
    public AddressHandleAttributes {
        if (dgid == null) {
            throw new NullPointerException("dgid");
        }
        if (port < 1) {
            throw new IllegalArgumentException("ports count from 1: " + port);
        }
        if (hopLimit < 0 || hopLimit > 255 || trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("hop limit and traffic class are 8-bit");
        }
        if ((flowLabel & ~0xfffff) != 0) {
            throw new IllegalArgumentException("flow label is 20-bit: " + flowLabel);
        }
    }

    /**
     * A route to {@code dgid} from GID {@code sgidIndex} of port 1, hop limit 64.
     *
     * @param dgid the destination GID
     * @param sgidIndex the local GID index
     * @return the attributes, with traffic class, flow label and service level 0
     */
    public static AddressHandleAttributes to(Gid dgid, int sgidIndex) {
        return new AddressHandleAttributes(dgid, sgidIndex, 1, 64, 0, 0, 0);
    }
}

package dev.verbs4j;

/**
 * A populated GID table entry ({@code struct ibv_gid_entry}), as
 * {@link DeviceContext#queryGidEntry} and {@link DeviceContext#queryGidTable} report it.
 *
 * @param gid          the GID
 * @param index        its index in the port's table
 * @param port         the port, from 1
 * @param type         the protocol it is for
 * @param netdevIndex  the interface index of the network device it belongs to ({@code ndev_ifindex}), 0 when none
 */
public record GidEntry(Gid gid, int index, int port, GidType type, int netdevIndex) {
}

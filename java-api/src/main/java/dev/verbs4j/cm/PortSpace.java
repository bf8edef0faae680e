package dev.verbs4j.cm;

import dev.verbs4j.QpType;

/**
 * The port space of a connection-manager id ({@code enum rdma_port_space}). It names the
 * upper byte of the IB service id that carries the port, and the queue-pair type the id
 * connects.
 */
public enum PortSpace {
    /** {@code RDMA_PS_IPOIB}: UD. */
    IPOIB(0x0002, QpType.UD),
    /** {@code RDMA_PS_TCP}: reliable connected, the space rping, perftest and most servers use. */
    TCP(0x0106, QpType.RC),
    /** {@code RDMA_PS_UDP}: UD, resolved with SIDR. */
    UDP(0x0111, QpType.UD),
    /** {@code RDMA_PS_IB}: any queue-pair type. */
    IB(0x013f, QpType.RC);

    private final int value;
    private final QpType qpType;

    PortSpace(int value, QpType qpType) {
        this.value = value;
        this.qpType = qpType;
    }

    /**
     * The {@code RDMA_PS_*} number.
     *
     * @return the number {@code rdma_create_id} takes
     */
    public int value() {
        return value;
    }

    /**
     * The queue-pair type {@code rdma_create_id} gives an id of this space.
     *
     * @return RC or UD
     */
    public QpType qpType() {
        return qpType;
    }

    /**
     * The IB service id of {@code port} in this space: the space number shifted by 16, plus the port.
     *
     * @param port the TCP or UDP port, 16 bits
     * @return the service id the CM messages carry
     */
    public long serviceId(int port) {
        return ((long) value << 16) | (port & 0xffff);
    }

    /**
     * The space a service id belongs to, or {@code null}.
     *
     * @param serviceId a service id from a CM message
     * @return the space, or null when the id is not one of a known space
     */
    public static PortSpace ofServiceId(long serviceId) {
        if ((serviceId >>> 32) != 0) {
            return null;
        }
        int space = (int) (serviceId >>> 16);
        for (PortSpace ps : values()) {
            if (ps.value == space) {
                return ps;
            }
        }
        return null;
    }
}

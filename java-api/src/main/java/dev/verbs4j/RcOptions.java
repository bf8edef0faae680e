package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * The settings {@link RcConnector} brings an RC queue pair up with. The defaults are
 * those of {@code ibv_rc_pingpong} and perftest: port 1, the first IPv4-mapped GID
 * (else the first non-zero one), the smaller of both ports' MTUs, ACK timeout 14
 * (about 67 ms), 7 retries, infinite RNR retries, RNR timer code 12 (0.64 ms), 16
 * outstanding read-like requests (capped by the device), and remote read, write and
 * atomic access.
 *
 * <p>libibverbs has no counterpart: these are the {@code ibv_qp_attr} values that
 * {@code ibv_rc_pingpong} and perftest choose themselves before their {@code ibv_modify_qp}
 * calls.
 */
public final class RcOptions {
    private int port = 1;
    private int gidIndex = -1;
    private Mtu mtu;
    private int psn = -1;
    private int timeout = 14;
    private int retryCount = 7;
    private int rnrRetry = 7;
    private int minRnrTimer = 12;
    private int maxRdAtomic = 16;
    private Set<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
    private MemoryRegion shared;

    /** The defaults above. */
    public RcOptions() {
    }

    /**
     * The local port the queue pair uses.
     *
     * @return the port number; 1 unless set
     */
    public int port() { return port; }
    /**
     * Sets the local port.
     *
     * @param p the port number, 1 to the device's port count
     * @return these options
     */
    public RcOptions port(int p) { port = p; return this; }

    /**
     * The GID index, or -1 to choose one automatically.
     *
     * @return the index, or -1
     */
    public int gidIndex() { return gidIndex; }
    /**
     * Sets the local GID index whose GID the peer addresses this side by.
     *
     * @param index an index in the port's GID table, or -1 to choose one
     * @return these options
     */
    public RcOptions gidIndex(int index) { gidIndex = index; return this; }

    /**
     * The path MTU, or {@code null} for the smaller of both sides' active MTUs.
     *
     * @return the MTU, or null
     */
    public Mtu mtu() { return mtu; }
    /**
     * Sets the path MTU.
     *
     * @param m the MTU, or null to take the smaller active MTU of the two ports
     * @return these options
     */
    public RcOptions mtu(Mtu m) { mtu = m; return this; }

    /**
     * The first send PSN, or -1 for a random one.
     *
     * @return the PSN, or -1
     */
    public int psn() { return psn; }
    /**
     * Sets the first send PSN, which the peer takes as its expected receive PSN.
     *
     * @param p a 24-bit PSN, or -1 for a random one
     * @return these options
     */
    public RcOptions psn(int p) { psn = p; return this; }

    /**
     * The local ACK timeout exponent: 4.096 µs × 2^timeout ({@code ibv_qp_attr.timeout}).
     *
     * @return the exponent; 14 unless set
     */
    public int timeout() { return timeout; }
    /**
     * Sets the local ACK timeout exponent.
     *
     * @param t 0-31; 0 waits for ever
     * @return these options
     */
    public RcOptions timeout(int t) { timeout = t; return this; }

    /**
     * The transport retry count ({@code ibv_qp_attr.retry_cnt}).
     *
     * @return retries; 7 unless set
     */
    public int retryCount() { return retryCount; }
    /**
     * Sets the transport retry count.
     *
     * @param n 0-7
     * @return these options
     */
    public RcOptions retryCount(int n) { retryCount = n; return this; }

    /**
     * The RNR retry count ({@code ibv_qp_attr.rnr_retry}).
     *
     * @return retries; 7 (for ever) unless set
     */
    public int rnrRetry() { return rnrRetry; }
    /**
     * Sets the RNR retry count.
     *
     * @param n 0-7, 7 retrying for ever
     * @return these options
     */
    public RcOptions rnrRetry(int n) { rnrRetry = n; return this; }

    /**
     * The RNR NAK timer code this side's responder sends ({@code ibv_qp_attr.min_rnr_timer}).
     *
     * @return the code; 12 (0.64 ms) unless set
     */
    public int minRnrTimer() { return minRnrTimer; }
    /**
     * Sets the RNR NAK timer code.
     *
     * @param code 0-31, as IBTA table 45 lists them
     * @return these options
     */
    public RcOptions minRnrTimer(int code) { minRnrTimer = code; return this; }

    /**
     * The outstanding RDMA READ and atomic requests asked for in each direction
     * ({@code max_rd_atomic} and {@code max_dest_rd_atomic}), capped by the device.
     *
     * @return the count; 16 unless set
     */
    public int maxRdAtomic() { return maxRdAtomic; }
    /**
     * Sets the outstanding read-like requests asked for in each direction.
     *
     * @param n the count before the device's cap
     * @return these options
     */
    public RcOptions maxRdAtomic(int n) { maxRdAtomic = n; return this; }

    /**
     * The remote access rights of the QP.
     * It is {@code ibv_qp_attr.qp_access_flags}.
     *
     * @return the rights
     */
    public Set<Access> access() { return access; }
    /**
     * Sets the remote access rights of the queue pair.
     *
     * @param rights the rights, copied
     * @return these options
     */
    public RcOptions access(Set<Access> rights) { access = EnumSet.copyOf(rights); return this; }

    /**
     * A region whose address, rkey and length are sent to the peer, or {@code null}.
     *
     * @return the region, or null
     */
    public MemoryRegion shared() { return shared; }
    /**
     * Sets the region whose address, rkey and length go to the peer in the exchange; the peer
     * reads them from {@link QpEndpoint}.
     *
     * @param region the region, or null to share none
     * @return these options
     */
    public RcOptions shared(MemoryRegion region) { shared = region; return this; }
}

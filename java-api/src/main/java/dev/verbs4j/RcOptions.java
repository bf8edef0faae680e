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

    public int port() { return port; }
    public RcOptions port(int p) { port = p; return this; }

    /** The GID index, or -1 to choose one automatically. */
    public int gidIndex() { return gidIndex; }
    public RcOptions gidIndex(int index) { gidIndex = index; return this; }

    /** The path MTU, or {@code null} for the smaller of both sides' active MTUs. */
    public Mtu mtu() { return mtu; }
    public RcOptions mtu(Mtu m) { mtu = m; return this; }

    /** The first send PSN, or -1 for a random one. */
    public int psn() { return psn; }
    public RcOptions psn(int p) { psn = p; return this; }

    public int timeout() { return timeout; }
    public RcOptions timeout(int t) { timeout = t; return this; }

    public int retryCount() { return retryCount; }
    public RcOptions retryCount(int n) { retryCount = n; return this; }

    public int rnrRetry() { return rnrRetry; }
    public RcOptions rnrRetry(int n) { rnrRetry = n; return this; }

    public int minRnrTimer() { return minRnrTimer; }
    public RcOptions minRnrTimer(int code) { minRnrTimer = code; return this; }

    public int maxRdAtomic() { return maxRdAtomic; }
    public RcOptions maxRdAtomic(int n) { maxRdAtomic = n; return this; }

    /** The remote access rights of the QP. */
    public Set<Access> access() { return access; }
    public RcOptions access(Set<Access> rights) { access = EnumSet.copyOf(rights); return this; }

    /** A region whose address, rkey and length are sent to the peer, or {@code null}. */
    public MemoryRegion shared() { return shared; }
    public RcOptions shared(MemoryRegion region) { shared = region; return this; }
}

package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Gid;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.tools.compat.SoftQpCounters;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.EnumSet;

/**
 * This side's verbs resources, laid out as perftest lays out its own so that the C program
 * on the other side finds what it expects (perftest_resources.c, {@code alloc_ctx},
 * {@code create_single_mr}, {@code set_up_connection}, {@code ctx_connect}):
 * <pre>
 * | QP 0 local area | ... | QP n-1 local area | QP 0 remote area | ... | QP n-1 remote area |
 * </pre>
 * Each area is the larger of the message size and the cycle buffer (the larger page size of
 * the two sides), rounded up to the larger cache line. A peer's requests (and received
 * messages) target a queue pair's remote area; its own requests take their bytes from its
 * local area. One memory region covers the whole buffer, with the rights perftest gives for
 * the test's operation.
 */
final class PerftestSide implements AutoCloseable {
    /** {@code MIN_RNR_TIMER}, the RTS attributes of {@code ctx_modify_qp_to_rts} and its GRH hop limit. */
    private static final int MIN_RNR_TIMER = 12;
    private static final int TIMEOUT = 14;
    private static final int RETRIES = 7;
    private static final int HOP_LIMIT = 0xff;
    private static final SecureRandom RANDOM = new SecureRandom();

    final PerftestOptions options;
    final DeviceContext ctx;
    final int areaBytes;
    final MemorySegment buffer;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final QueuePair[] qps;
    final MemoryRegion region;
    private final Arena arena;
    private final ProtectionDomain pd;
    private final int gidIndex;
    private final Gid gid;
    private final int lid;
    private final int outReads;
    private final KeyMessage[] mine;

    /**
     * @param ctx         the opened device, which this side closes
     * @param cycleBuffer the larger page size of the two sides ({@code check_sys_data})
     * @param cacheLine   the larger cache line size of the two sides
     */
    PerftestSide(PerftestOptions options, DeviceContext ctx, int cycleBuffer, int cacheLine) {
        this.options = options;
        this.ctx = ctx;
        boolean done = false;
        try {
            this.pd = ctx.allocatePd();
            int n = options.qps;
            this.areaBytes = roundUp(Math.max(options.largestSize(), cycleBuffer), cacheLine);
            this.arena = Arena.ofShared();
            this.buffer = arena.allocate(2L * n * areaBytes, Math.max(cycleBuffer, 4096));
            this.region = pd.registerMemory(buffer, regionAccess());
            boolean send = options.test.verb == PerftestTest.Verb.SEND;
            this.sendCq = ctx.createCq(n * options.txDepth() + 1);
            this.recvCq = ctx.createCq(send ? n * options.rxDepth() + 1 : 1);
            this.qps = new QueuePair[n];
            for (int i = 0; i < n; i++) {
                qps[i] = pd.createQp(new QpInitAttributes(QpType.RC, sendCq, recvCq)
                        .capacity(options.txDepth(), send ? options.rxDepth() : 1, 1, 1, 0));
            }
            PortAttributes port = ctx.queryPort(options.ibPort);
            this.lid = port.lid();
            this.gidIndex = options.gidIndex >= 0 ? options.gidIndex
                    : RcConnector.chooseGidIndex(ctx, options.ibPort, port.gidTableLength());
            this.gid = ctx.queryGid(options.ibPort, gidIndex);
            this.outReads = outReads(ctx.queryDevice());
            this.mine = new KeyMessage[n];
            for (int i = 0; i < n; i++) {
                mine[i] = new KeyMessage(lid, outReads, qps[i].qpn(), RANDOM.nextInt(1 << 24), region.rkey(),
                        region.address() + remoteArea(i), gid, 0);
            }
            done = true;
        } finally {
            if (!done) {
                close();
            }
        }
    }

    /** The path MTU this side proposes: -m, else the port's active one, never above it ({@code set_mtu}). */
    static Mtu proposedMtu(PerftestOptions options, DeviceContext ctx) {
        Mtu active = ctx.queryPort(options.ibPort).activeMtu();
        return options.mtu == null || options.mtu.value() > active.value() ? active : options.mtu;
    }

    /** perftest's region rights: the one remote right its operation needs ({@code create_single_mr}). */
    private EnumSet<Access> regionAccess() {
        EnumSet<Access> access = EnumSet.of(Access.LOCAL_WRITE);
        switch (options.test.verb) {
            case WRITE -> access.add(Access.REMOTE_WRITE);
            case READ -> access.add(Access.REMOTE_READ);
            case ATOMIC -> access.add(Access.REMOTE_ATOMIC);
            case SEND -> { }
        }
        if (options.odp) {
            access.add(Access.ON_DEMAND);
        }
        return access;
    }

    /** The queue pair's rights ({@code ctx_modify_qp_to_init}). */
    private EnumSet<Access> qpAccess() {
        return switch (options.test.verb) {
            case WRITE -> EnumSet.of(Access.REMOTE_WRITE);
            case READ -> EnumSet.of(Access.REMOTE_READ);
            case ATOMIC -> EnumSet.of(Access.REMOTE_ATOMIC);
            case SEND -> EnumSet.of(Access.REMOTE_WRITE, Access.LOCAL_WRITE);
        };
    }

    /** READs and atomics in flight: the device's limit ({@code ctx_set_out_reads}); 1 for the others. */
    private int outReads(DeviceAttributes device) {
        PerftestTest.Verb verb = options.test.verb;
        if (verb != PerftestTest.Verb.READ && verb != PerftestTest.Verb.ATOMIC) {
            return 1;
        }
        return Math.max(1, Math.min(device.maxQpRdAtom(), device.maxQpInitRdAtom()));
    }

    KeyMessage keys(int qp) {
        return mine[qp];
    }

    long localArea(int qp) {
        return (long) qp * areaBytes;
    }

    long remoteArea(int qp) {
        return (long) (options.qps + qp) * areaBytes;
    }

    /**
     * Takes every queue pair to RTS towards the peer's ({@code ctx_connect}): its outstanding
     * reads bound what this side sends, this side's bound what it accepts.
     */
    void connect(KeyMessage[] theirs, Mtu pathMtu) {
        int mostInitiated = Math.max(1, Math.min(outReads, ctx.queryDevice().maxQpInitRdAtom()));
        for (int i = 0; i < qps.length; i++) {
            KeyMessage peer = theirs[i];
            if (peer.gid() == null) {
                throw new IllegalStateException("the peer sent no GID; RoCE needs one");
            }
            QueuePair qp = qps[i];
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(options.ibPort).access(qpAccess()));
            qp.modify(new QpAttributes().state(QpState.RTR)
                    .av(new AddressHandleAttributes(peer.gid(), gidIndex, options.ibPort, HOP_LIMIT, 0, 0, 0))
                    .pathMtu(pathMtu).destQpn(peer.qpn()).rqPsn(peer.psn())
                    .maxDestRdAtomic(outReads).minRnrTimer(MIN_RNR_TIMER));
            qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(mine[i].psn()).timeout(TIMEOUT)
                    .retryCount(RETRIES).rnrRetry(RETRIES)
                    .maxRdAtomic(Math.max(1, Math.min(peer.outReads(), mostInitiated))));
        }
    }

    String describe() {
        return String.format("device %s port %d, GID index %d (%s), %d QP(s), %d-byte areas%s", ctx.device().name(),
                options.ibPort, gidIndex, gid, qps.length, areaBytes, options.odp ? ", on-demand paging" : "");
    }

    /** perftest's {@code INC}: a size rounded up to whole cache lines. */
    static int roundUp(int size, int cacheLine) {
        return (size + cacheLine - 1) / cacheLine * cacheLine;
    }

    /** Prints the soft queue pairs' counters ({@link SoftQpCounters}); call before {@link #close}. */
    void printSoftCounters(java.io.PrintStream out) {
        if (qps != null) {
            SoftQpCounters.print(ctx, java.util.Arrays.asList(qps), out);
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {qpsCloser(), region, sendCq, recvCq, pd}) {
            closeQuietly(c);
        }
        if (arena != null) {
            arena.close();
        }
        closeQuietly(ctx);
    }

    private AutoCloseable qpsCloser() {
        return () -> {
            if (qps != null) {
                for (QueuePair qp : qps) {
                    closeQuietly(qp);
                }
            }
        };
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            System.err.println("verbs4j perf --compat: closing " + c + ": " + e.getMessage());
        }
    }
}

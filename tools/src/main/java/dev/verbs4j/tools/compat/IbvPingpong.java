package dev.verbs4j.tools.compat;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.Gid;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MrAdvice;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcField;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.tools.DeviceChoice;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code verbs4j pingpong --compat ibv...}: one side of rdma-core's {@code ibv_rc_pingpong},
 * {@code ibv_uc_pingpong}, {@code ibv_ud_pingpong} or {@code ibv_srq_pingpong}, the other side
 * being that C program (or this mode again). It sets its queue pairs up as the program does,
 * exchanges addresses in the program's format ({@link IbvExchange}), and runs the program's
 * loop: the client sends first, each side answers every message it receives, until both have
 * sent and received {@code -n} messages. Every message goes from and into one buffer filled
 * as the program fills it ({@code 0x7b}, zeroes for the SRQ program); with {@code -c} the
 * client zeroes the first byte of each page. Unlike the
 * C programs, this side checks every message it receives against that pattern, and fails
 * (exit status 1) when a byte differs or no completion comes for {@link #IDLE_TIMEOUT}.
 */
public final class IbvPingpong {
    private static final int RECV_WRID = 1;
    private static final int SEND_WRID = 2;
    private static final int QKEY = 0x11111111;
    private static final int GRH_BYTES = 40;
    private static final int PAGE = 4096;
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(20);
    /** Empty polls spent spinning before each wait parks briefly, leaving a soft engine thread the CPU. */
    private static final int SPIN_POLLS = 2_000;
    private static final long PARK_NS = 20_000;

    private final IbvPingpongOptions o;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean ud;
    private final int bufferBytes;
    /** Where a message starts in the buffer: after the GRH slot on UD. */
    private final int payload;

    private DeviceContext ctx;
    private ProtectionDomain pd;
    private MemorySegment buffer;
    private MemoryRegion mr;
    private CompletionChannel channel;
    private CompletionQueue cq;
    private SharedReceiveQueue srq;
    private final List<QueuePair> qps = new ArrayList<>();
    private AddressHandle ah;
    private int gidIndex;
    private long timestampMask;
    private int remoteUdQpn;
    private final ReceiveWorkRequest recvWr = new ReceiveWorkRequest();
    private final SendWorkRequest sendWr = new SendWorkRequest();
    private final WorkCompletion[] wcs;
    private int[] pending;
    private int routs;
    private long badMessages;
    private String firstBad;

    private IbvPingpong(IbvPingpongOptions options, PrintStream out, PrintStream err) {
        this.o = options;
        this.out = out;
        this.err = err;
        this.ud = options.program() == IbvProgram.UD;
        this.payload = ud ? GRH_BYTES : 0;
        this.bufferBytes = options.size() + payload;
        this.wcs = new WorkCompletion[options.numQp() + options.rxDepth()];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** Runs one side; the exit status is 0 when every message arrived intact. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        IbvPingpongOptions options;
        try {
            options = IbvPingpongOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("verbs4j pingpong: " + e.getMessage());
            err.println(IbvPingpongOptions.USAGE);
            return 2;
        }
        IbvPingpong side = new IbvPingpong(options, out, err);
        Arena arena = Arena.ofShared();
        try {
            return side.run(arena);
        } catch (VerbsException | IOException | UncheckedIOException | IllegalStateException e) {
            err.println(options.program().command + " (verbs4j): " + e.getMessage());
            return 1;
        } finally {
            // As the C programs do: the queue pairs go first, then the region, then its
            // memory. Freed before them, the memory would be the peer's last messages' target.
            side.close();
            arena.close();
        }
    }

    private int run(Arena arena) throws IOException {
        ctx = DeviceChoice.choose(o.provider(), o.device(), o.address()).open();
        DeviceAttributes device = ctx.queryDevice();
        timestampMask = device.completionTimestampMask();
        Optional<String> refusal = refusal(device);
        if (refusal.isPresent()) {
            err.println(refusal.get());
            return 1;
        }
        PortAttributes port = ctx.queryPort(o.ibPort());
        if (ud && o.size() > port.activeMtu().bytes()) {
            err.println("Requested size larger than port MTU (" + port.activeMtu().bytes() + ")");
            return 1;
        }
        setUp(arena);
        routs = postReceives(o.rxDepth());
        if (o.events()) {
            cq.requestNotify(false);
        }
        gidIndex = o.gidIndex() >= 0 ? o.gidIndex() : RcConnector.chooseGidIndex(ctx, o.ibPort(), port.gidTableLength());
        Gid gid = ctx.queryGid(o.ibPort(), gidIndex);
        List<IbvDestination> mine = new ArrayList<>();
        int slots = o.program() == IbvProgram.SRQ ? IbvProgram.SRQ_SLOTS : 1;
        for (int i = 0; i < slots; i++) {
            mine.add(i < qps.size() ? new IbvDestination(port.lid(), qps.get(i).qpn(), ThreadLocalRandom.current().nextInt(1 << 24), gid)
                    : IbvDestination.NONE);
        }
        for (int i = 0; i < qps.size(); i++) {
            printAddress("local address: ", mine.get(i));
        }
        List<IbvDestination> theirs;
        if (o.server() == null) {
            theirs = IbvExchange.asServer(o.tcpPort(), slots, IDLE_TIMEOUT, peer -> {
                connect(mine, peer);
                return mine;
            });
        } else {
            theirs = IbvExchange.asClient(o.server(), o.tcpPort(), mine, IDLE_TIMEOUT);
        }
        for (int i = 0; i < qps.size(); i++) {
            printAddress("remote address:", theirs.get(i));
        }
        if (o.server() != null) {
            connect(mine, theirs);
        }
        return pingpong();
    }

    /** Why the C program would stop here, as it says it, or empty. */
    private Optional<String> refusal(DeviceAttributes device) {
        if (o.odp()) {
            Set<OdpTransportCapability> needed = o.program() == IbvProgram.SRQ
                    ? EnumSet.of(OdpTransportCapability.SEND, OdpTransportCapability.SRQ_RECV)
                    : EnumSet.of(OdpTransportCapability.SEND, OdpTransportCapability.RECV);
            if (!device.odp().supported() || !device.odp().of(QpType.RC).containsAll(needed)) {
                return Optional.of("The device isn't ODP capable or does not support RC send and receive with ODP");
            }
            if (o.implicitOdp() && !device.odp().implicit()) {
                return Optional.of("The device doesn't support implicit ODP");
            }
        }
        if (o.timestamps() && device.completionTimestampMask() == 0) {
            return Optional.of("The device isn't completion timestamp capable");
        }
        return Optional.empty();
    }

    private void setUp(Arena arena) {
        pd = ctx.allocatePd();
        buffer = arena.allocate(bufferBytes, PAGE);
        buffer.fill(o.program().fill);
        EnumSet<Access> access = EnumSet.of(Access.LOCAL_WRITE);
        if (o.odp()) {
            access.add(Access.ON_DEMAND);
        }
        mr = o.implicitOdp() ? pd.registerImplicitOnDemand(access) : pd.registerMemory(buffer, access);
        if (o.prefetch()) {
            try {
                pd.adviseMr(MrAdvice.PREFETCH_WRITE, MrAdvice.FLAG_FLUSH, new ScatterGatherList(1).add(buffer.address(), o.size(), mr.lkey()));
            } catch (VerbsException e) {
                err.println("Couldn't prefetch MR(" + e.error().number() + "). Continue anyway");
            }
        }
        channel = o.events() ? ctx.createCompletionChannel() : null;
        int entries = o.rxDepth() + o.numQp();
        cq = o.timestamps()
                ? ctx.createExtendedCq(entries, channel, 0, EnumSet.of(WcField.COMPLETION_TIMESTAMP), Set.of())
                : ctx.createCq(entries, channel, 0);
        if (o.program() == IbvProgram.SRQ) {
            srq = pd.createSrq(o.rxDepth(), 1, 0);
        }
        for (int i = 0; i < o.numQp(); i++) {
            QpInitAttributes init = new QpInitAttributes(o.program().qpType, cq).capacity(1, srq != null ? 0 : o.rxDepth(), 1,
                    srq != null ? 0 : 1, 0).srq(srq);
            QueuePair qp = pd.createQp(init);
            qps.add(qp);
            QpAttributes toInit = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(o.ibPort());
            qp.modify(ud ? toInit.qkey(QKEY) : toInit.accessMask(0));
        }
        pending = new int[qps.size()];
    }

    private int postReceives(int n) {
        recvWr.wrId(RECV_WRID).sges().clear().add(buffer.address(), bufferBytes, mr.lkey());
        int posted = 0;
        try {
            for (; posted < n; posted++) {
                if (srq != null) {
                    srq.postRecv(recvWr);
                } else {
                    qps.getFirst().postRecv(recvWr);
                }
            }
        } catch (VerbsException full) {
            // as ibv_post_recv stopping at the first failure: the caller counts what was posted
        }
        return posted;
    }

    /** Brings queue pair i to RTS towards {@code theirs[i]}, with the program's attributes. */
    private void connect(List<IbvDestination> mine, List<IbvDestination> theirs) {
        for (int i = 0; i < qps.size(); i++) {
            IbvDestination remote = theirs.get(i);
            if (remote.gid().equals(Gid.ZERO)) {
                throw new IllegalStateException("the peer sent no GID for queue pair " + i
                        + ": a RoCE path needs one, so run the peer with -g GID_INDEX");
            }
            QueuePair qp = qps.get(i);
            int psn = mine.get(i).psn();
            if (ud) {
                qp.modify(new QpAttributes().state(QpState.RTR));
                qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(psn));
                ah = pd.createAh(new AddressHandleAttributes(remote.gid(), gidIndex, o.ibPort(), 64, 0, 0, o.sl()));
                remoteUdQpn = remote.qpn();
                continue;
            }
            QpAttributes rtr = new QpAttributes().state(QpState.RTR)
                    .av(new AddressHandleAttributes(remote.gid(), gidIndex, o.ibPort(), 1, 0, 0, o.sl()))
                    .pathMtu(o.mtu()).destQpn(remote.qpn()).rqPsn(remote.psn());
            QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(psn);
            if (o.program().qpType == QpType.RC) {
                rtr.maxDestRdAtomic(1).minRnrTimer(12);
                rts.timeout(14).retryCount(7).rnrRetry(7).maxRdAtomic(1);
            }
            qp.modify(rtr);
            qp.modify(rts);
        }
    }

    private int pingpong() {
        boolean client = o.server() != null;
        if (client && o.validate()) {
            for (int i = 0; i < o.size(); i += PAGE) {
                buffer.set(ValueLayout.JAVA_BYTE, payload + i, (byte) 0);
            }
        }
        for (int i = 0; i < qps.size(); i++) {
            pending[i] = RECV_WRID;
            if (client) {
                postSend(i);
                pending[i] |= SEND_WRID;
            }
        }
        long start = System.nanoTime();
        long rcnt = 0;
        long scnt = 0;
        Timestamps stamps = new Timestamps();
        long lastProgress = System.nanoTime();
        int emptyPolls = 0;
        while (rcnt < o.iters() || scnt < o.iters()) {
            int n = poll(stamps);
            if (n == 0) {
                if (System.nanoTime() - lastProgress > IDLE_TIMEOUT.toNanos()) {
                    err.printf("no completion for %d s: %d of %d sent, %d of %d received%n", IDLE_TIMEOUT.toSeconds(), scnt,
                            o.iters(), rcnt, o.iters());
                    return 1;
                }
                if (++emptyPolls < SPIN_POLLS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(PARK_NS);
                }
                continue;
            }
            emptyPolls = 0;
            lastProgress = System.nanoTime();
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = wcs[i];
                if (wc.status() != WcStatus.SUCCESS) {
                    err.printf("Failed status %s (%d) for wr_id %d%n", wc.status(), wc.status().value(), wc.wrId());
                    return 1;
                }
                int qp = qpIndex(wc.qpNum());
                if (wc.wrId() == SEND_WRID) {
                    scnt++;
                } else if (wc.wrId() == RECV_WRID) {
                    check(wc);
                    if (--routs <= qps.size()) {
                        routs += postReceives(o.rxDepth() - routs);
                        if (routs < o.rxDepth()) {
                            err.println("Couldn't post receive (" + routs + ")");
                            return 1;
                        }
                    }
                    rcnt++;
                } else {
                    err.println("Completion for unknown wr_id " + wc.wrId());
                    return 1;
                }
                pending[qp] &= ~(int) wc.wrId();
                if (scnt < o.iters() && pending[qp] == 0) {
                    postSend(qp);
                    pending[qp] = RECV_WRID | SEND_WRID;
                }
            }
        }
        double usec = (System.nanoTime() - start) / 1_000.0;
        long bytes = (long) o.size() * o.iters() * 2;
        out.printf("%d bytes in %.2f seconds = %.2f Mbit/sec%n", bytes, usec / 1_000_000, bytes * 8 / usec);
        out.printf("%d iters in %.2f seconds = %.2f usec/iter%n", o.iters(), usec / 1_000_000, usec / o.iters());
        stamps.print(out);
        if (badMessages > 0) {
            out.printf("invalid data in %s (%d messages differed from the pattern)%n", firstBad, badMessages);
            return 1;
        }
        out.printf("%d messages of %d bytes received, every byte as sent%n", rcnt, o.size());
        return 0;
    }

    private int qpIndex(int qpn) {
        if (qps.size() == 1) {
            return 0;
        }
        for (int i = 0; i < qps.size(); i++) {
            if (qps.get(i).qpn() == qpn) {
                return i;
            }
        }
        throw new IllegalStateException(String.format("Couldn't find QPN %06x", qpn));
    }

    private void postSend(int qp) {
        sendWr.wrId(SEND_WRID).signaled(true).send().sges().clear().add(buffer.address() + payload, o.size(), mr.lkey());
        if (ud) {
            sendWr.ud(ah, remoteUdQpn, QKEY);
        }
        qps.get(qp).postSend(sendWr);
    }

    /** Polls, waiting for the channel's event first with {@code -e}. */
    private int poll(Timestamps stamps) {
        if (o.events()) {
            if (channel.awaitEvent(Duration.ofMillis(100)).isEmpty()) {
                return 0;
            }
            cq.requestNotify(false);
        }
        if (cq instanceof ExtendedCompletionQueue ex) {
            return pollExtended(ex, stamps);
        }
        return cq.poll(wcs);
    }

    /** The {@code -t} loop: at most two completions per poll, each receive's timestamp taken, as ibv_rc_pingpong does. */
    private int pollExtended(ExtendedCompletionQueue ex, Timestamps stamps) {
        if (!ex.startPoll()) {
            return 0;
        }
        int n = 0;
        try {
            do {
                wcs[n].set(ex.wrId(), ex.status(), ex.opcode(), 0, 0, 0, 0, 0);
                if (ex.wrId() == RECV_WRID && ex.status() == WcStatus.SUCCESS) {
                    stamps.receive(ex.completionTimestamp(), timestampMask);
                }
                n++;
            } while (n < 2 && ex.nextPoll());
        } finally {
            ex.endPoll();
        }
        return n;
    }

    /** Compares the message with the program's fill, the page starts zeroed by a client with -c (or left). */
    private void check(WorkCompletion wc) {
        for (int i = 0; i < o.size(); i++) {
            byte b = buffer.get(ValueLayout.JAVA_BYTE, payload + i);
            boolean pageStart = i % PAGE == 0;
            boolean ok = b == o.program().fill ? !(pageStart && o.validate() && o.server() == null && b != 0)
                    : pageStart && b == 0;
            if (!ok) {
                if (badMessages++ == 0) {
                    firstBad = String.format("page %d: byte %d of the message is 0x%02x", i / PAGE, i, b & 0xff);
                }
                return;
            }
        }
    }

    private void printAddress(String what, IbvDestination d) {
        out.printf("  %s LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s%n", what, d.lid(), d.qpn(), d.psn(),
                d.gid().toInetAddress().getHostAddress());
    }

    private void close() {
        SoftQpCounters.print(ctx, qps, out);
        closeQuietly(ah);
        for (QueuePair qp : qps) {
            closeQuietly(qp);
        }
        closeQuietly(srq);
        closeQuietly(cq);
        closeQuietly(channel);
        closeQuietly(mr);
        closeQuietly(pd);
        closeQuietly(ctx);
    }

    private static void closeQuietly(AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            // the run's result is already decided; the process ends next
        }
    }

    /** The spread of receive completion timestamps, as ibv_rc_pingpong -t prints it. */
    private static final class Timestamps {
        private long previous;
        private boolean hasPrevious;
        private long max;
        private long min = 0xffffffffL;
        private long total;
        private long count;

        void receive(long stamp, long mask) {
            if (hasPrevious) {
                long delta = stamp >= previous ? stamp - previous : mask - previous + stamp + 1;
                max = Math.max(max, delta);
                min = Math.min(min, delta);
                total += delta;
                count++;
            }
            previous = stamp;
            hasPrevious = true;
        }

        void print(PrintStream out) {
            if (count > 0) {
                out.println("Max receive completion clock cycles = " + max);
                out.println("Min receive completion clock cycles = " + min);
                out.printf("Average receive completion clock cycles = %f%n", (double) total / count);
            }
        }
    }
}

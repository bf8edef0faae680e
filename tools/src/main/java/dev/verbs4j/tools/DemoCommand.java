package dev.verbs4j.tools;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.Provider;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.Verbs;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.List;

/**
 * {@code verbs4j demo}: connects an RC queue pair on each of two devices of the soft
 * provider (by default soft0 on 127.0.0.1 and soft1 on 127.0.0.2, real UDP on port
 * 4791) and runs one of every operation, checking and printing each result.
 */
final class DemoCommand {
    private static final long BUFFER = 1 << 20;

    private DemoCommand() {
    }

    /** One end of the demo connection. */
    private record End(DeviceContext ctx, ProtectionDomain pd, CompletionQueue cq, QueuePair qp, MemorySegment buf,
                       MemoryRegion mr) {
        static End open(Device device, Arena arena) {
            DeviceContext ctx = device.open();
            ProtectionDomain pd = ctx.allocatePd();
            CompletionQueue cq = ctx.createCq(64);
            QueuePair qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(32, 32, 2, 2, 64)
                    .allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE));
            MemorySegment buf = arena.allocate(BUFFER, 4096);
            MemoryRegion mr = pd.registerMemory(buf, ACCESS);
            return new End(ctx, pd, cq, qp, buf, mr);
        }

        void close() {
            qp.close();
            mr.close();
            cq.close();
            pd.close();
            ctx.close();
        }
    }

    private static final EnumSet<Access> ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL);

    static int run(String[] args, PrintStream out) {
        Provider soft = Verbs.provider("soft");
        List<Device> devices = soft.devices();
        if (devices.size() < 2) {
            throw new IllegalStateException("the demo needs two soft devices; configure verbs4j.soft.devices");
        }
        Device da = devices.get(0);
        Device db = devices.get(1);
        out.println("verbs4j demo: provider " + soft.name() + ", " + da + " <-> " + db);
        try (Arena arena = Arena.ofShared()) {
            End a = End.open(da, arena);
            End b = End.open(db, arena);
            try {
                RcOptions options = new RcOptions().access(ACCESS);
                QpEndpoint ea = RcConnector.localEndpoint(a.qp, options);
                QpEndpoint eb = RcConnector.localEndpoint(b.qp, options);
                RcConnector.bringUp(a.qp, ea, eb, options);
                RcConnector.bringUp(b.qp, eb, ea, options);
                out.printf("  connected RC QP 0x%x <-> 0x%x, MTU %d, PSNs 0x%06x / 0x%06x%n", ea.qpn(), eb.qpn(),
                        Math.min(ea.mtu().bytes(), eb.mtu().bytes()), ea.psn(), eb.psn());
                int failures = steps(a, b, out);
                out.println(failures == 0 ? "demo finished: every operation completed and checked"
                        : "demo finished with " + failures + " failed step(s)");
                return failures == 0 ? 0 : 1;
            } finally {
                a.close();
                b.close();
            }
        }
    }

    private static int steps(End a, End b, PrintStream out) {
        int failures = 0;
        WorkCompletion wc = new WorkCompletion();
        SendWorkRequest wr = new SendWorkRequest();

        fill(a.buf, 0, 8192, 3);
        b.qp.postRecv(new ReceiveWorkRequest().wrId(1).buffer(b.mr, 0, 8192));
        a.qp.postSend(wr.wrId(10).signaled(true).buffer(a.mr, 0, 8192).sendWithImm(0xcafe));
        WorkCompletion recv = new WorkCompletion();
        boolean ok = await(a.cq, wc) && await(b.cq, recv) && recv.byteLength() == 8192 && recv.immData() == 0xcafe
                && same(a.buf, 0, b.buf, 0, 8192);
        failures += report(out, "SEND 8 KiB with immediate 0xcafe", ok,
                "receiver got " + recv.byteLength() + " bytes, imm 0x" + Integer.toHexString(recv.immData()));

        fill(a.buf, 65536, 262144, 5);
        a.qp.postSend(wr.wrId(11).signaled(true).buffer(a.mr, 65536, 262144).rdmaWrite(b.mr.address() + 65536, b.mr.rkey()));
        ok = await(a.cq, wc) && same(a.buf, 65536, b.buf, 65536, 262144);
        failures += report(out, "RDMA WRITE 256 KiB", ok, "bytes match at the target");

        a.qp.postSend(wr.wrId(12).signaled(true).flush(b.mr.address() + 65536, b.mr.rkey(), 262144, FlushType.GLOBAL, FlushLevel.RANGE));
        ok = await(a.cq, wc);
        failures += report(out, "FLUSH (global visibility) of the written range", ok, "completion " + wc.opcode());

        fill(b.buf, 524288, 100_000, 9);
        a.qp.postSend(wr.wrId(13).signaled(true).buffer(a.mr, 524288, 100_000).rdmaRead(b.mr.address() + 524288, b.mr.rkey()));
        ok = await(a.cq, wc) && same(a.buf, 524288, b.buf, 524288, 100_000);
        failures += report(out, "RDMA READ 100,000 bytes", ok, "bytes match at the source");

        b.buf.set(ValueLayout.JAVA_LONG, 1024, 41);
        a.qp.postSend(wr.wrId(14).signaled(true).buffer(a.mr, 1024, 8).fetchAndAdd(b.mr.address() + 1024, b.mr.rkey(), 1));
        ok = await(a.cq, wc) && a.buf.get(ValueLayout.JAVA_LONG, 1024) == 41 && b.buf.get(ValueLayout.JAVA_LONG, 1024) == 42;
        failures += report(out, "FETCH_AND_ADD +1", ok, "returned " + a.buf.get(ValueLayout.JAVA_LONG, 1024)
                + ", remote now " + b.buf.get(ValueLayout.JAVA_LONG, 1024));

        a.qp.postSend(wr.wrId(15).signaled(true).buffer(a.mr, 1032, 8).compareAndSwap(b.mr.address() + 1024, b.mr.rkey(), 42, 7));
        ok = await(a.cq, wc) && a.buf.get(ValueLayout.JAVA_LONG, 1032) == 42 && b.buf.get(ValueLayout.JAVA_LONG, 1024) == 7;
        failures += report(out, "COMPARE_AND_SWAP 42 -> 7", ok, "returned " + a.buf.get(ValueLayout.JAVA_LONG, 1032)
                + ", remote now " + b.buf.get(ValueLayout.JAVA_LONG, 1024));

        a.qp.postSend(wr.wrId(16).signaled(true).atomicWrite(b.mr.address() + 2048, b.mr.rkey(), 0x0123456789abcdefL));
        ok = await(a.cq, wc) && b.buf.get(ValueLayout.JAVA_LONG, 2048) == 0x0123456789abcdefL;
        failures += report(out, "ATOMIC WRITE 0x0123456789abcdef", ok, "remote now 0x"
                + Long.toHexString(b.buf.get(ValueLayout.JAVA_LONG, 2048)) + ", completion " + wc.opcode());

        a.qp.postSend(wr.wrId(17).signaled(true).flush(0, b.mr.rkey(), 0, FlushType.GLOBAL, FlushLevel.MR));
        ok = await(a.cq, wc);
        failures += report(out, "FLUSH (global visibility) of the whole region", ok, "completion " + wc.opcode());
        return failures;
    }

    private static boolean await(CompletionQueue cq, WorkCompletion into) {
        WorkCompletion[] one = {into};
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end) {
            if (cq.poll(one) == 1) {
                return into.status() == WcStatus.SUCCESS;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private static int report(PrintStream out, String what, boolean ok, String detail) {
        out.printf("  %-48s %s: %s%n", what, ok ? "ok" : "FAILED", detail);
        return ok ? 0 : 1;
    }

    private static void fill(MemorySegment s, long offset, int length, int seed) {
        for (int i = 0; i < length; i++) {
            s.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (i * seed + seed));
        }
    }

    private static boolean same(MemorySegment x, long xo, MemorySegment y, long yo, int length) {
        return x.asSlice(xo, length).mismatch(y.asSlice(yo, length)) == -1;
    }
}

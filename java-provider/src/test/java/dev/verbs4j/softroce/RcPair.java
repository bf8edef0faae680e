package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Two connected RC queue pairs on two soft devices, with a registered buffer on each side. */
final class RcPair implements AutoCloseable {
    final Arena arena = Arena.ofShared();
    final Side a;
    final Side b;
    private final Runnable pump;

    /** One end: context, PD, CQ, QP and a buffer. */
    static final class Side {
        final DeviceContext ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemorySegment buf;
        final MemoryRegion mr;

        Side(SoftDevice device, Arena arena, long bufferSize, int queueDepth) {
            ctx = device.open();
            pd = ctx.allocatePd();
            cq = ctx.createCq(queueDepth * 2);
            qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(queueDepth, queueDepth, 4, 4, 64)
                    .allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE, WrOpcode.REG_MR));
            buf = arena.allocate(bufferSize, 4096);
            mr = pd.registerMemory(buf, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL));
        }

        void close() {
            qp.close();
            mr.close();
            cq.close();
            pd.close();
            ctx.close();
        }
    }

    RcPair(SoftDevice da, SoftDevice db, long bufferSize, int queueDepth, RcOptions options, Runnable pump) {
        this.pump = pump;
        a = new Side(da, arena, bufferSize, queueDepth);
        b = new Side(db, arena, bufferSize, queueDepth);
        QpEndpoint ea = RcConnector.localEndpoint(a.qp, options.psn(0xfffff0));
        QpEndpoint eb = RcConnector.localEndpoint(b.qp, options.psn(0x000100));
        RcConnector.bringUp(a.qp, ea, eb, options.psn(0xfffff0));
        RcConnector.bringUp(b.qp, eb, ea, options.psn(0x000100));
    }

    /** Polls {@code cq} until one completion arrives (pumping manual engines), or fails after the deadline. */
    WorkCompletion await(CompletionQueue cq, long timeoutMs) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long end = System.nanoTime() + timeoutMs * 1_000_000L;
        while (System.nanoTime() < end) {
            if (pump != null) {
                pump.run();
            }
            if (cq.poll(wc) == 1) {
                return wc[0];
            }
            Thread.onSpinWait();
        }
        return fail("no completion within " + timeoutMs + " ms");
    }

    void awaitTrue(BooleanSupplier condition, long timeoutMs) {
        long end = System.nanoTime() + timeoutMs * 1_000_000L;
        while (System.nanoTime() < end) {
            if (pump != null) {
                pump.run();
            }
            if (condition.getAsBoolean()) {
                return;
            }
        }
        fail("condition not met within " + timeoutMs + " ms");
    }

    @Override
    public void close() {
        a.close();
        b.close();
        arena.close();
    }
}

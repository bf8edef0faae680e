package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.MwType;
import dev.verbs4j.QpType;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.FakeVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Posting and polling allocate nothing on the Java heap: measured with the thread's
 * allocated-bytes counter over many calls through the fake provider, after a warm-up
 * that lets the JIT compile the path.
 */
class AllocationFreeDataPathTest {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 100_000;
    /** The counter itself costs under 1 KB; one 16-byte object per call would be 1.6 MB. */
    private static final long BUDGET_BYTES = 4 * 1024;

    private final FakeDevice fake = new FakeDevice();
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void release() {
        arena.close();
        fake.close();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long allocationOf(Runnable work) {
        for (int i = 0; i < WARM_UP; i++) {
            work.run();
        }
        long before = allocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            work.run();
        }
        return allocatedBytes() - before;
    }

    @Test
    void theCounterSeesAllocations() {
        assertTrue(((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).isThreadAllocatedMemoryEnabled());
        Object[] sink = new Object[1];
        assertTrue(allocationOf(() -> sink[0] = new long[2]) >= 16L * MEASURED, "the measurement can fail");
    }

    @Test
    void postingEveryKindOfSendAllocatesNothing() {
        long allOps = QpFactory.sendOpsFlags(EnumSet.complementOf(EnumSet.of(WrOpcode.REG_MR)), true);
        IbverbsQp qp = fake.queuePair(QpType.RC, allOps, new QpCapacity(64, 64, 4, 4, 64));
        IbverbsMw window = fake.window(MwType.TYPE_2);
        MemorySegment inline = arena.allocate(64);
        SendWorkRequest send = new SendWorkRequest(4).signaled(true);
        send.sges().add(0x1000, 64, 1).add(0x2000, 64, 2);
        SendWorkRequest inlineSend = new SendWorkRequest(2).inline(true);
        inlineSend.sges().add(inline, 0, 16).add(inline, 32, 16);
        SendWorkRequest write = new SendWorkRequest().rdmaWriteWithImm(0x9000, 7, 42);
        write.sges().add(0x1000, 64, 1);
        SendWorkRequest atomicWrite = new SendWorkRequest().atomicWrite(0x9000, 7, 1);
        SendWorkRequest flush = new SendWorkRequest().flush(0x9000, 7, 64, FlushType.GLOBAL, FlushLevel.RANGE);
        SendWorkRequest bind = new SendWorkRequest().bindMw(window, 0x5501, fake.mr, 0x1000, 64, 6);
        long[] id = {0};
        long allocated = allocationOf(() -> {
            qp.postSend(send.wrId(id[0]++).send());
            qp.postSend(inlineSend.wrId(id[0]++).sendWithImm(3));
            qp.postSend(write.wrId(id[0]++));
            qp.postSend(atomicWrite.wrId(id[0]++));
            qp.postSend(flush.wrId(id[0]++));
            qp.postSend(bind.wrId(id[0]++));
        });
        assertEquals("complete wr_id=" + Long.toHexString(id[0] - 1) + " flags=0", FakeVerbs.lastCall());
        assertTrue(allocated < BUDGET_BYTES, "allocated " + allocated + " bytes over " + 6L * MEASURED + " posts");
    }

    @Test
    void postingReceivesAllocatesNothing() {
        IbverbsQp qp = fake.queuePair(QpType.RC, 0, new QpCapacity(64, 64, 1, 2, 0));
        IbverbsSrq srq = fake.srq(64, 2);
        ReceiveWorkRequest wr = new ReceiveWorkRequest(2);
        wr.sges().add(0x1000, 64, 1).add(0x2000, 64, 2);
        long[] id = {0};
        long allocated = allocationOf(() -> {
            qp.postRecv(wr.wrId(id[0]++));
            srq.postRecv(wr.wrId(id[0]++));
        });
        assertTrue(allocated < BUDGET_BYTES, "allocated " + allocated + " bytes over " + 2L * MEASURED + " posts");
    }

    @Test
    void pollingAllocatesNothing() {
        WorkCompletion[] out = IntStream.range(0, 16).mapToObj(i -> new WorkCompletion()).toArray(WorkCompletion[]::new);
        FakeVerbs.setNextResult(16);
        int[] polled = {0};
        long allocated = allocationOf(() -> polled[0] += fake.cq.poll(out));
        assertEquals(16L * (WARM_UP + MEASURED), polled[0]);
        assertTrue(allocated < BUDGET_BYTES, "allocated " + allocated + " bytes over " + MEASURED + " polls");
    }
}

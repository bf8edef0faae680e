package dev.verbs4j;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkRequestReuseTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void refillingRequestsAndCompletionsAllocatesNothing() {
        SendWorkRequest send = new SendWorkRequest(4);
        ReceiveWorkRequest recv = new ReceiveWorkRequest(2);
        WorkCompletion wc = new WorkCompletion();
        long sink = 0;
        // Warm up so the JIT has compiled (and escape-analysed) the loop body.
        for (int round = 0; round < 3; round++) {
            sink += fill(send, recv, wc, 200_000);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        sink += fill(send, recv, wc, 1_000_000);
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertTrue(sink != 42, "keeps the loop alive");
        // A handful of bytes may come from the measurement itself; one allocation per
        // iteration would be at least 16 MB.
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes over 1,000,000 refills");
    }

    private static long fill(SendWorkRequest send, ReceiveWorkRequest recv, WorkCompletion wc, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            send.wrId(i).signaled((i & 1) == 0).fence(false);
            send.sges().clear().add(0x1000L + i, 64, 7).add(0x2000L + i, 32, 7);
            switch (i % 6) {
                case 0 -> send.rdmaWrite(0x9000L, 11);
                case 1 -> send.rdmaRead(0x9000L, 11);
                case 2 -> send.compareAndSwap(0x9000L, 11, i, i + 1);
                case 3 -> send.atomicWrite(0x9000L, 11, i);
                case 4 -> send.flush(0x9000L, 11, 4096, FlushType.GLOBAL, FlushLevel.RANGE);
                default -> send.sendWithImm(i);
            }
            recv.wrId(i).sges().clear().add(0x3000L, 128, 9);
            wc.set(i, WcStatus.SUCCESS, WcOpcode.RECV, 128, 5, 0, WcFlag.WITH_IMM.value(), i);
            sum += send.sges().totalLength() + recv.sges().totalLength() + wc.byteLength() + send.opcode().value();
        }
        return sum;
    }

    @Test
    void operationMethodsSetOpcodeAndOperands() {
        SendWorkRequest wr = new SendWorkRequest();
        wr.compareAndSwap(0x1000, 5, 1, 2);
        assertEquals(WrOpcode.ATOMIC_CMP_AND_SWP, wr.opcode());
        assertEquals(1, wr.compareAdd());
        assertEquals(2, wr.swap());
        wr.flush(0x2000, 6, 512, FlushType.GLOBAL.value() | FlushType.PERSISTENT.value(), FlushLevel.MR);
        assertEquals(WrOpcode.FLUSH, wr.opcode());
        assertEquals(3, wr.flushType());
        assertEquals(FlushLevel.MR, wr.flushLevel());
        assertEquals(512, wr.remoteLength());
        wr.signaled(true).fence(true).signaled(false);
        assertEquals(SendFlag.FENCE.value(), wr.flags());
    }

    @Test
    void completionOpcodeFollowsTheRequest() {
        assertEquals(WcOpcode.FLUSH, WrOpcode.FLUSH.completionOpcode());
        assertEquals(WcOpcode.ATOMIC_WRITE, WrOpcode.ATOMIC_WRITE.completionOpcode());
        assertEquals(WcOpcode.SEND, WrOpcode.SEND_WITH_INV.completionOpcode());
        assertEquals(WcOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM.completionOpcode());
        assertTrue(WcOpcode.RECV_RDMA_WITH_IMM.isReceive());
    }
}

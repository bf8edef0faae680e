package dev.verbs4j.softroce;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.Mtu;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.Counters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mixed RC traffic over a network that loses, duplicates, reorders and corrupts packets:
 * every operation completes successfully, every byte lands where it should, and every
 * atomic executes exactly once.
 */
class LossyTransportTest {
    private static final int SLOT = 8192;          // bytes per write/read slot (2 packets at MTU 4096)
    private static final int SLOTS = 32;
    private static final long WRITE_AREA = 0;
    private static final long READ_AREA = SLOTS * SLOT;
    private static final long SEND_AREA = 2L * SLOTS * SLOT;
    private static final long ATOMIC_AREA = 3L * SLOTS * SLOT;
    private static final long BUFFER = 4L * SLOTS * SLOT;

    /**
     * At MTU 4096 a message is at most two packets; at MTU 256 up to 32, and the 24 in flight
     * overrun the window of unacknowledged packets, so packets are lost while their message is
     * still being sent, and go-back-N must take that message back too.
     */
    @ParameterizedTest(name = "loss {0}, duplicate {1}, reorder {2}, corrupt {3}, MTU {4}, {5} operations")
    @CsvSource({"0.01, 0.01, 0.02, 0.001, 4096, 100000", "0.10, 0.05, 0.05, 0.01, 4096, 100000",
            "0.30, 0.05, 0.10, 0.01, 4096, 100000", "0.05, 0.02, 0.05, 0.005, 256, 10000"})
    void mixedOperationsCompleteExactlyOnceUnderFaults(double loss, double dup, double reorder, double corrupt, int mtu, int operations) {
        SimulatedPair sim = new SimulatedPair(42);
        sim.network.faults(loss, dup, reorder, corrupt);
        RcOptions options = new RcOptions().timeout(8).retryCount(7).rnrRetry(7).minRnrTimer(1).mtu(Mtu.ofBytes(mtu));
        try (RcPair pair = sim.connect(BUFFER, 32, options)) {
            run(pair, sim, operations);
            Counters counters = sim.deviceA.engine().counters();
            if (loss >= 0.1) {
                assertTrue(counters.get(Counters.RETRANSMITS) > 0, "faults must have caused retransmissions");
            }
            assertTrue(sim.deviceB.engine().counters().get(Counters.DROP_ICRC) + sim.deviceA.engine().counters().get(Counters.DROP_ICRC) > 0
                    || corrupt == 0, "corrupted packets must be dropped by the ICRC check");
        }
    }

    private static void run(RcPair pair, SimulatedPair sim, int operations) {
        SplittableRandom random = new SplittableRandom(7);
        MemorySegment a = pair.a.buf;
        MemorySegment b = pair.b.buf;
        for (int i = 0; i < SLOTS * SLOT; i++) {
            b.set(ValueLayout.JAVA_BYTE, READ_AREA + i, (byte) (i * 31 + 7));
        }
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        long faaCount = 0;
        long casNext = 0;
        long sendsExpected = 0;
        long sendsReceived = 0;
        int outstanding = 0;
        int posted = 0;
        int[] kindOf = new int[1 << 16];
        long[] expectOf = new long[1 << 16];
        long[] faaResults = new long[operations];
        int faaSeen = 0;
        int recvPosted = 0;
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (posted < operations || outstanding > 0) {
            assertTrue(System.nanoTime() < deadline, "traffic did not finish: posted " + posted + ", outstanding " + outstanding);
            while (recvPosted - sendsReceived < 16) {
                int slot = recvPosted % 16;
                pair.b.qp.postRecv(rr.wrId(recvPosted).buffer(pair.b.mr, SEND_AREA + (long) slot * SLOT, SLOT));
                recvPosted++;
            }
            while (posted < operations && outstanding < 24) {
                int id = posted & 0xffff;
                int kind = random.nextInt(7);
                int slot = posted % SLOTS; // never shared by two outstanding operations (at most 24 are)
                int len = 1 + random.nextInt(SLOT);
                wr.wrId(posted).signaled(true);
                switch (kind) {
                    case 0 -> { // WRITE: A's slot pattern -> B's write slot
                        fill(a, WRITE_AREA + (long) slot * SLOT, len, posted);
                        wr.buffer(pair.a.mr, WRITE_AREA + (long) slot * SLOT, len)
                                .rdmaWrite(pair.b.mr.address() + WRITE_AREA + (long) slot * SLOT, pair.b.mr.rkey());
                        expectOf[id] = ((long) slot << 32) | len;
                    }
                    case 1 -> { // READ: B's fixed read slot -> A's read slot
                        wr.buffer(pair.a.mr, READ_AREA + (long) slot * SLOT, len)
                                .rdmaRead(pair.b.mr.address() + READ_AREA + (long) slot * SLOT, pair.b.mr.rkey());
                        expectOf[id] = ((long) slot << 32) | len;
                    }
                    case 2 -> { // SEND with a sequence number
                        a.set(ValueLayout.JAVA_LONG_UNALIGNED, SEND_AREA + (long) slot * SLOT, sendsExpected);
                        wr.buffer(pair.a.mr, SEND_AREA + (long) slot * SLOT, 8 + random.nextInt(SLOT - 8)).send();
                        sendsExpected++;
                    }
                    case 3 -> wr.buffer(pair.a.mr, ATOMIC_AREA + 64 + (id % 512) * 8L, 8)
                            .fetchAndAdd(pair.b.mr.address() + ATOMIC_AREA, pair.b.mr.rkey(), 1);
                    case 4 -> {
                        wr.buffer(pair.a.mr, ATOMIC_AREA + 8192 + (id % 512) * 8L, 8)
                                .compareAndSwap(pair.b.mr.address() + ATOMIC_AREA + 8, pair.b.mr.rkey(), casNext, casNext + 1);
                        expectOf[id] = casNext;
                        casNext++;
                    }
                    case 5 -> wr.atomicWrite(pair.b.mr.address() + ATOMIC_AREA + 16, pair.b.mr.rkey(), posted);
                    default -> wr.flush(pair.b.mr.address() + WRITE_AREA, pair.b.mr.rkey(), SLOTS * SLOT, FlushType.GLOBAL,
                            FlushLevel.RANGE);
                }
                kindOf[id] = kind;
                pair.a.qp.postSend(wr);
                posted++;
                outstanding++;
            }
            sim.step();
            int n = pair.a.cq.poll(wcs);
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = wcs[i];
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                int id = (int) (wc.wrId() & 0xffff);
                switch (kindOf[id]) {
                    case 0 -> verifyWrite(a, b, expectOf[id]);
                    case 1 -> verifyRead(a, b, expectOf[id]);
                    case 3 -> faaResults[faaSeen++] = a.get(ValueLayout.JAVA_LONG_UNALIGNED, ATOMIC_AREA + 64 + (id % 512) * 8L);
                    case 4 -> assertEquals(expectOf[id], a.get(ValueLayout.JAVA_LONG_UNALIGNED, ATOMIC_AREA + 8192 + (id % 512) * 8L),
                            "compare-and-swap must see the value the previous one stored");
                    default -> {
                    }
                }
                outstanding--;
            }
            int m = pair.b.cq.poll(wcs);
            for (int i = 0; i < m; i++) {
                WorkCompletion wc = wcs[i];
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals(WcOpcode.RECV, wc.opcode());
                int slot = (int) (wc.wrId() % 16);
                assertEquals(sendsReceived, b.get(ValueLayout.JAVA_LONG_UNALIGNED, SEND_AREA + (long) slot * SLOT),
                        "sends arrive once and in order");
                sendsReceived++;
            }
        }
        while (sendsReceived < sendsExpected) {
            sim.step();
            int m = pair.b.cq.poll(wcs);
            for (int i = 0; i < m; i++) {
                assertEquals(WcStatus.SUCCESS, wcs[i].status());
                sendsReceived++;
            }
        }
        assertEquals(sendsExpected, sendsReceived);
        long faaFinal = b.get(ValueLayout.JAVA_LONG_UNALIGNED, ATOMIC_AREA);
        assertEquals(faaSeen, faaFinal, "each fetch-and-add executed exactly once");
        java.util.Arrays.sort(faaResults, 0, faaSeen);
        for (int i = 0; i < faaSeen; i++) {
            assertEquals(i, faaResults[i], "fetch-and-add results are 0..n-1 without gaps or repeats");
        }
        assertEquals(casNext, b.get(ValueLayout.JAVA_LONG_UNALIGNED, ATOMIC_AREA + 8), "each compare-and-swap executed exactly once");
    }

    private static void fill(MemorySegment s, long offset, int len, int seed) {
        for (int i = 0; i < len; i += 8) {
            long v = ((long) seed << 20) ^ i;
            if (len - i >= 8) {
                s.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + i, v);
            } else {
                for (int j = i; j < len; j++) {
                    s.set(ValueLayout.JAVA_BYTE, offset + j, (byte) (v >>> (8 * (j - i))));
                }
            }
        }
    }

    private static void verifyWrite(MemorySegment a, MemorySegment b, long slotLen) {
        long offset = WRITE_AREA + (slotLen >>> 32) * SLOT;
        int len = (int) slotLen;
        long mismatch = a.asSlice(offset, len).mismatch(b.asSlice(offset, len));
        assertEquals(-1, mismatch, "written bytes differ at " + mismatch);
    }

    private static void verifyRead(MemorySegment a, MemorySegment b, long slotLen) {
        long offset = READ_AREA + (slotLen >>> 32) * SLOT;
        int len = (int) slotLen;
        long mismatch = a.asSlice(offset, len).mismatch(b.asSlice(offset, len));
        assertEquals(-1, mismatch, "read bytes differ at " + mismatch);
    }
}

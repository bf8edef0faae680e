package dev.verbs4j;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgumentValidationTest {
    @Test
    void scatterGatherListRejectsOverflowAndNegativeLengths() {
        ScatterGatherList sges = new ScatterGatherList(2);
        sges.add(1, 1, 1).add(2, 2, 2);
        IllegalStateException full = assertThrows(IllegalStateException.class, () -> sges.add(3, 3, 3));
        assertTrue(full.getMessage().contains("full"), full.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ScatterGatherList(1).add(0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new ScatterGatherList(0));
        assertThrows(IndexOutOfBoundsException.class, () -> sges.clear().address(0));
    }

    @Test
    void aSegmentEntryLiesWithinItsSegmentAndIsKeptUntilCleared() {
        ScatterGatherList sges = new ScatterGatherList(3);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(64);
            sges.add(memory, 16, 48).add(0x1000, 8, 7).add(memory);
            assertEquals(memory.address() + 16, sges.address(0));
            assertEquals(48, sges.length(0));
            assertEquals(0, sges.lkey(0));
            assertSame(memory, sges.segment(0));
            assertNull(sges.segment(1), "an entry given by address has no segment");
            assertEquals(64, sges.length(2));
            assertSame(memory, new ScatterGatherList(3).copyFrom(sges).segment(2), "copied with its segment");
            assertThrows(IndexOutOfBoundsException.class, () -> new ScatterGatherList(1).add(memory, 17, 48));
            assertThrows(IndexOutOfBoundsException.class, () -> new ScatterGatherList(1).add(memory, -1, 8));
            assertThrows(IllegalArgumentException.class, () -> new ScatterGatherList(1).add(MemorySegment.ofArray(new byte[8])));
            sges.clear().add(0x2000, 8, 1);
            assertNull(sges.segment(0), "a cleared entry forgets its segment");
        }
        MemorySegment closed;
        try (Arena arena = Arena.ofConfined()) {
            closed = arena.allocate(8);
        }
        assertThrows(IllegalStateException.class, () -> new ScatterGatherList(1).add(closed));
    }

    @Test
    void fastRegistrationRejectsAPageCountOutsideItsArray() {
        SendWorkRequest wr = new SendWorkRequest();
        long[] pages = {0x1000, 0x2000};
        assertThrows(IllegalArgumentException.class, () -> wr.registerMr(null, 1, pages, 3, 12, 0, 4096, 0));
        assertThrows(IllegalArgumentException.class, () -> wr.registerMr(null, 1, pages, -1, 12, 0, 4096, 0));
        assertThrows(NullPointerException.class, () -> wr.registerMr(null, 1, null, 0, 12, 0, 4096, 0));
        assertEquals(WrOpcode.REG_MR, wr.registerMr(null, 1, pages, 2, 12, 0, 8192, 0).opcode());
    }

    @Test
    void mtuKnowsOnlyIbSizes() {
        assertEquals(Mtu.MTU_4096, Mtu.ofBytes(4096));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mtu.ofBytes(1500));
        assertTrue(e.getMessage().contains("1500"));
        assertThrows(IllegalArgumentException.class, () -> Mtu.of(6));
        // Ethernet 1500 gives IB 1024, 9000 gives 4096 (the kernel rxe's rule).
        assertEquals(Mtu.MTU_1024, Mtu.fittingEthernetMtu(1500));
        assertEquals(Mtu.MTU_4096, Mtu.fittingEthernetMtu(9000));
    }

    @Test
    void addressHandleAttributesRejectOutOfRangeFields() {
        Gid gid = Gid.parse("::ffff:127.0.0.1");
        assertThrows(IllegalArgumentException.class, () -> new AddressHandleAttributes(gid, 0, 0, 64, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new AddressHandleAttributes(gid, 0, 1, 256, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new AddressHandleAttributes(gid, 0, 1, 64, 0, 1 << 20, 0));
        assertThrows(NullPointerException.class, () -> new AddressHandleAttributes(null, 0, 1, 64, 0, 0, 0));
    }

    @Test
    void qpInitAttributesNeedQueuesAndPositiveCapacities() {
        assertThrows(NullPointerException.class, () -> new QpInitAttributes(QpType.RC, null));
        QpInitAttributes attrs = new QpInitAttributes(QpType.RC, new FakeCq());
        assertThrows(IllegalArgumentException.class, () -> attrs.capacity(0, 1, 1, 1, 0));
        assertTrue(!attrs.allows(WrOpcode.FLUSH) && !attrs.allows(WrOpcode.ATOMIC_WRITE),
                "FLUSH and ATOMIC WRITE must be asked for explicitly");
        attrs.allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE);
        assertEquals((1 << 11) | (1 << 12), attrs.sendOpsFlags() & ((1 << 11) | (1 << 12)));
        assertTrue(!new QpInitAttributes(QpType.UD, new FakeCq()).allows(WrOpcode.RDMA_WRITE));
    }

    @Test
    void qpAttributeSettersBuildTheMask() {
        QpAttributes a = new QpAttributes().state(QpState.RTR).pathMtu(Mtu.MTU_4096).destQpn(0x12).rqPsn(5);
        int expected = QpAttrMask.STATE.value() | QpAttrMask.PATH_MTU.value() | QpAttrMask.DEST_QPN.value()
                | QpAttrMask.RQ_PSN.value();
        assertEquals(expected, a.mask());
        assertEquals(0, a.clear().mask());
    }

    @Test
    void accessMasksRoundTrip() {
        EnumSet<Access> set = EnumSet.of(Access.LOCAL_WRITE, Access.FLUSH_PERSISTENT, Access.RELAXED_ORDERING);
        assertEquals(set, Access.fromMask(Access.toMask(set)));
    }

    @Test
    void errnoExceptionCarriesTheNumber() {
        VerbsException e = new VerbsException(Errno.EBUSY, "pd in use");
        assertEquals(16, e.errno());
        assertEquals(Errno.EBUSY, e.error());
        assertTrue(e.getMessage().contains("EBUSY"));
        assertEquals(Errno.UNKNOWN, new VerbsException(4242, "odd").error());
        assertEquals(4242, new VerbsException(4242, "odd").errno());
    }

    @Test
    void rkeyIncrementStepsOnlyTheLowByte() {
        assertEquals(0x12345601, MemoryWindow.incrementRkey(0x12345600));
        assertEquals(0x12345600, MemoryWindow.incrementRkey(0x123456ff));
    }

    /** A completion queue stand-in for attribute tests. */
    private static final class FakeCq implements CompletionQueue {
        @Override public int capacity() { return 1; }
        @Override public CompletionChannel channel() { return null; }
        @Override public int poll(WorkCompletion[] out, int max) { return 0; }
        @Override
        public void resize(int minEntries) {
        }

        @Override public void requestNotify(boolean solicitedOnly) { }
        @Override public void close() { }
    }
}

package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BthTest {
    private final MemorySegment buffer = MemorySegment.ofArray(new byte[20]);
    private final Bth bth = new Bth().wrap(buffer, 3);

    @Test
    void initWritesTheIbtaLayout() {
        buffer.fill((byte) 0xEE);
        bth.init(Opcodes.RC_RDMA_WRITE_ONLY, true, false, 2, 0x8001, 0x123456, true, 0xABCDEF);
        assertEquals("eeeeee" + "0a" + "a0" + "8001" + "00123456" + "80abcdef" + "eeeeeeeeee", hex());
    }

    @Test
    void initMasksFieldsToTheirWidth() {
        bth.init(0x1FF, false, true, 7, 0x1FFFF, 0x7F000001, false, 0x01FFFFFE);
        assertEquals(0xFF, bth.opcode());
        assertEquals(3, bth.padCount());
        assertEquals(0xFFFF, bth.pkey());
        assertEquals(1, bth.destQp());
        assertEquals(0, bth.resv8a());
        assertEquals(0xFFFFFE, bth.psn());
        assertFalse(bth.ackReq());
        assertTrue(bth.migReq());
    }

    @Test
    void gettersReadAllOnesWithoutThrowing() {
        buffer.fill((byte) 0xFF);
        assertEquals(0xFF, bth.opcode());
        assertTrue(bth.solicited());
        assertTrue(bth.migReq());
        assertEquals(3, bth.padCount());
        assertEquals(15, bth.tver());
        assertEquals(0xFFFF, bth.pkey());
        assertEquals(0xFF, bth.resv8a());
        assertTrue(bth.fecn());
        assertTrue(bth.becn());
        assertEquals(0xFFFFFF, bth.destQp());
        assertTrue(bth.ackReq());
        assertEquals(0xFFFFFF, bth.psn());
    }

    @Test
    void gettersStayInRangeForRandomBytes() {
        SplittableRandom random = new SplittableRandom(11);
        byte[] bytes = new byte[20];
        for (int n = 0; n < 1000; n++) {
            random.nextBytes(bytes);
            Bth b = new Bth().wrap(MemorySegment.ofArray(bytes), 0);
            assertTrue(b.opcode() >= 0 && b.opcode() <= 0xFF);
            assertTrue(b.padCount() >= 0 && b.padCount() <= 3);
            assertTrue(b.tver() >= 0 && b.tver() <= 15);
            assertTrue(b.pkey() >= 0 && b.pkey() <= 0xFFFF);
            assertTrue(Psn.isValid(b.psn()) && Psn.isValid(b.destQp()));
        }
    }

    @Test
    void eachSetterChangesOnlyItsOwnBits() {
        assertOnly(() -> bth.opcode(0x00), "00ffffffffffffffffffffff");
        assertOnly(() -> bth.solicited(false), "ff7fffffffffffffffffffff");
        assertOnly(() -> bth.migReq(false), "ffbfffffffffffffffffffff");
        assertOnly(() -> bth.padCount(0), "ffcfffffffffffffffffffff");
        assertOnly(() -> bth.padCount(1), "ffdfffffffffffffffffffff");
        assertOnly(() -> bth.tver(0), "fff0ffffffffffffffffffff");
        assertOnly(() -> bth.pkey(0x1234), "ffff1234ffffffffffffffff");
        assertOnly(() -> bth.resv8a(0), "ffffffff00ffffffffffffff");
        assertOnly(() -> bth.destQp(0x000102), "ffffffffff000102ffffffff");
        assertOnly(() -> bth.ackReq(false), "ffffffffffffffff7fffffff");
        assertOnly(() -> bth.psn(0x000000), "ffffffffffffffffff000000");
    }

    @Test
    void settersSetBitsInAZeroHeader() {
        buffer.fill((byte) 0);
        bth.solicited(true).migReq(true).padCount(3).tver(1).ackReq(true).resv8a(0x80);
        assertEquals("00f1000080000000" + "80000000", hex().substring(6, 30));
        assertTrue(bth.fecn());
        assertFalse(bth.becn());
    }

    private void assertOnly(Runnable set, String expectedBthHex) {
        buffer.fill((byte) 0xFF);
        set.run();
        assertEquals("ffffff" + expectedBthHex + "ffffffffff", hex());
    }

    private String hex() {
        return HexFormat.of().formatHex(buffer.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    }
}

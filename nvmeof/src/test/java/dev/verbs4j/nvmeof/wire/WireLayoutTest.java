package dev.verbs4j.nvmeof.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The structures' bytes as the kernel's C structs lay them out (include/linux/nvme.h,
 * nvme-rdma.h): little-endian fields at the offsets the specifications give.
 */
class WireLayoutTest {
    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void cmRequestIsRecfmtQidHrqsizeHsqsizeCntlid() {
        byte[] encoded = new CmPrivateData.Request(0, 1, 128, 127, 0x0102).encode();
        byte[] expected = new byte[32];
        byte[] head = HexFormat.of().parseHex("0000" + "0100" + "8000" + "7f00" + "0201");
        System.arraycopy(head, 0, expected, 0, head.length);
        assertArrayEquals(expected, encoded);
        assertEquals(new CmPrivateData.Request(0, 1, 128, 127, 0x0102), CmPrivateData.Request.decode(encoded));
    }

    @Test
    void cmAcceptAndRejectCarryRecfmtThenTheirValue() {
        assertArrayEquals(HexFormat.of().parseHex("00008000" + "00".repeat(28)), CmPrivateData.accept(128));
        assertArrayEquals(HexFormat.of().parseHex("00000300"), CmPrivateData.reject(CmPrivateData.REJECT_INVALID_QID));
        assertEquals(3, CmPrivateData.rejectStatus(CmPrivateData.reject(3)));
    }

    @Test
    void keyedSglWithInvalidateIsTypeFourSubtypeF() {
        MemorySegment s = Arena.ofAuto().allocate(64);
        Sqe sqe = new Sqe().wrap(s, 0);
        sqe.opcode(Opcodes.IO_READ).flags(Sqe.FLAGS_PSDT_SGL).commandId(0x1234).nsid(1)
                .keyedSgl(0x1122334455667788L, 0x012345, 0xaabbccdd, true);
        assertEquals("02" + "40" + "3412" + "01000000", HexFormat.of().formatHex(bytes(s.asSlice(0, 8))));
        assertEquals("8877665544332211" + "452301" + "ddccbbaa" + "4f",
                HexFormat.of().formatHex(bytes(s.asSlice(24, 16))));
        assertEquals(0x012345, sqe.keyedLength());
        assertEquals(0xaabbccdd, sqe.keyedKey());
    }

    @Test
    void inCapsuleSglIsTypeZeroSubtypeOneWithAFourByteLength() {
        MemorySegment s = Arena.ofAuto().allocate(64);
        new Sqe().wrap(s, 0).inCapsuleSgl(0, 4096);
        assertEquals("0000000000000000" + "00100000" + "000000" + "01",
                HexFormat.of().formatHex(bytes(s.asSlice(24, 16))));
    }

    @Test
    void cqeStatusSitsAboveThePhaseBit() {
        MemorySegment s = Arena.ofAuto().allocate(16);
        Cqe cqe = new Cqe().wrap(s, 0);
        cqe.write(7, 3, 1, 0x00ab, NvmeStatus.LBA_RANGE | NvmeStatus.DNR);
        assertEquals("0700000000000000" + "0300" + "0100" + "ab00" + "0081",
                HexFormat.of().formatHex(bytes(s)));
        assertEquals(NvmeStatus.LBA_RANGE | NvmeStatus.DNR, cqe.status());
    }

    @Test
    void identifyControllerPutsTheFabricsFieldsWhereTheHostReadsThem() {
        MemorySegment s = Arena.ofAuto().allocate(4096);
        IdentifyController.write(s, 0, new IdentifyController.Fields(5, "SN", "MODEL", "FW", "nqn.x", false, 2, 128, 5,
                10, 4096, true));
        assertEquals(5, Le.u16(s, 78));
        assertEquals(0x00010300, Le.u32(s, 80));
        assertEquals(10, Le.u16(s, 320));
        assertEquals(128, Le.u16(s, 514));
        assertEquals(0x66, Le.u8(s, 512));
        assertEquals(0x44, Le.u8(s, 513));
        assertEquals(1 | 1 << 2 | 1 << 20, Le.u32(s, 536));
        assertEquals("nqn.x", Le.ascii(s, 768, 256));
        assertEquals(260, Le.u32(s, 1792));
        assertEquals(1, Le.u32(s, 1796));
        assertEquals(0, Le.u16(s, 1800));
        assertEquals(1, Le.u8(s, 111));
    }
}

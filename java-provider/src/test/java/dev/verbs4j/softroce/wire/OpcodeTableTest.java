package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.verbs4j.softroce.wire.OpcodeTable.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the opcode table against an independent statement of IBTA Vol. 1 Table 38 (plus the
 * IBTA 1.5 FLUSH and ATOMIC WRITE rows): which extension headers each opcode carries, in wire
 * order, with the IBTA header sizes typed in here rather than taken from the flyweights.
 */
class OpcodeTableTest {
    private static final int BTH = 12;
    private static final Map<String, Integer> IBTA_SIZE = Map.of(
            "RETH", 16, "AETH", 4, "AtomicETH", 28, "AtomicAckETH", 8,
            "ImmDt", 4, "IETH", 4, "DETH", 8, "FETH", 4);

    /** opcode -> extension headers in wire order. */
    private static final Map<Integer, List<String>> SPEC = new LinkedHashMap<>();

    static {
        for (int t : new int[] {0x00, 0x20}) {
            SPEC.put(t | 0x00, List.of());
            SPEC.put(t | 0x01, List.of());
            SPEC.put(t | 0x02, List.of());
            SPEC.put(t | 0x03, List.of("ImmDt"));
            SPEC.put(t | 0x04, List.of());
            SPEC.put(t | 0x05, List.of("ImmDt"));
            SPEC.put(t | 0x06, List.of("RETH"));
            SPEC.put(t | 0x07, List.of());
            SPEC.put(t | 0x08, List.of());
            SPEC.put(t | 0x09, List.of("ImmDt"));
            SPEC.put(t | 0x0A, List.of("RETH"));
            SPEC.put(t | 0x0B, List.of("RETH", "ImmDt"));
        }
        SPEC.put(0x0C, List.of("RETH"));
        SPEC.put(0x0D, List.of("AETH"));
        SPEC.put(0x0E, List.of());
        SPEC.put(0x0F, List.of("AETH"));
        SPEC.put(0x10, List.of("AETH"));
        SPEC.put(0x11, List.of("AETH"));
        SPEC.put(0x12, List.of("AETH", "AtomicAckETH"));
        SPEC.put(0x13, List.of("AtomicETH"));
        SPEC.put(0x14, List.of("AtomicETH"));
        SPEC.put(0x16, List.of("IETH"));
        SPEC.put(0x17, List.of("IETH"));
        SPEC.put(0x1C, List.of("FETH", "RETH"));
        SPEC.put(0x1D, List.of("RETH"));
        SPEC.put(0x64, List.of("DETH"));
        SPEC.put(0x65, List.of("DETH", "ImmDt"));
    }

    @Test
    void everyRowHasTheIbtaHeaderLengthAndOffsets() {
        for (int opcode = 0; opcode < 256; opcode++) {
            List<String> headers = SPEC.get(opcode);
            String what = String.format("opcode 0x%02x %s", opcode, Opcodes.name(opcode));
            if (headers == null) {
                assertEquals(0, flags(opcode), what);
                assertEquals(0, headerLength(opcode), what);
                assertFalse(isValid(opcode), what);
                continue;
            }
            assertTrue(isValid(opcode), what);
            int offset = BTH;
            Map<String, Integer> expected = new LinkedHashMap<>();
            for (String header : headers) {
                expected.put(header, offset);
                offset += IBTA_SIZE.get(header);
            }
            assertEquals(offset, headerLength(opcode), what + " header length");
            assertHeader(what, "RETH", expected, HAS_RETH, rethOffset(opcode), flags(opcode));
            assertHeader(what, "AETH", expected, HAS_AETH, aethOffset(opcode), flags(opcode));
            assertHeader(what, "AtomicETH", expected, HAS_ATOMIC_ETH, atomicEthOffset(opcode), flags(opcode));
            assertHeader(what, "AtomicAckETH", expected, HAS_ATOMIC_ACK_ETH, atomicAckEthOffset(opcode), flags(opcode));
            assertHeader(what, "ImmDt", expected, HAS_IMM_DT, immDtOffset(opcode), flags(opcode));
            assertHeader(what, "IETH", expected, HAS_IETH, iethOffset(opcode), flags(opcode));
            assertHeader(what, "DETH", expected, HAS_DETH, dethOffset(opcode), flags(opcode));
            assertHeader(what, "FETH", expected, HAS_FETH, fethOffset(opcode), flags(opcode));
        }
    }

    @Test
    void flyweightLengthsAreTheIbtaSizes() {
        assertEquals(BTH, Bth.LENGTH);
        assertEquals(IBTA_SIZE.get("RETH"), Reth.LENGTH);
        assertEquals(IBTA_SIZE.get("AETH"), Aeth.LENGTH);
        assertEquals(IBTA_SIZE.get("AtomicETH"), AtomicEth.LENGTH);
        assertEquals(IBTA_SIZE.get("AtomicAckETH"), AtomicAckEth.LENGTH);
        assertEquals(IBTA_SIZE.get("ImmDt"), ImmDt.LENGTH);
        assertEquals(IBTA_SIZE.get("IETH"), Ieth.LENGTH);
        assertEquals(IBTA_SIZE.get("DETH"), Deth.LENGTH);
        assertEquals(IBTA_SIZE.get("FETH"), Feth.LENGTH);
    }

    @Test
    void transportFlagFollowsTheTopThreeOpcodeBits() {
        for (int opcode : SPEC.keySet()) {
            int expected = switch (opcode >>> 5) {
                case 0 -> TRANSPORT_RC;
                case 1 -> TRANSPORT_UC;
                case 3 -> TRANSPORT_UD;
                default -> throw new AssertionError(opcode);
            };
            assertEquals(expected, flags(opcode) & (TRANSPORT_RC | TRANSPORT_UC | TRANSPORT_UD), Opcodes.name(opcode));
        }
    }

    @Test
    void everyValidOpcodeIsEitherARequestOrAResponseAndHasAPosition() {
        for (int opcode : SPEC.keySet()) {
            String name = Opcodes.name(opcode);
            assertTrue(has(opcode, REQUEST) ^ has(opcode, RESPONSE), name);
            int position = flags(opcode) & (FIRST | MIDDLE | LAST);
            assertTrue(position == FIRST || position == MIDDLE || position == LAST || position == ONLY, name);
            assertEquals(name.contains("FIRST"), position == FIRST, name);
            assertEquals(name.contains("MIDDLE"), position == MIDDLE, name);
            assertEquals(name.contains("LAST"), position == LAST, name);
            assertEquals(name.contains("IMM"), has(opcode, IMMEDIATE), name);
            assertEquals(name.contains("INV"), has(opcode, INVALIDATE), name);
        }
    }

    @Test
    void exactlyOneOperationKindPerOpcode() {
        int kinds = SEND | WRITE | READ | ATOMIC | ATOMIC_WRITE | FLUSH | READ_RESPONSE | ACKNOWLEDGE;
        for (int opcode : SPEC.keySet()) {
            assertEquals(1, Integer.bitCount(flags(opcode) & kinds), Opcodes.name(opcode));
        }
        assertTrue(has(Opcodes.RC_COMPARE_SWAP, REQUEST | ATOMIC));
        assertTrue(has(Opcodes.RC_FETCH_ADD, REQUEST | ATOMIC));
        assertTrue(has(Opcodes.RC_ATOMIC_WRITE, REQUEST | ATOMIC_WRITE));
        assertTrue(has(Opcodes.RC_FLUSH, REQUEST | FLUSH));
        assertTrue(has(Opcodes.RC_RDMA_READ_RESPONSE_MIDDLE, RESPONSE | READ_RESPONSE));
        assertTrue(has(Opcodes.RC_ATOMIC_ACKNOWLEDGE, RESPONSE | ACKNOWLEDGE));
    }

    @Test
    void payloadIsAllowedExactlyForSendWriteReadResponseAndAtomicWrite() {
        for (int opcode : SPEC.keySet()) {
            boolean expected = hasAny(opcode, SEND | WRITE | READ_RESPONSE | ATOMIC_WRITE);
            assertEquals(expected, has(opcode, HAS_PAYLOAD), Opcodes.name(opcode));
        }
    }

    @Test
    void readLikeRequestsRequireAResponseAndNothingElseDoes() {
        for (int opcode : SPEC.keySet()) {
            boolean readLike = opcode == Opcodes.RC_RDMA_READ_REQUEST || opcode == Opcodes.RC_COMPARE_SWAP
                    || opcode == Opcodes.RC_FETCH_ADD || opcode == Opcodes.RC_FLUSH || opcode == Opcodes.RC_ATOMIC_WRITE;
            assertEquals(readLike, has(opcode, REQUIRES_RESPONSE), Opcodes.name(opcode));
        }
    }

    @Test
    void receiveQueueFlagsMatchRxe() {
        // rxe RXE_RWR_MASK: SEND FIRST/ONLY (all variants) and RDMA WRITE LAST/ONLY WITH IMM.
        for (int opcode : SPEC.keySet()) {
            String name = Opcodes.name(opcode);
            boolean consumes = (has(opcode, SEND | FIRST)) || (has(opcode, WRITE | IMMEDIATE));
            assertEquals(consumes, has(opcode, CONSUMES_RECEIVE), name);
            boolean completes = has(opcode, SEND | LAST) || has(opcode, WRITE | IMMEDIATE);
            assertEquals(completes, has(opcode, COMPLETES_RECEIVE), name);
        }
    }

    @Test
    void unknownOpcodesIncludeReservedRcCodesRdXrcAndCnp() {
        for (int opcode : new int[] {0x15, 0x18, 0x1B, 0x1E, 0x1F, 0x2C, 0x3F, 0x40, 0x5C, 0x66, 0x81, 0xA0, 0xBC, 0xFF}) {
            assertFalse(isValid(opcode), Integer.toHexString(opcode));
            assertEquals("RESERVED", Opcodes.name(opcode));
        }
    }

    @Test
    void lookupsUseOnlyTheLowEightBits() {
        assertEquals(flags(Opcodes.RC_SEND_ONLY), flags(0x100 | Opcodes.RC_SEND_ONLY));
        assertEquals(headerLength(Opcodes.UD_SEND_ONLY), headerLength(-256 + Opcodes.UD_SEND_ONLY));
    }

    private static void assertHeader(String what, String header, Map<String, Integer> expected, int flag,
                                     int offset, int flags) {
        Integer at = expected.get(header);
        assertEquals(at != null, (flags & flag) != 0, what + " has " + header);
        assertEquals(at == null ? 0 : at, offset, what + " " + header + " offset");
    }
}

package dev.verbs4j.softroce;

import dev.verbs4j.softroce.wire.Aeth;
import dev.verbs4j.softroce.wire.Bth;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.Psn;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Makes hostile RoCEv2 packets (UDP payloads, BTH through ICRC) from a seeded random source:
 * real packets captured from a peer, mutated (bit flips, byte changes, truncation, extension,
 * opcode swaps, tampered PSN, QPN, P_Key, rkey, VA, DMA length, AETH, DETH, FETH) and
 * mostly given a correct ICRC again so they reach the transport logic; packets built from
 * scratch with {@link PacketBuilder} aimed at the live queue pairs, keys and PSNs; and plain
 * random bytes. What to aim at is read from an {@link Aim} the test keeps current.
 */
final class PacketMutator {
    /** Largest UDP payload over IPv4 (65,535 - 20 - 8). */
    static final int MAX_UDP_PAYLOAD = 65_507;

    /** How a packet was made; the ordinal indexes per-kind statistics. */
    enum Kind {
        /** (a) A captured packet, mutated, ICRC recomputed. */
        CAPTURED_MUTATED,
        /** (c) A captured packet, mutated, ICRC left as it was. */
        CAPTURED_STALE_ICRC,
        /** Built from scratch for a live queue pair, ICRC correct. */
        BUILT,
        /** (b) Random bytes. */
        RANDOM,
        /** Random bytes behind a plausible BTH, ICRC correct. */
        RANDOM_BEHIND_HEADER
    }

    /** What the fuzzer aims at: the live numbers of the target device, kept current by the test. */
    static final class Aim {
        int rcQpn;
        int ucQpn;
        int udQpn;
        /** The RC responder's expected PSN as learned from its acknowledgements. */
        int rcExpectedPsn;
        int ucPsn;
        /** The target's own outstanding requests: first PSN and how many PSNs they span. */
        int sqFirstPsn;
        int sqPsnCount;
        int qkey;
        int mtu;
        /** Keys, addresses (as remote requests name them) and lengths of the target's regions. */
        int[] keys;
        long[] addresses;
        long[] lengths;
    }

    private static final int[] VALID_OPCODES = validOpcodes();

    private final List<byte[]> corpus;
    private final Aim aim;
    private final byte[] buffer = new byte[MAX_UDP_PAYLOAD];
    private final MemorySegment segment = MemorySegment.ofArray(buffer);
    private final PacketBuilder builder = new PacketBuilder();
    private final Icrc icrc = new Icrc();
    private int length;
    private Kind kind;

    PacketMutator(List<byte[]> corpus, Aim aim) {
        if (corpus.isEmpty()) {
            throw new IllegalArgumentException("no captured packets to mutate");
        }
        this.corpus = corpus;
        this.aim = aim;
    }

    private static int[] validOpcodes() {
        int n = 0;
        int[] all = new int[256];
        for (int op = 0; op < 256; op++) {
            if (OpcodeTable.isValid(op)) {
                all[n++] = op;
            }
        }
        return Arrays.copyOf(all, n);
    }

    byte[] buffer() {
        return buffer;
    }

    int length() {
        return length;
    }

    Kind kind() {
        return kind;
    }

    /**
     * Makes the next packet in {@link #buffer()}; {@code flow} is the path it will travel
     * (source endpoint to the target), which a correct ICRC covers.
     *
     * @return its length
     */
    int next(SplittableRandom random, UdpFlow flow) {
        int roll = random.nextInt(100);
        boolean fixIcrc = true;
        if (roll < 55) {
            kind = Kind.CAPTURED_MUTATED;
            copyCaptured(random);
            mutate(random, 1 + random.nextInt(4));
            if (random.nextInt(2) == 0) {
                retarget(random);
            }
            if (random.nextInt(3) == 0) {
                reshape(random, randomPayloadLength(random));
            }
        } else if (roll < 70) {
            kind = Kind.CAPTURED_STALE_ICRC;
            copyCaptured(random);
            mutate(random, 1 + random.nextInt(3));
            fixIcrc = false;
        } else if (roll < 85) {
            kind = Kind.BUILT;
            build(random);
            if (random.nextInt(4) == 0) {
                mutate(random, 1);
            }
        } else if (roll < 95) {
            kind = Kind.RANDOM;
            randomBytes(random);
            fixIcrc = false;
        } else {
            kind = Kind.RANDOM_BEHIND_HEADER;
            randomBytes(random);
            if (length >= Bth.LENGTH) {
                buffer[0] = (byte) VALID_OPCODES[random.nextInt(VALID_OPCODES.length)];
                buffer[1] = (byte) (buffer[1] & 0xF0);
                put16(Bth.PKEY_OFFSET, 0xFFFF);
                put24(Bth.DEST_QP_OFFSET + 1, liveQpn(random));
                reshape(random, randomPayloadLength(random));
            }
        }
        if (fixIcrc && length >= Bth.LENGTH + Icrc.LENGTH) {
            icrc.generate(flow, 0, segment, 0, length);
        }
        return length;
    }

    // ---- sources ---------------------------------------------------------------------------

    private void copyCaptured(SplittableRandom random) {
        byte[] packet = corpus.get(random.nextInt(corpus.size()));
        System.arraycopy(packet, 0, buffer, 0, packet.length);
        length = packet.length;
    }

    private void randomBytes(SplittableRandom random) {
        int roll = random.nextInt(1000);
        length = roll < 100 ? random.nextInt(Bth.LENGTH + Icrc.LENGTH)
                : roll < 700 ? 16 + random.nextInt(112)
                : roll < 998 ? 128 + random.nextInt(2048)
                : random.nextInt(MAX_UDP_PAYLOAD + 1);
        fillRandom(random, 0, length);
    }

    /** A well-formed packet of a random valid opcode aimed at a live queue pair. */
    private void build(SplittableRandom random) {
        int opcode = VALID_OPCODES[random.nextInt(VALID_OPCODES.length)];
        builder.start(segment, 0, opcode);
        boolean response = OpcodeTable.has(opcode, OpcodeTable.RESPONSE);
        builder.bth().init(opcode, random.nextInt(8) == 0, false, 0, randomPkey(random), qpnFor(opcode, random),
                random.nextInt(4) != 0, response ? responsePsn(random) : requestPsn(opcode, random));
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_RETH)) {
            int region = randomRegion(random);
            builder.reth().init(randomVa(random, region), randomKey(random, region), randomDmaLength(random, region));
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_ATOMIC_ETH)) {
            int region = randomRegion(random);
            builder.atomicEth().init(randomVa(random, region) & (random.nextInt(8) == 0 ? -1L : ~7L), randomKey(random, region),
                    random.nextLong(), random.nextInt(2) == 0 ? 0 : random.nextLong());
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_AETH)) {
            builder.aeth().init(randomSyndrome(random), random.nextInt(1 << 24));
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_ATOMIC_ACK_ETH)) {
            builder.atomicAckEth().originalValue(random.nextLong());
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_IMM_DT)) {
            builder.immDt().immData(random.nextInt());
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_IETH)) {
            builder.ieth().rkey(randomKey(random, randomRegion(random)));
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_DETH)) {
            builder.deth().init(random.nextInt(5) == 0 ? random.nextInt() : aim.qkey, random.nextInt(1 << 24));
        }
        if (OpcodeTable.has(opcode, OpcodeTable.HAS_FETH)) {
            builder.feth().init(random.nextInt(4), random.nextInt(4) == 0 ? random.nextInt(4) : random.nextInt(2));
        }
        int payload = OpcodeTable.has(opcode, OpcodeTable.HAS_PAYLOAD) ? randomPayloadLength(random) : 0;
        fillRandom(random, builder.headerLength(), payload);
        length = builder.layout(payload);
    }

    // ---- mutations -------------------------------------------------------------------------

    private void mutate(SplittableRandom random, int count) {
        for (int i = 0; i < count; i++) {
            mutateOnce(random);
        }
    }

    private void mutateOnce(SplittableRandom random) {
        int opcode = length > 0 ? buffer[0] & 0xFF : 0;
        switch (random.nextInt(18)) {
            case 0 -> flipBit(random);
            case 1 -> {
                if (length > 0) {
                    buffer[headerBiasedPosition(random)] = (byte) (random.nextInt(3) == 0 ? random.nextInt(256) : random.nextInt(2) * 0xFF);
                }
            }
            case 2 -> length = random.nextInt(length + 1);
            case 3 -> extend(random, random.nextInt(8) == 0 ? random.nextInt(3 * aim.mtu) : 1 + random.nextInt(64));
            case 4 -> {
                if (length > 0) {
                    buffer[0] = (byte) (random.nextInt(5) == 0 ? random.nextInt(256) : VALID_OPCODES[random.nextInt(VALID_OPCODES.length)]);
                }
            }
            case 5 -> {
                if (length >= Bth.LENGTH) {
                    int psn = get24(Bth.PSN_OFFSET + 1);
                    put24(Bth.PSN_OFFSET + 1, random.nextInt(3) == 0 ? random.nextInt(1 << 24) : Psn.add(psn, random.nextInt(9) - 4));
                }
            }
            case 6 -> {
                if (length >= Bth.LENGTH) {
                    put24(Bth.DEST_QP_OFFSET + 1, random.nextInt(3) == 0 ? random.nextInt(1 << 24) : liveQpn(random));
                }
            }
            case 7 -> {
                if (length >= Bth.LENGTH) {
                    put16(Bth.PKEY_OFFSET, random.nextInt(2) == 0 ? 0x7FFF : random.nextInt(1 << 16));
                }
            }
            case 8 -> {
                if (length >= Bth.LENGTH) {
                    buffer[Bth.FLAGS_OFFSET] = (byte) random.nextInt(256);
                }
            }
            case 9 -> {
                if (length >= Bth.LENGTH) {
                    buffer[Bth.PSN_OFFSET] ^= (byte) (random.nextInt(2) == 0 ? 0x80 : random.nextInt(256));
                }
            }
            case 10 -> tamperKey(random, opcode);
            case 11 -> tamperVa(random, opcode);
            case 12 -> tamperDmaLength(random, opcode);
            case 13 -> {
                int at = headerAt(opcode, OpcodeTable.HAS_AETH, OpcodeTable.aethOffset(opcode), 4);
                if (at >= 0) {
                    buffer[at] = (byte) randomSyndrome(random);
                }
            }
            case 14 -> {
                int at = headerAt(opcode, OpcodeTable.HAS_DETH, OpcodeTable.dethOffset(opcode), 8);
                if (at >= 0) {
                    put32(at + (random.nextInt(2) == 0 ? 0 : 4), random.nextInt());
                }
            }
            case 15 -> {
                int at = headerAt(opcode, OpcodeTable.HAS_FETH, OpcodeTable.fethOffset(opcode), 4);
                if (at >= 0) {
                    buffer[at + 3] = (byte) random.nextInt(256);
                }
            }
            case 16 -> {
                if (length > 0) {
                    buffer[random.nextInt(length)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            default -> reshape(random, randomPayloadLength(random));
        }
    }

    private void flipBit(SplittableRandom random) {
        if (length > 0) {
            int at = headerBiasedPosition(random);
            buffer[at] ^= (byte) (1 << random.nextInt(8));
        }
    }

    /** Three times in four a byte of the first 48 (BTH and extension headers), else anywhere. */
    private int headerBiasedPosition(SplittableRandom random) {
        return random.nextInt(4) != 0 ? random.nextInt(Math.min(length, 48)) : random.nextInt(length);
    }

    private void extend(SplittableRandom random, int extra) {
        int newLength = Math.min(MAX_UDP_PAYLOAD, length + extra);
        fillRandom(random, length, newLength - length);
        length = newLength;
    }

    /**
     * Makes the length agree with the opcode in the first byte: its headers, then
     * {@code payload} bytes, the pad the BTH announces and room for the ICRC. Bytes past the
     * old end are random.
     */
    private void reshape(SplittableRandom random, int payload) {
        int opcode = length > 0 ? buffer[0] & 0xFF : 0;
        if (length < Bth.LENGTH || !OpcodeTable.isValid(opcode)) {
            return;
        }
        int body = OpcodeTable.has(opcode, OpcodeTable.HAS_PAYLOAD) ? payload : 0;
        int pad = -body & 3;
        int newLength = OpcodeTable.headerLength(opcode) + body + pad + Icrc.LENGTH;
        if (newLength > length) {
            fillRandom(random, length, newLength - length);
        }
        length = newLength;
        buffer[Bth.FLAGS_OFFSET] = (byte) ((buffer[Bth.FLAGS_OFFSET] & 0xC0) | pad << 4);
    }

    /** Points the PSN and QPN at what the target currently expects (or nearly). */
    private void retarget(SplittableRandom random) {
        if (length < Bth.LENGTH) {
            return;
        }
        int opcode = buffer[0] & 0xFF;
        put24(Bth.DEST_QP_OFFSET + 1, qpnFor(opcode, random));
        boolean response = OpcodeTable.has(opcode, OpcodeTable.RESPONSE);
        put24(Bth.PSN_OFFSET + 1, response ? responsePsn(random) : requestPsn(opcode, random));
    }

    private void tamperKey(SplittableRandom random, int opcode) {
        int at = headerAt(opcode, OpcodeTable.HAS_RETH, OpcodeTable.rethOffset(opcode), 16);
        if (at >= 0) {
            put32(at + 8, randomKey(random, randomRegion(random)));
            return;
        }
        at = headerAt(opcode, OpcodeTable.HAS_ATOMIC_ETH, OpcodeTable.atomicEthOffset(opcode), 28);
        if (at >= 0) {
            put32(at + 8, randomKey(random, randomRegion(random)));
            return;
        }
        at = headerAt(opcode, OpcodeTable.HAS_IETH, OpcodeTable.iethOffset(opcode), 4);
        if (at >= 0) {
            put32(at, randomKey(random, randomRegion(random)));
        }
    }

    private void tamperVa(SplittableRandom random, int opcode) {
        int at = headerAt(opcode, OpcodeTable.HAS_RETH, OpcodeTable.rethOffset(opcode), 16);
        if (at < 0) {
            at = headerAt(opcode, OpcodeTable.HAS_ATOMIC_ETH, OpcodeTable.atomicEthOffset(opcode), 28);
        }
        if (at >= 0) {
            long va = random.nextInt(4) == 0 ? get64(at) ^ (1L << random.nextInt(64)) : randomVa(random, randomRegion(random));
            put64(at, va);
        }
    }

    private void tamperDmaLength(SplittableRandom random, int opcode) {
        int at = headerAt(opcode, OpcodeTable.HAS_RETH, OpcodeTable.rethOffset(opcode), 16);
        if (at >= 0) {
            put32(at + 12, randomDmaLength(random, randomRegion(random)));
        }
    }

    /** Absolute offset of a header of {@code size} bytes the opcode has and the packet holds, else -1. */
    private int headerAt(int opcode, int flag, int offset, int size) {
        if (!OpcodeTable.has(opcode, flag) || offset + size > length) {
            return -1;
        }
        return offset;
    }

    // ---- aimed values ------------------------------------------------------------------------

    private int liveQpn(SplittableRandom random) {
        return switch (random.nextInt(8)) {
            case 0, 1, 2 -> aim.rcQpn;
            case 3 -> aim.ucQpn;
            case 4, 5 -> aim.udQpn;
            case 6 -> random.nextInt(4); // QP 0, 1 (special) and numbers below the first real QP
            default -> aim.rcQpn + 1 + random.nextInt(8);
        };
    }

    private int qpnFor(int opcode, SplittableRandom random) {
        if (random.nextInt(10) == 0) {
            return liveQpn(random);
        }
        if (OpcodeTable.has(opcode, OpcodeTable.TRANSPORT_UD)) {
            return aim.udQpn;
        }
        return OpcodeTable.has(opcode, OpcodeTable.TRANSPORT_UC) ? aim.ucQpn : aim.rcQpn;
    }

    private int requestPsn(int opcode, SplittableRandom random) {
        int base = OpcodeTable.has(opcode, OpcodeTable.TRANSPORT_UC) ? aim.ucPsn : aim.rcExpectedPsn;
        return switch (random.nextInt(10)) {
            case 0, 1, 2, 3, 4 -> base;
            case 5, 6 -> Psn.add(base, -1 - random.nextInt(20)); // duplicates
            case 7, 8 -> Psn.add(base, 1 + random.nextInt(4));   // a gap
            default -> random.nextInt(1 << 24);
        };
    }

    private int responsePsn(SplittableRandom random) {
        return random.nextInt(8) == 0 ? random.nextInt(1 << 24)
                : Psn.add(aim.sqFirstPsn, random.nextInt(aim.sqPsnCount + 3) - 1);
    }

    private static int randomPkey(SplittableRandom random) {
        int roll = random.nextInt(40);
        return roll == 0 ? random.nextInt(1 << 16) : roll == 1 ? 0x7FFF : Bth.DEFAULT_PKEY;
    }

    /** Mostly the first region (the one remote requests may use), sometimes another. */
    private int randomRegion(SplittableRandom random) {
        return random.nextInt(3) != 0 ? 0 : random.nextInt(aim.keys.length);
    }

    private int randomKey(SplittableRandom random, int region) {
        int key = aim.keys[region];
        return switch (random.nextInt(12)) {
            case 0 -> 0;
            case 1 -> random.nextInt();
            case 2 -> key ^ 1;             // right index, wrong variant
            case 3 -> key + 0x100;         // next index, same variant
            case 4 -> aim.keys[random.nextInt(aim.keys.length)];
            default -> key;
        };
    }

    private long randomVa(SplittableRandom random, int region) {
        long base = aim.addresses[region];
        long size = aim.lengths[region];
        return switch (random.nextInt(16)) {
            case 0 -> base - 1 - random.nextInt(64);
            case 1 -> base + size;
            case 2 -> base + size - 1 - random.nextInt(8);
            case 3 -> base + size - 8;
            case 4 -> random.nextLong();
            case 5 -> Long.MAX_VALUE - random.nextInt(16);
            case 6 -> -1L - random.nextInt(16);
            case 7 -> 0;
            default -> base + random.nextLong(size) & (random.nextInt(4) == 0 ? -1L : ~7L);
        };
    }

    private int randomDmaLength(SplittableRandom random, int region) {
        int size = (int) aim.lengths[region];
        return switch (random.nextInt(18)) {
            case 0 -> 0;
            case 1 -> 1 + random.nextInt(8);
            case 2 -> 8;
            case 3 -> aim.mtu;
            case 4 -> aim.mtu - 1;
            case 5 -> aim.mtu + 1;
            case 6 -> size;
            case 7 -> size + 1;
            case 8 -> 0x7FFF_FFFF;
            case 9 -> 0x8000_0000;
            case 10 -> 0x8000_0001;
            case 11 -> -1;
            case 12 -> random.nextInt();
            default -> random.nextInt(Math.max(1, size / 2));
        };
    }

    private int randomPayloadLength(SplittableRandom random) {
        int mtu = aim.mtu;
        return switch (random.nextInt(12)) {
            case 0 -> 0;
            case 1 -> 1 + random.nextInt(8);
            case 2 -> 8;
            case 3 -> mtu;
            case 4 -> mtu - 1 - random.nextInt(3);
            case 5 -> mtu + 1 + random.nextInt(4);
            case 6 -> random.nextInt(3 * mtu);
            case 7 -> 255 + random.nextInt(3); // around the UD queue pairs' 256-byte MTU
            default -> random.nextInt(128);
        };
    }

    private static int randomSyndrome(SplittableRandom random) {
        return switch (random.nextInt(8)) {
            case 0 -> Aeth.ACK_UNLIMITED_CREDIT;
            case 1 -> Aeth.TYPE_ACK | random.nextInt(32);
            case 2 -> Aeth.rnrNakSyndrome(random.nextInt(32));
            case 3 -> Aeth.TYPE_NAK | random.nextInt(5);
            case 4 -> Aeth.TYPE_NAK | random.nextInt(32);
            case 5 -> Aeth.TYPE_RESERVED | random.nextInt(32);
            default -> random.nextInt(256);
        };
    }

    // ---- bytes ---------------------------------------------------------------------------

    private void fillRandom(SplittableRandom random, int from, int count) {
        int end = from + count;
        int i = from;
        for (; i + 8 <= end; i += 8) {
            put64(i, random.nextLong());
        }
        for (; i < end; i++) {
            buffer[i] = (byte) random.nextInt(256);
        }
    }

    private int get24(int at) {
        return (buffer[at] & 0xFF) << 16 | (buffer[at + 1] & 0xFF) << 8 | buffer[at + 2] & 0xFF;
    }

    private long get64(int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | buffer[at + i] & 0xFF;
        }
        return v;
    }

    private void put16(int at, int value) {
        buffer[at] = (byte) (value >>> 8);
        buffer[at + 1] = (byte) value;
    }

    private void put24(int at, int value) {
        buffer[at] = (byte) (value >>> 16);
        buffer[at + 1] = (byte) (value >>> 8);
        buffer[at + 2] = (byte) value;
    }

    private void put32(int at, int value) {
        put16(at, value >>> 16);
        put16(at + 2, value);
    }

    private void put64(int at, long value) {
        put32(at, (int) (value >>> 32));
        put32(at + 4, (int) value);
    }
}

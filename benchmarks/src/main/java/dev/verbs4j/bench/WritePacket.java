package dev.verbs4j.bench;

import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** An RC RDMA WRITE ONLY packet (BTH, RETH, payload, ICRC) in native memory, as the engine builds one. */
final class WritePacket {
    static final int DEST_QP = 0x11;
    static final int PSN = 0x123456;
    static final long VA = 0x7f00_0000_1000L;
    static final int RKEY = 0x1234_5601;

    final MemorySegment segment;
    final UdpFlow flow;
    final int length;

    WritePacket(Arena arena, int payload) {
        segment = arena.allocate(payload + 64, 64);
        try {
            flow = new UdpFlow().set(InetAddress.getByName("10.77.0.1"), 49441, InetAddress.getByName("10.77.0.2"), 4791);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        length = build(new PacketBuilder(), new Icrc(), payload);
    }

    /** Writes the headers and ICRC again (the payload bytes stay); returns the UDP payload length. */
    int build(PacketBuilder builder, Icrc icrc, int payload) {
        builder.start(segment, 0, Opcodes.RC_RDMA_WRITE_ONLY);
        builder.bth().init(Opcodes.RC_RDMA_WRITE_ONLY, false, false, 0, 0xFFFF, DEST_QP, true, PSN);
        builder.reth().init(VA, RKEY, payload);
        return builder.finish(payload, icrc, flow, 0);
    }
}

package dev.verbs4j.bench;

import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.PacketView;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The header codecs on a 64-byte RDMA WRITE ONLY packet: building BTH and RETH (with the
 * ICRC), and parsing a received packet up to its RETH fields (with the ICRC check).
 */
public class HeaderCodecBenchmark extends PacketBenchmark {
    private static final int PAYLOAD = 64;

    private final PacketBuilder builder = new PacketBuilder();
    private final PacketView view = new PacketView();
    private final Icrc icrc = new Icrc();

    @Override
    int payloadBytes() {
        return PAYLOAD;
    }

    @Benchmark
    public int build() {
        return packet.build(builder, icrc, PAYLOAD);
    }

    /** Parses the headers and checks the ICRC; returns a value that depends on every field read. */
    @Benchmark
    public long parse() {
        if (!view.wrap(packet.segment, 0, packet.length) || !view.checkIcrc(icrc, packet.flow)) {
            throw new IllegalStateException("the packet did not parse: " + view.dropReason());
        }
        return view.bth().psn() ^ view.bth().destQp() ^ view.reth().va() ^ view.reth().rkey() ^ view.reth().dmaLength();
    }
}

package dev.verbs4j.bench;

import dev.verbs4j.softroce.wire.Icrc;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * The invariant CRC of an RDMA WRITE ONLY packet: computing it as a sender does, and checking
 * it as a receiver does (ID 0, the common case for our own packets).
 */
public class IcrcBenchmark extends PacketBenchmark {
    @Param({"64", "1024", "4096"})
    int payload;

    private final Icrc icrc = new Icrc();

    @Override
    int payloadBytes() {
        return payload;
    }

    @Benchmark
    public int compute() {
        return icrc.compute(packet.flow, 0, packet.segment, 0, packet.length);
    }

    @Benchmark
    public int check() {
        return icrc.check(packet.flow, packet.segment, 0, packet.length);
    }
}

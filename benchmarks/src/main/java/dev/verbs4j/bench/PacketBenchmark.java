package dev.verbs4j.bench;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;

/** What the wire benchmarks share: one RDMA WRITE ONLY packet per trial, and the run lengths. */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class PacketBenchmark {
    private Arena arena;
    WritePacket packet;

    /** The packet's payload length. */
    abstract int payloadBytes();

    @Setup(Level.Trial)
    public void createPacket() {
        arena = Arena.ofShared();
        packet = new WritePacket(arena, payloadBytes());
    }

    @TearDown(Level.Trial)
    public void freePacket() {
        arena.close();
    }
}

package dev.verbs4j.bench;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.Verbs;
import dev.verbs4j.WorkCompletion;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;

/**
 * The verbs data path of the soft provider, end to end on loopback with caller progress (no
 * engine threads): post one signaled 64-byte RDMA WRITE and poll until its completion, which
 * covers posting, the requester, UDP out and in, the responder, the ACK and the poll.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dverbs4j.soft.progress=caller",
        "-Dverbs4j.soft.devices=soft0=127.0.0.1:27961,soft1=127.0.0.2:27961"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PostPollBenchmark {
    private static final int SIZE = 64;

    private Arena arena;
    private DeviceContext ctxA;
    private DeviceContext ctxB;
    private ProtectionDomain pdA;
    private ProtectionDomain pdB;
    private CompletionQueue cqA;
    private CompletionQueue cqB;
    private QueuePair qpA;
    private QueuePair qpB;
    private MemoryRegion mrA;
    private MemoryRegion mrB;
    private final SendWorkRequest write = new SendWorkRequest();
    private final WorkCompletion[] completions = {new WorkCompletion()};
    /** The responder's CQ, polled only to give its device progress (a WRITE completes nothing there). */
    private final WorkCompletion[] responderCompletions = {new WorkCompletion()};

    @Setup(Level.Trial)
    public void setUp() {
        List<Device> devices = Verbs.provider("soft").devices();
        arena = Arena.ofShared();
        ctxA = devices.get(0).open();
        ctxB = devices.get(1).open();
        pdA = ctxA.allocatePd();
        pdB = ctxB.allocatePd();
        cqA = ctxA.createCq(16);
        cqB = ctxB.createCq(16);
        qpA = pdA.createQp(new QpInitAttributes(QpType.RC, cqA).capacity(8, 8, 1, 1, 0));
        qpB = pdB.createQp(new QpInitAttributes(QpType.RC, cqB).capacity(8, 8, 1, 1, 0));
        EnumSet<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        MemorySegment bufA = arena.allocate(4096, 4096);
        MemorySegment bufB = arena.allocate(4096, 4096);
        mrA = pdA.registerMemory(bufA, access);
        mrB = pdB.registerMemory(bufB, access);
        RcOptions options = new RcOptions().mtu(Mtu.MTU_4096).access(access);
        var endA = RcConnector.localEndpoint(qpA, options);
        var endB = RcConnector.localEndpoint(qpB, options);
        RcConnector.bringUp(qpA, endA, endB, options);
        RcConnector.bringUp(qpB, endB, endA, options);
        write.signaled(true).buffer(mrA, 0, SIZE).rdmaWrite(mrB.address(), mrB.rkey());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        qpA.close();
        qpB.close();
        mrA.close();
        mrB.close();
        cqA.close();
        cqB.close();
        pdA.close();
        pdB.close();
        ctxA.close();
        ctxB.close();
        arena.close();
    }

    /** One WRITE, posted and polled to its completion; fails on any status but success. */
    @Benchmark
    public long writeRoundTrip() {
        qpA.postSend(write.wrId(7));
        while (cqA.poll(completions, 1) == 0) {
            cqB.poll(responderCompletions, 1);
        }
        if (!completions[0].isSuccess()) {
            throw new IllegalStateException("write failed: " + completions[0]);
        }
        return completions[0].wrId();
    }
}

package dev.verbs4j.example;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.Provider;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.Verbs;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.List;

/**
 * The demo's operations between the first two soft devices, through the API only: SEND with
 * immediate, RDMA WRITE, FLUSH, RDMA READ, FETCH_AND_ADD, COMPARE_AND_SWAP and ATOMIC WRITE.
 * Prints where the API and the provider came from, what the ibverbs provider sees when it is
 * on the module path too, one line per operation, and exits 1 when one fails.
 */
public final class Demo {
    private static final EnumSet<Access> ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE,
            Access.REMOTE_READ, Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL);

    private Demo() {
    }

    public static void main(String[] args) {
        Provider soft = Verbs.provider("soft");
        System.out.println("api: " + Verbs.class.getModule());
        System.out.println("provider: " + soft.getClass().getModule());
        // The soft provider drives its sockets through the C library only when it may.
        System.out.println("provider native access: " + soft.getClass().getModule().isNativeAccessEnabled());
        // The ibverbs provider, when it is on the module path too: what libibverbs sees here
        // (no device on a machine without RDMA), or why its JNI library could not be loaded.
        for (Provider p : Verbs.providers()) {
            if (p.name().equals("ibverbs")) {
                System.out.println("ibverbs provider: " + p.getClass().getModule() + ", " + p.devices().size()
                        + " device(s)" + p.unavailableReason().map(r -> ": " + r).orElse(""));
            }
        }
        List<Device> devices = soft.devices();
        int failures = 0;
        try (Arena arena = Arena.ofShared();
             DeviceContext ca = devices.get(0).open();
             DeviceContext cb = devices.get(1).open()) {
            ProtectionDomain pa = ca.allocatePd();
            ProtectionDomain pb = cb.allocatePd();
            CompletionQueue qa = ca.createCq(16);
            CompletionQueue qb = cb.createCq(16);
            QueuePair a = pa.createQp(new QpInitAttributes(QpType.RC, qa).capacity(8, 8, 1, 1, 0)
                    .allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE));
            QueuePair b = pb.createQp(new QpInitAttributes(QpType.RC, qb).capacity(8, 8, 1, 1, 0));
            MemorySegment bufA = arena.allocate(1 << 16, 4096);
            MemorySegment bufB = arena.allocate(1 << 16, 4096);
            MemoryRegion ma = pa.registerMemory(bufA, ACCESS);
            MemoryRegion mb = pb.registerMemory(bufB, ACCESS);
            RcOptions options = new RcOptions().access(ACCESS);
            QpEndpoint ea = RcConnector.localEndpoint(a, options);
            QpEndpoint eb = RcConnector.localEndpoint(b, options);
            RcConnector.bringUp(a, ea, eb, options);
            RcConnector.bringUp(b, eb, ea, options);
            SendWorkRequest wr = new SendWorkRequest().signaled(true);
            WorkCompletion wc = new WorkCompletion();

            bufA.asSlice(0, 4096).fill((byte) 7);
            b.postRecv(new ReceiveWorkRequest().wrId(1).buffer(mb, 0, 4096));
            a.postSend(wr.wrId(10).buffer(ma, 0, 4096).sendWithImm(0xcafe));
            WorkCompletion recv = new WorkCompletion();
            failures += report("SEND with immediate", await(qa, wc) && await(qb, recv) && recv.immData() == 0xcafe
                    && bufB.get(ValueLayout.JAVA_BYTE, 4095) == 7);

            bufA.asSlice(8192, 8192).fill((byte) 9);
            a.postSend(wr.wrId(11).buffer(ma, 8192, 8192).rdmaWrite(mb.address() + 8192, mb.rkey()));
            failures += report("RDMA WRITE", await(qa, wc) && bufB.get(ValueLayout.JAVA_BYTE, 16383) == 9);

            a.postSend(wr.wrId(12).flush(mb.address() + 8192, mb.rkey(), 8192, FlushType.GLOBAL, FlushLevel.RANGE));
            failures += report("FLUSH", await(qa, wc));

            bufB.asSlice(32768, 8192).fill((byte) 5);
            a.postSend(wr.wrId(13).buffer(ma, 32768, 8192).rdmaRead(mb.address() + 32768, mb.rkey()));
            failures += report("RDMA READ", await(qa, wc) && bufA.get(ValueLayout.JAVA_BYTE, 40959) == 5);

            bufB.set(ValueLayout.JAVA_LONG, 1024, 41);
            a.postSend(wr.wrId(14).buffer(ma, 1024, 8).fetchAndAdd(mb.address() + 1024, mb.rkey(), 1));
            failures += report("FETCH_AND_ADD", await(qa, wc) && bufA.get(ValueLayout.JAVA_LONG, 1024) == 41
                    && bufB.get(ValueLayout.JAVA_LONG, 1024) == 42);

            a.postSend(wr.wrId(15).buffer(ma, 1032, 8).compareAndSwap(mb.address() + 1024, mb.rkey(), 42, 7));
            failures += report("COMPARE_AND_SWAP", await(qa, wc) && bufB.get(ValueLayout.JAVA_LONG, 1024) == 7);

            a.postSend(wr.wrId(16).atomicWrite(mb.address() + 2048, mb.rkey(), 0x0123456789abcdefL));
            failures += report("ATOMIC WRITE", await(qa, wc) && bufB.get(ValueLayout.JAVA_LONG, 2048) == 0x0123456789abcdefL);

            a.close();
            b.close();
            ma.close();
            mb.close();
            qa.close();
            qb.close();
            pa.close();
            pb.close();
        }
        System.out.println(failures == 0 ? "every operation completed" : failures + " operation(s) failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    private static boolean await(CompletionQueue cq, WorkCompletion into) {
        WorkCompletion[] one = {into};
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end) {
            if (cq.poll(one) == 1) {
                return into.status() == WcStatus.SUCCESS;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private static int report(String operation, boolean ok) {
        System.out.println(operation + (ok ? " ok" : " FAILED"));
        return ok ? 0 : 1;
    }
}

package dev.verbs4j.tools.perf;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.util.EnumSet;

/**
 * Rates of granting and revoking remote access: register + deregister a region
 * ({@code mr_cycle}), bind + invalidate a type 2 window ({@code mw_cycle}), and
 * fast-register + invalidate a region ({@code fr_cycle}), each over the same memory.
 */
final class MemoryTests {
    private static final EnumSet<Access> RIGHTS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.MW_BIND);

    private MemoryTests() {
    }

    static Result cycles(String test, Loopback lb, int size, int iterations) {
        run(test, lb, size, Math.min(iterations, 1000));
        Progress.start(test + " " + size + " B", iterations);
        long allocBefore = Allocation.allocatedBytes();
        long start = System.nanoTime();
        run(test, lb, size, iterations);
        double seconds = (System.nanoTime() - start) / 1e9;
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        Progress.finish();
        return Result.bandwidth(test, lb.description, size, iterations, seconds, 0, alloc);
    }

    private static void run(String test, Loopback lb, int size, int iterations) {
        switch (test) {
            case "mr_cycle" -> {
                for (int i = 0; i < iterations; i++) {
                    lb.a.pd.registerMemory(lb.a.buf.asSlice(0, size), RIGHTS).close();
                    Progress.update(i + 1);
                }
            }
            case "mw_cycle" -> {
                try (MemoryRegion mr = lb.a.pd.registerMemory(lb.a.buf.asSlice(0, size), RIGHTS);
                     MemoryWindow mw = lb.a.pd.allocateMw(MwType.TYPE_2)) {
                    SendWorkRequest wr = new SendWorkRequest();
                    WorkCompletion[] one = {new WorkCompletion()};
                    int key = mw.rkey();
                    int rights = Access.toMask(EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ));
                    for (int i = 0; i < iterations; i++) {
                        key = MemoryWindow.incrementRkey(key);
                        lb.a.qp.postSend(wr.wrId(i).signaled(false).bindMw(mw, key, mr, mr.localAddress(), size, rights));
                        lb.a.qp.postSend(wr.wrId(i).signaled(true).localInvalidate(key));
                        Loopback.awaitOne(lb.a.cq, one);
                        Progress.update(i + 1);
                    }
                }
            }
            case "fr_cycle" -> fastRegisterCycles(lb, size, iterations);
            default -> throw new IllegalArgumentException("not a memory test: " + test);
        }
    }

    private static void fastRegisterCycles(Loopback lb, int size, int iterations) {
        int pageCount = Math.max(1, size / 4096);
        try (MemoryRegion backing = lb.a.pd.registerMemory(lb.a.buf.asSlice(0, (long) pageCount * 4096), RIGHTS);
             MemoryRegion fr = lb.a.pd.allocateFastRegMr(pageCount)) {
            long[] pages = new long[pageCount];
            for (int i = 0; i < pageCount; i++) {
                pages[i] = backing.localAddress() + i * 4096L;
            }
            SendWorkRequest wr = new SendWorkRequest();
            WorkCompletion[] one = {new WorkCompletion()};
            int key = fr.rkey();
            int rights = Access.toMask(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            for (int i = 0; i < iterations; i++) {
                key = MemoryWindow.incrementRkey(key);
                lb.a.qp.postSend(wr.wrId(i).signaled(false).registerMr(fr, key, pages, pageCount, 12, 0x10000,
                        (long) pageCount * 4096, rights));
                lb.a.qp.postSend(wr.wrId(i).signaled(true).localInvalidate(key));
                Loopback.awaitOne(lb.a.cq, one);
                Progress.update(i + 1);
            }
        }
    }
}

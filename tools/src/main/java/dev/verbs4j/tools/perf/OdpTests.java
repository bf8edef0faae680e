package dev.verbs4j.tools.perf;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * On-Demand Paging costs ({@code odp_bw}): RDMA WRITE bandwidth into never-touched
 * on-demand pages (cold: every page faults, in the kernel's page cache and in the
 * provider), into the same pages again (warm), and into a pinned region, in one run; then
 * the time to register on-demand regions of 1 GiB and 64 GiB over sparse files.
 */
final class OdpTests {
    private static final EnumSet<Access> ODP = EnumSet.of(Access.ON_DEMAND, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
            Access.REMOTE_READ);

    private OdpTests() {
    }

    static List<Result> run(Loopback lb, int size, int iterations, int depth) {
        List<Result> results = new ArrayList<>();
        long span = (long) size * iterations;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment cold = sparseFile(span, arena);
            try (MemoryRegion odp = lb.b.pd.registerMemory(cold, ODP)) {
                results.add(writes("odp_cold", lb, odp, size, iterations, depth));
                results.add(writes("odp_warm", lb, odp, size, iterations, depth));
            }
        }
        results.add(writes("pinned", lb, lb.b.mr, size, iterations, depth));
        for (long gib : new long[] {1, 64}) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment huge = sparseFile(gib << 30, arena);
                long t0 = System.nanoTime();
                MemoryRegion mr = lb.b.pd.registerMemory(huge, ODP);
                long ns = System.nanoTime() - t0;
                mr.close();
                results.add(Result.bandwidth("odp_register_" + gib + "GiB", lb.description, 0, 1, ns / 1e9, 0, 0));
            }
        }
        return results;
    }

    /** {@code iterations} writes of {@code size} bytes at consecutive offsets, {@code depth} in flight. */
    private static Result writes(String name, Loopback lb, MemoryRegion target, int size, int iterations, int depth) {
        SendWorkRequest wr = new SendWorkRequest();
        WorkCompletion[] wcs = new WorkCompletion[depth];
        for (int i = 0; i < depth; i++) {
            wcs[i] = new WorkCompletion();
        }
        long span = Math.max(size, target.length() - size);
        Progress.start(name + " " + size + " B", iterations);
        long allocBefore = Allocation.allocatedBytes();
        long start = System.nanoTime();
        int posted = 0;
        int completed = 0;
        while (completed < iterations) {
            while (posted < iterations && posted - completed < depth) {
                long offset = ((long) posted * size) % span;
                lb.a.qp.postSend(wr.wrId(posted).signaled(true).buffer(lb.a.mr, 0, size)
                        .rdmaWrite(target.address() + offset, target.rkey()));
                posted++;
            }
            int n = lb.a.cq.poll(wcs, wcs.length);
            for (int i = 0; i < n; i++) {
                if (!wcs[i].isSuccess()) {
                    throw new IllegalStateException(name + " write failed: " + wcs[i]);
                }
            }
            completed += n;
            Progress.update(completed);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        Progress.finish();
        return Result.bandwidth(name, lb.description, size, iterations, seconds, 0, alloc);
    }

    private static MemorySegment sparseFile(long size, Arena arena) {
        try {
            Path file = Files.createTempFile("verbs4j-odp", ".img");
            file.toFile().deleteOnExit();
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                f.setLength(size);
            }
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MemorySegment m = c.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
                Files.delete(file); // the mapping keeps the pages; nothing is left on disk afterwards
                return m;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.verbs4j.conformance.fuzz;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the process holds that a leak would grow, each counted exactly so that "back to the
 * start" is an equality, not a guess:
 * <ul>
 *   <li>open file descriptors ({@code /proc/self/fd}): device contexts, event channels,
 *       a soft device's socket;</li>
 *   <li>native memory the JVM hands out ({@code BufferPoolMXBean "direct"}, which counts
 *       every {@code Arena} allocation and direct buffer): the fuzzer's memory, a soft
 *       engine's rings and buffers;</li>
 *   <li>native memory the ibverbs provider allocates through JavaCPP
 *       ({@code Pointer.totalBytes()}, exact for every struct it allocates), read only
 *       where JavaCPP is on the class path;</li>
 *   <li>mappings of an RDMA device ({@code /proc/self/maps} lines naming
 *       {@code /dev/infiniband}): the queues libibverbs maps for queue pairs, completion
 *       queues and SRQs.</li>
 * </ul>
 * What libibverbs mallocs itself is not counted exactly anywhere (glibc's totals move with
 * the JVM's own allocations), so it is checked through what owns it: every object it
 * backs holds a descriptor or a mapping above, and every object must have closed.
 *
 * @param fds        the targets of the open descriptors
 * @param directBytes   native memory in use by arenas and direct buffers
 * @param directCount   how many such allocations
 * @param javacppBytes  JavaCPP's tracked bytes, or -1 without JavaCPP
 * @param deviceMappings mappings of RDMA device files
 */
record ProcessResources(List<String> fds, long directBytes, long directCount, long javacppBytes, long deviceMappings) {

    static ProcessResources now() {
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
        return new ProcessResources(openDescriptors(), direct.getMemoryUsed(), direct.getCount(), javacppTrackedBytes(),
                mappingsOfDevices());
    }

    /**
     * This process's resources once they match {@code start}, or as they are after the
     * collector had its chances: memory an automatic arena or a JavaCPP pointer holds goes
     * when the collector finds it unreachable.
     */
    static ProcessResources settledTowards(ProcessResources start) throws InterruptedException {
        ProcessResources now = now();
        for (int attempt = 0; attempt < 40 && !now.sameAmounts(start); attempt++) {
            System.gc();
            Thread.sleep(250);
            now = now();
        }
        return now;
    }

    boolean sameAmounts(ProcessResources other) {
        return fds.size() == other.fds.size() && directBytes == other.directBytes && directCount == other.directCount
                && javacppBytes == other.javacppBytes && deviceMappings == other.deviceMappings;
    }

    /** What differs from {@code start}, one line each; empty when nothing does. */
    List<String> differencesFrom(ProcessResources start) {
        List<String> out = new ArrayList<>();
        if (fds.size() != start.fds.size()) {
            List<String> added = new ArrayList<>(fds);
            start.fds.forEach(added::remove);
            out.add("open descriptors " + start.fds.size() + " -> " + fds.size() + " (new: " + added + ")");
        }
        if (directBytes != start.directBytes || directCount != start.directCount) {
            out.add("direct native memory " + start.directBytes + " bytes in " + start.directCount + " -> "
                    + directBytes + " bytes in " + directCount);
        }
        if (javacppBytes != start.javacppBytes) {
            out.add("JavaCPP native memory " + start.javacppBytes + " -> " + javacppBytes + " bytes");
        }
        if (deviceMappings != start.deviceMappings) {
            out.add("RDMA device mappings " + start.deviceMappings + " -> " + deviceMappings);
        }
        return out;
    }

    @Override
    public String toString() {
        return fds.size() + " descriptors, " + directBytes + " direct bytes in " + directCount + " allocations, "
                + (javacppBytes < 0 ? "no JavaCPP" : javacppBytes + " JavaCPP bytes") + ", " + deviceMappings
                + " device mappings";
    }

    private static List<String> openDescriptors() {
        List<String> targets = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc/self/fd"))) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                try {
                    targets.add(Files.readSymbolicLink(p).toString());
                } catch (IOException gone) {
                    // the descriptor the listing itself used, closed by now
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc/self/fd", e);
        }
        return targets;
    }

    private static long mappingsOfDevices() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(l -> l.contains("/dev/infiniband")).count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/maps", e);
        }
    }

    private static long javacppTrackedBytes() {
        try {
            return (long) Class.forName("org.bytedeco.javacpp.Pointer").getMethod("totalBytes").invoke(null);
        } catch (ReflectiveOperationException | LinkageError absent) {
            return -1;
        }
    }
}

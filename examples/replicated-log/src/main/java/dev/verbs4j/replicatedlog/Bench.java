package dev.verbs4j.replicatedlog;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushType;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Appends per second and latency of one writer with 1 and 3 replicas, 64 B and 4 KiB
 * records, FLUSH persistent against FLUSH global visibility, all in one process on the
 * provider's devices (the first for the writer, the next ones for the replicas; fewer
 * devices are shared). Each figure is the median of the repetitions; every configuration
 * runs once first to warm up, and the whole bench starts with a run that is not counted. The replicas' files live in {@code --dir} (a disk, not tmpfs,
 * or force() costs nothing).
 */
final class Bench {
    private static final int[] SIZES = {64, 4096};
    private static final int[] REPLICAS = {1, 3};
    private static final long FILE_BYTES = 32L << 20;

    private Bench() {
    }

    static int run(Options o) throws Exception {
        int reps = (int) o.number("reps", 5, 1, 1000);
        long appendsSmall = o.number("appends", 2000, 10, 10_000_000);
        Path dir = Path.of(o.get("dir", "target/bench"));
        Files.createDirectories(dir);
        Provider provider = o.get("provider", null) == null ? Verbs.defaultProvider() : Verbs.provider(o.get("provider", null));
        List<Device> devices = provider.devices();
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("provider " + provider.name() + " has no device");
        }
        int maxReplicas = Arrays.stream(REPLICAS).max().orElse(1);
        List<DeviceContext> contexts = new ArrayList<>();
        List<LogServer> servers = new ArrayList<>();
        List<ServerSocket> sockets = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i <= maxReplicas; i++) {
                contexts.add(devices.get(Math.min(i, devices.size() - 1)).open());
            }
            for (int r = 0; r < maxReplicas; r++) {
                Path file = dir.resolve("replica" + r + ".log");
                Files.deleteIfExists(file);
                format(file);
                LogServer server = new LogServer(contexts.get(r + 1), file);
                servers.add(server);
                ServerSocket socket = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                Thread t = Thread.ofPlatform().daemon().name("replica" + r).start(() -> {
                    try {
                        server.serve(socket, line -> { });
                    } catch (IOException e) {
                        System.err.println("replica: " + e.getMessage());
                    }
                });
                threads.add(t);
            }
            System.out.printf("replicated-log bench: provider %s, writer %s, %d repetitions (medians), files in %s;"
                    + " cost: persistent against global, appends/s divided, latencies multiplied%n",
                    provider.name(), contexts.getFirst().device().name(), reps, dir);
            System.out.println(" #bytes     #replicas  FLUSH       #iters     appends/s  t_typical  t_avg      t_99%      (usec)");
            // The JIT compiles the data path before the first configuration is measured.
            measure(contexts.getFirst(), servers, sockets, maxReplicas, SIZES[0], FlushType.GLOBAL, appendsSmall, 1);
            for (int size : SIZES) {
                long appends = size > 1024 ? Math.max(10, appendsSmall / 4) : appendsSmall;
                for (int replicas : REPLICAS) {
                    double[] global = null;
                    for (FlushType placement : new FlushType[]{FlushType.GLOBAL, FlushType.PERSISTENT}) {
                        double[] figures = measure(contexts.getFirst(), servers, sockets, replicas, size, placement, appends, reps);
                        System.out.printf(Locale.ROOT, " %-10d %-10d %-11s %-10d %-10.0f %-10.1f %-10.1f %-10.1f%n", size, replicas,
                                placement == FlushType.PERSISTENT ? "persistent" : "global", appends, figures[0], figures[1],
                                figures[2], figures[3]);
                        if (placement == FlushType.GLOBAL) {
                            global = figures;
                        } else {
                            System.out.printf(Locale.ROOT, " %-10s %-10s %-11s %-10s %-10s %-10s %-10s%n", "", "", "cost", "",
                                    String.format(Locale.ROOT, "/%.2f", global[0] / figures[0]),
                                    String.format(Locale.ROOT, "x%.2f", figures[1] / global[1]),
                                    String.format(Locale.ROOT, "x%.2f", figures[2] / global[2]));
                        }
                    }
                }
            }
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
            for (Thread t : threads) {
                t.join(5000);
            }
            for (LogServer s : servers) {
                s.close();
            }
            for (DeviceContext c : contexts) {
                c.close();
            }
        }
        return 0;
    }

    /** Medians over the repetitions of: appends/s, the typical (median) latency, the average latency, the 99th percentile (µs). */
    private static double[] measure(DeviceContext writer, List<LogServer> servers, List<ServerSocket> sockets, int replicas,
                                    int size, FlushType placement, long appends, int reps) throws IOException {
        double[] rates = new double[reps];
        double[] typical = new double[reps];
        double[] average = new double[reps];
        double[] p99 = new double[reps];
        long[] samples = new long[(int) appends];
        byte[] payload = new byte[size];
        for (int rep = -1; rep < reps; rep++) {
            List<InetSocketAddress> targets = new ArrayList<>();
            for (int r = 0; r < replicas; r++) {
                servers.get(r).file().set(LogLayout.LONG, LogLayout.TAIL_OFFSET, 0);
                targets.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), sockets.get(r).getLocalPort()));
            }
            try (Replicator log = new Replicator(writer, targets, size, placement, true, Duration.ofSeconds(30))) {
                long start = System.nanoTime();
                for (int i = 0; i < appends; i++) {
                    Payloads.fill(payload, log.nextSeq(), size);
                    long t0 = System.nanoTime();
                    log.append(payload, size);
                    samples[i] = System.nanoTime() - t0;
                }
                long elapsed = System.nanoTime() - start;
                if (rep >= 0) {
                    rates[rep] = appends * 1e9 / elapsed;
                    double sum = 0;
                    for (long ns : samples) {
                        sum += ns;
                    }
                    Arrays.sort(samples);
                    typical[rep] = samples[samples.length / 2] / 1e3;
                    average[rep] = sum / samples.length / 1e3;
                    p99[rep] = samples[(int) Math.min(samples.length - 1, samples.length * 99L / 100)] / 1e3;
                }
            }
        }
        return new double[]{median(rates), median(typical), median(average), median(p99)};
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static void format(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            MemorySegment m = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES, arena);
            LogLayout.format(m);
            m.force();
        }
    }
}

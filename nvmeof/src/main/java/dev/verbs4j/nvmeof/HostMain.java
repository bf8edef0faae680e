package dev.verbs4j.nvmeof;

import dev.verbs4j.VerbsException;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.Completion;
import dev.verbs4j.nvmeof.host.HostOptions;
import dev.verbs4j.nvmeof.host.HostQueue;
import dev.verbs4j.nvmeof.host.KeyMethod;
import dev.verbs4j.nvmeof.host.NamespaceInfo;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.DiscoveryLog;
import dev.verbs4j.nvmeof.wire.Opcodes;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * A small NVMe-oF host: connects, writes a seeded pattern over a namespace at a queue depth,
 * flushes, reads it back and reports what it found; or lists a discovery controller's log.
 * <pre>
 * HostMain --address A [--port 4420] [--source S] [--provider soft|ibverbs] --subsystem NQN
 *          [--hostnqn NQN] [--nsid 1] [--queues 1] [--depth 32] [--io-bytes 4096] [--count 256]
 *          [--seed 1] [--key-method fast|window|region] [--no-in-capsule]
 *          [--pattern FILE] [--phase both|write|read] [--offset BYTES] [--keep-alive-ms 5000]
 * HostMain --address A [--port 4420] --discover
 * </pre>
 * {@code --pattern} takes the data from a file instead of the seed: block {@code i} of the
 * namespace gets the file's bytes at {@code i * io-bytes}, as many blocks as the file holds
 * (at most {@code --count}). {@code --phase write} writes and flushes only, {@code --phase read}
 * only reads and compares: with a pattern file, another host (the kernel's, through {@code dd})
 * writes or reads the same bytes on the other side of the check. {@code --offset} moves the
 * first block that far into the namespace (a multiple of its block size). {@code --keep-alive-ms}
 * is the keep-alive timeout the host asks for (KATO, 5 s as the Linux host's; 0 for none).
 * Exit status 0 when every block read back matches what was written, 1 otherwise.
 */
public final class HostMain {
    private HostMain() {
    }

    public static void main(String[] args) {
        String provider = null;
        String address = null;
        String source = null;
        int port = 4420;
        String subsystem = null;
        String hostNqn = "nqn.2014-08.org.nvmexpress:uuid:verbs4j-host";
        int nsid = 1;
        int queues = 1;
        int depth = 32;
        int ioBytes = 4096;
        int count = 256;
        long seed = 1;
        KeyMethod method = null;
        boolean inCapsule = true;
        boolean discover = false;
        Path pattern = null;
        Phase phase = Phase.BOTH;
        long offset = 0;
        int keepAliveMs = 5000;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--provider" -> provider = Arguments.value(args, i++);
                    case "--address" -> address = Arguments.value(args, i++);
                    case "--source" -> source = Arguments.value(args, i++);
                    case "--port" -> port = Integer.parseInt(Arguments.value(args, i++));
                    case "--subsystem" -> subsystem = Arguments.value(args, i++);
                    case "--hostnqn" -> hostNqn = Arguments.value(args, i++);
                    case "--nsid" -> nsid = Integer.parseInt(Arguments.value(args, i++));
                    case "--queues" -> queues = Integer.parseInt(Arguments.value(args, i++));
                    case "--depth" -> depth = Integer.parseInt(Arguments.value(args, i++));
                    case "--io-bytes" -> ioBytes = (int) Arguments.size(Arguments.value(args, i++));
                    case "--count" -> count = Integer.parseInt(Arguments.value(args, i++));
                    case "--seed" -> seed = Long.parseLong(Arguments.value(args, i++));
                    case "--key-method" -> method = switch (Arguments.value(args, i++)) {
                        case "fast" -> KeyMethod.FAST_REGISTER;
                        case "window" -> KeyMethod.WINDOW;
                        case "region" -> KeyMethod.REGION;
                        default -> throw new IllegalArgumentException("--key-method is fast, window or region");
                    };
                    case "--no-in-capsule" -> inCapsule = false;
                    case "--discover" -> discover = true;
                    case "--keep-alive-ms" -> keepAliveMs = Integer.parseInt(Arguments.value(args, i++));
                    case "--offset" -> offset = Arguments.size(Arguments.value(args, i++));
                    case "--pattern" -> pattern = Path.of(Arguments.value(args, i++));
                    case "--phase" -> phase = switch (Arguments.value(args, i++)) {
                        case "both" -> Phase.BOTH;
                        case "write" -> Phase.WRITE;
                        case "read" -> Phase.READ;
                        default -> throw new IllegalArgumentException("--phase is both, write or read");
                    };
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (address == null || (subsystem == null && !discover)) {
                throw new IllegalArgumentException("--address and --subsystem (or --discover) are needed");
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        InetSocketAddress from = source == null ? null : new InetSocketAddress(source, 0);
        HostOptions options = HostOptions.of(from, new InetSocketAddress(address, port),
                        subsystem == null ? "" : subsystem, hostNqn)
                .withQueues(queues, depth).withKeyMethod(method).withInCapsule(inCapsule).withKeepAliveMs(keepAliveMs);
        try {
            Workload workload = new Workload(nsid, ioBytes, count, seed, pattern, phase, offset);
            System.exit(run(provider, options, discover, workload) ? 0 : 1);
        } catch (NvmeException | VerbsException | IllegalArgumentException | IOException e) {
            System.err.println("nvmeof host: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Which half of the check this run does: {@code --phase}. */
    private enum Phase { BOTH, WRITE, READ }

    /** What the host moves: the blocks, their size and the data's source. */
    private record Workload(int nsid, int ioBytes, int count, long seed, Path pattern, Phase phase, long offsetBytes) {
        /** The data of block {@code i}: the pattern file's slice, else the seeded bytes. */
        void fill(MemorySegment block, int i, MemorySegment file) {
            if (file != null) {
                MemorySegment.copy(file, (long) i * ioBytes, block, 0, ioBytes);
            } else {
                byte[] bytes = new byte[ioBytes];
                new SplittableRandom(seed + i).nextBytes(bytes);
                MemorySegment.copy(bytes, 0, block, ValueLayout.JAVA_BYTE, 0, ioBytes);
            }
        }
    }

    private static boolean run(String provider, HostOptions options, boolean discover, Workload workload)
            throws IOException {
        if (discover) {
            MemorySegment log = NvmeHost.discover(Arguments.provider(provider), options);
            long records = DiscoveryLog.records(log);
            System.out.println("discovery log: " + records + " record(s)");
            for (int i = 0; i < records; i++) {
                System.out.println("  " + DiscoveryLog.subnqn(log, i) + " at " + DiscoveryLog.address(log, i) + ":"
                        + DiscoveryLog.serviceId(log, i));
            }
            return true;
        }
        try (NvmeHost host = NvmeHost.connect(Arguments.provider(provider), options)) {
            return exercise(host, workload);
        }
    }

    /** Writes, flushes and reads back {@code count} blocks of {@code ioBytes}, spread over the queues. */
    private static boolean exercise(NvmeHost host, Workload workload) throws IOException {
        int nsid = workload.nsid();
        int ioBytes = workload.ioBytes();
        MemorySegment file = null;
        int count = workload.count();
        if (workload.pattern() != null) {
            file = MemorySegment.ofArray(Files.readAllBytes(workload.pattern()));
            count = (int) Math.min(count, file.byteSize() / ioBytes);
        }
        NamespaceInfo ns = host.namespaces().stream().filter(n -> n.nsid() == nsid).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no namespace " + nsid));
        if (ns.blockShift() < 9 || ioBytes % ns.blockBytes() != 0) {
            throw new IllegalArgumentException("namespace " + nsid + " has blocks of " + ns.blockBytes()
                    + " bytes: not a block device's, or not a divisor of " + ioBytes);
        }
        int blocks = ioBytes >>> ns.blockShift();
        long first = workload.offsetBytes() >>> ns.blockShift();
        if (workload.offsetBytes() < 0 || first << ns.blockShift() != workload.offsetBytes() || first > ns.blocks()) {
            throw new IllegalArgumentException("--offset " + workload.offsetBytes() + " is not a block boundary of namespace "
                    + nsid);
        }
        long fits = (ns.blocks() - first) / blocks;
        int total = (int) Math.min(count, fits);
        System.out.printf("controller %d (%s), %d I/O queue(s), keys by %s; namespace %d: %d blocks of %d bytes%n",
                host.cntlid(), host.identity().model(), host.ioQueueCount(), host.keyMethod(), nsid, ns.blocks(),
                ns.blockBytes());
        MemorySegment[] out = new MemorySegment[total];
        MemorySegment[] in = new MemorySegment[total];
        Command[] writes = new Command[total];
        Command[] reads = new Command[total];
        for (int i = 0; i < total; i++) {
            out[i] = host.allocateBuffer(ioBytes);
            in[i] = host.allocateBuffer(ioBytes);
            workload.fill(out[i], i, file);
            // Preparing many blocks can outlast the keep-alive timeout under a slow CPU.
            host.keepAliveIfDue(System.nanoTime());
            writes[i] = Command.write(nsid, first + (long) i * blocks, blocks, out[i]);
            reads[i] = Command.read(nsid, first + (long) i * blocks, blocks, in[i]);
        }
        long start = System.nanoTime();
        int[] tally = new int[3];
        Phase phase = workload.phase();
        if (phase != Phase.READ) {
            run(host, writes, tally);
            host.ioQueue(1).execute(new Command().opcode(Opcodes.IO_FLUSH).nsid(nsid), Duration.ofSeconds(30));
        }
        if (phase != Phase.WRITE) {
            run(host, reads, tally);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int bad = 0;
        for (int i = 0; i < total && phase != Phase.WRITE; i++) {
            if (in[i].mismatch(out[i]) != -1) {
                bad++;
            }
        }
        String done = switch (phase) {
            case BOTH -> "wrote, flushed and read";
            case WRITE -> "wrote and flushed";
            case READ -> "read";
        };
        int moved = phase == Phase.BOTH ? 2 : 1;
        System.out.printf("%s %d x %d bytes in %.3f s (%.1f MB/s); keys invalidated by the "
                        + "controller %d, by the host %d; failures %d; %s%n", done, total, ioBytes, seconds,
                moved * (double) total * ioBytes / seconds / 1e6, tally[0], tally[1], tally[2],
                bad == 0 && tally[2] == 0 ? (phase == Phase.WRITE ? "every write completed" : "every block matches")
                        : bad + " block(s) differ");
        return bad == 0 && tally[2] == 0;
    }

    private static void run(NvmeHost host, Command[] commands, int[] tally) {
        int queues = host.ioQueueCount();
        Completion[] batch = new Completion[16];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = new Completion();
        }
        int next = 0;
        int done = 0;
        while (done < commands.length) {
            for (int q = 1; q <= queues; q++) {
                HostQueue queue = host.ioQueue(q);
                while (next < commands.length && !queue.full() && !queue.failed()) {
                    queue.submit(commands[next++]);
                }
                int n = queue.poll(batch);
                for (int i = 0; i < n; i++) {
                    done++;
                    if (batch[i].status() != 0) {
                        tally[2]++;
                    } else if (batch[i].invalidatedByController()) {
                        tally[0]++;
                    } else if (batch[i].invalidatedLocally()) {
                        tally[1]++;
                    }
                }
                if (queue.failed() && queue.outstanding() == 0 && next < commands.length) {
                    throw new NvmeException(NvmeException.TRANSPORT, "queue " + q + " failed: " + queue.failure());
                }
            }
            host.keepAliveIfDue(System.nanoTime());
        }
    }
}

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
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * A small NVMe-oF host: connects, writes a seeded pattern over a namespace at a queue depth,
 * flushes, reads it back and reports what it found; or lists a discovery controller's log.
 * <pre>
 * HostMain --address A [--port 4420] [--source S] [--provider soft|ibverbs] --subsystem NQN
 *          [--hostnqn NQN] [--nsid 1] [--queues 1] [--depth 32] [--io-bytes 4096] [--count 256]
 *          [--seed 1] [--key-method fast|window|region] [--no-in-capsule]
 * HostMain --address A [--port 4420] --discover
 * </pre>
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
                .withQueues(queues, depth).withKeyMethod(method).withInCapsule(inCapsule);
        try {
            System.exit(run(provider, options, discover, nsid, ioBytes, count, seed) ? 0 : 1);
        } catch (NvmeException | VerbsException | IllegalArgumentException e) {
            System.err.println("nvmeof host: " + e.getMessage());
            System.exit(1);
        }
    }

    private static boolean run(String provider, HostOptions options, boolean discover, int nsid, int ioBytes,
                               int count, long seed) {
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
            return exercise(host, nsid, ioBytes, count, seed);
        }
    }

    /** Writes, flushes and reads back {@code count} seeded blocks of {@code ioBytes}, spread over the queues. */
    private static boolean exercise(NvmeHost host, int nsid, int ioBytes, int count, long seed) {
        NamespaceInfo ns = host.namespaces().stream().filter(n -> n.nsid() == nsid).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no namespace " + nsid));
        if (ns.blockShift() < 9 || ioBytes % ns.blockBytes() != 0) {
            throw new IllegalArgumentException("namespace " + nsid + " has blocks of " + ns.blockBytes()
                    + " bytes: not a block device's, or not a divisor of " + ioBytes);
        }
        int blocks = ioBytes >>> ns.blockShift();
        long fits = ns.blocks() / blocks;
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
            fill(out[i], seed + i);
            writes[i] = Command.write(nsid, (long) i * blocks, blocks, out[i]);
            reads[i] = Command.read(nsid, (long) i * blocks, blocks, in[i]);
        }
        long start = System.nanoTime();
        int[] tally = new int[3];
        run(host, writes, tally);
        host.ioQueue(1).execute(new Command().opcode(Opcodes.IO_FLUSH).nsid(nsid), Duration.ofSeconds(30));
        run(host, reads, tally);
        double seconds = (System.nanoTime() - start) / 1e9;
        int bad = 0;
        for (int i = 0; i < total; i++) {
            if (in[i].mismatch(out[i]) != -1) {
                bad++;
            }
        }
        System.out.printf("wrote, flushed and read %d x %d bytes in %.3f s (%.1f MB/s); keys invalidated by the "
                        + "controller %d, by the host %d; failures %d; %s%n", total, ioBytes, seconds,
                2.0 * total * ioBytes / seconds / 1e6, tally[0], tally[1], tally[2],
                bad == 0 && tally[2] == 0 ? "every block matches" : bad + " block(s) differ");
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

    private static void fill(MemorySegment s, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
        }
    }
}

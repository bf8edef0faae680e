package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.FileNamespace;
import dev.verbs4j.nvmeof.controller.MemoryNamespace;
import dev.verbs4j.nvmeof.controller.Namespace;
import dev.verbs4j.nvmeof.controller.Subsystem;
import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.controller.TargetOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs an NVMe-oF RDMA target until it is killed:
 * <pre>
 * TargetMain --address 10.0.0.1 [--port 4420] [--provider soft|ibverbs]
 *            --subsystem NQN [--allow-host NQN]... --namespace file:PATH:SIZE[:BLOCK][:uuid=UUID] | mem:SIZE[:BLOCK][:uuid=UUID] ...
 *            [--subsystem NQN ...] [--queue-entries 128] [--in-capsule 4096] [--mdts 5]
 *            [--io-queues 8] [--no-remote-invalidate] [--control FIFO]
 * </pre>
 * Each {@code --allow-host} and {@code --namespace} belongs to the {@code --subsystem} before
 * it; a subsystem without {@code --allow-host} takes any host. With {@code --control} the
 * target may start without a subsystem and takes more, or gives them up, through the named
 * pipe {@code FIFO} ({@link ControlFifo}).
 */
public final class TargetMain {
    private TargetMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String provider = null;
        String address = null;
        int port = TargetOptions.DEFAULT_PORT;
        int entries = 128;
        int inCapsule = 4096;
        int mdts = 5;
        int ioQueues = 8;
        boolean invalidate = true;
        Path control = null;
        List<Subsystem> subsystems = new ArrayList<>();
        String nqn = null;
        List<Namespace> namespaces = new ArrayList<>();
        Set<String> hosts = new LinkedHashSet<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--provider" -> provider = Arguments.value(args, i++);
                    case "--address" -> address = Arguments.value(args, i++);
                    case "--port" -> port = Integer.parseInt(Arguments.value(args, i++));
                    case "--queue-entries" -> entries = Integer.parseInt(Arguments.value(args, i++));
                    case "--in-capsule" -> inCapsule = (int) Arguments.size(Arguments.value(args, i++));
                    case "--mdts" -> mdts = Integer.parseInt(Arguments.value(args, i++));
                    case "--io-queues" -> ioQueues = Integer.parseInt(Arguments.value(args, i++));
                    case "--no-remote-invalidate" -> invalidate = false;
                    case "--control" -> control = Path.of(Arguments.value(args, i++));
                    case "--subsystem" -> {
                        if (nqn != null) {
                            subsystems.add(subsystem(nqn, subsystems.size(), namespaces, hosts));
                        }
                        nqn = Arguments.value(args, i++);
                        namespaces = new ArrayList<>();
                        hosts = new LinkedHashSet<>();
                    }
                    case "--allow-host" -> hosts.add(Arguments.value(args, i++));
                    case "--namespace" -> namespaces.add(namespace(Arguments.value(args, i++)));
                    case "--help", "-h" -> {
                        usage();
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
                if (nqn == null && (args[i].equals("--namespace") || args[i].equals("--allow-host"))) {
                    throw new IllegalArgumentException(args[i] + " comes after a --subsystem");
                }
            }
            if (address == null || nqn == null && control == null) {
                throw new IllegalArgumentException("--address and at least one --subsystem (or --control) are needed");
            }
            if (nqn != null) {
                subsystems.add(subsystem(nqn, subsystems.size(), namespaces, hosts));
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            usage();
            System.exit(2);
            return;
        }
        TargetOptions options = new TargetOptions(new InetSocketAddress(address, port), entries, inCapsule, mdts,
                ioQueues, 10, invalidate);
        Target target = new Target(Arguments.provider(provider), options, subsystems);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            target.close();
            stopped.countDown();
        }));
        target.start();
        System.out.println("nvmeof target on " + address + ":" + target.port() + ", " + subsystems.size()
                + " subsystem(s)");
        for (Subsystem s : subsystems) {
            System.out.println("  " + s.nqn() + ": " + s.namespaces().size() + " namespace(s), hosts "
                    + (s.allowedHosts().isEmpty() ? "any" : s.allowedHosts()));
        }
        if (control != null) {
            ControlFifo fifo = new ControlFifo(control, target, subsystems.size(), System.out);
            Thread.ofPlatform().name("nvmeof-control").daemon(true).start(fifo::run);
            System.out.println("control: reading " + control);
        }
        // What an operator looks for when a host lost its controller: one line whenever it changes.
        String said = "";
        while (!stopped.await(1, TimeUnit.SECONDS)) {
            String now = "controllers " + target.controllerCount() + ", keep-alive expiries "
                    + target.keepAliveExpiries() + ", queues ended by a fault " + target.faults();
            if (!now.equals(said)) {
                System.out.println(now);
                said = now;
            }
        }
    }

    /** Subsystem number {@code index} (0-based), with the serial number that index gives it. */
    static Subsystem subsystem(String nqn, int index, List<Namespace> namespaces, Set<String> hosts) {
        if (namespaces.isEmpty()) {
            throw new IllegalArgumentException("subsystem " + nqn + " has no --namespace");
        }
        return new Subsystem(nqn, String.format("VERBS4J%08d", index + 1), namespaces, hosts);
    }

    /**
     * {@code file:PATH:SIZE[:BLOCK][:uuid=UUID]} or {@code mem:SIZE[:BLOCK][:uuid=UUID]}; BLOCK
     * 512 (default) or 4096. Without a UUID a file namespace has one made from its path, a
     * memory namespace a random one.
     */
    static Namespace namespace(String spec) {
        String[] parts = spec.split(":");
        UUID uuid = null;
        if (parts.length > 1 && parts[parts.length - 1].startsWith("uuid=")) {
            uuid = UUID.fromString(parts[parts.length - 1].substring("uuid=".length()));
            parts = Arrays.copyOf(parts, parts.length - 1);
        }
        try {
            if (parts[0].equals("mem") && (parts.length == 2 || parts.length == 3)) {
                long bytes = Arguments.size(parts[1]);
                int shift = blockShift(parts, 2);
                return uuid == null ? new MemoryNamespace(bytes, shift) : new MemoryNamespace(bytes, shift, uuid);
            }
            if (parts[0].equals("file") && (parts.length == 3 || parts.length == 4)) {
                Path path = Path.of(parts[1]);
                long bytes = Arguments.size(parts[2]);
                int shift = blockShift(parts, 3);
                return uuid == null ? new FileNamespace(path, bytes, shift) : new FileNamespace(path, bytes, shift, uuid);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("namespace " + spec, e);
        }
        throw new IllegalArgumentException("not a namespace: " + spec
                + " (file:PATH:SIZE[:BLOCK][:uuid=UUID] or mem:SIZE[:BLOCK][:uuid=UUID])");
    }

    private static int blockShift(String[] parts, int index) {
        if (parts.length <= index) {
            return 9;
        }
        long block = Arguments.size(parts[index]);
        if (block != 512 && block != 4096) {
            throw new IllegalArgumentException("block size " + block + " is neither 512 nor 4096");
        }
        return Long.numberOfTrailingZeros(block);
    }

    private static void usage() {
        System.err.println("""
                usage: TargetMain --address A [--port 4420] [--provider soft|ibverbs]
                         --subsystem NQN [--allow-host NQN]... --namespace file:PATH:SIZE[:BLOCK][:uuid=UUID]|mem:SIZE[:BLOCK][:uuid=UUID]...
                         [--subsystem NQN ...] [--queue-entries 128] [--in-capsule 4096] [--mdts 5]
                         [--io-queues 8] [--no-remote-invalidate] [--control FIFO]
                with --control, lines written to the named pipe FIFO change the subsystems while it runs:
                  offer NQN HOSTNQN|any NAMESPACE...    withdraw NQN""");
    }
}

package dev.verbs4j.nvmeof;

import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.nvmeof.controller.MemoryNamespace;
import dev.verbs4j.nvmeof.controller.Namespace;
import dev.verbs4j.nvmeof.controller.Subsystem;
import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.controller.TargetOptions;
import dev.verbs4j.nvmeof.host.HostOptions;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A target on the soft device at 127.0.0.1 and hosts on 127.0.0.2 and 127.0.0.3, in one
 * JVM (the devices are the build's {@code verbs4j.soft.devices}).
 */
final class Loopback {
    static final String SUBSYSTEM = "nqn.2026-01.dev.verbs4j:test";
    static final String OTHER_SUBSYSTEM = "nqn.2026-01.dev.verbs4j:other";
    static final String HOST_A = "nqn.2026-01.dev.verbs4j:host-a";
    static final String HOST_B = "nqn.2026-01.dev.verbs4j:host-b";
    static final String STRANGER = "nqn.2026-01.dev.verbs4j:stranger";
    static final InetSocketAddress HOST_A_ADDRESS = new InetSocketAddress("127.0.0.2", 0);
    static final InetSocketAddress HOST_B_ADDRESS = new InetSocketAddress("127.0.0.3", 0);
    /** The UUID of the first namespace of {@link #SUBSYSTEM}. */
    static final UUID NAMESPACE_1_UUID = UUID.fromString("0f1e2d3c-4b5a-4968-8776-8594a3b2c1d0");

    private Loopback() {
    }

    static Provider soft() {
        return Verbs.provider("soft");
    }

    /** Two memory namespaces (1 MiB of 512-byte blocks, 256 KiB of 4 KiB blocks) for hosts A and B; one for anyone. */
    static List<Subsystem> subsystems() {
        List<Namespace> namespaces = List.of(new MemoryNamespace(1 << 20, 9, NAMESPACE_1_UUID), new MemoryNamespace(256 << 10, 12));
        return List.of(new Subsystem(SUBSYSTEM, "VERBS4J0001", namespaces, Set.of(HOST_A, HOST_B)),
                new Subsystem(OTHER_SUBSYSTEM, "VERBS4J0002", List.of(new MemoryNamespace(64 << 10, 9)), Set.of()));
    }

    static Target target(int port, TargetOptions options) {
        Target target = new Target(soft(), options, subsystems());
        target.start();
        return target;
    }

    static TargetOptions options(int port) {
        return TargetOptions.defaults(new InetSocketAddress("127.0.0.1", port));
    }

    static HostOptions host(String nqn, InetSocketAddress source, int port) {
        return HostOptions.of(source, new InetSocketAddress("127.0.0.1", port), SUBSYSTEM, nqn).withQueues(2, 16);
    }
}

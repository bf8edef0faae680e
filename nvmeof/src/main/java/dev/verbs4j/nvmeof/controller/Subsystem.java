package dev.verbs4j.nvmeof.controller;

import java.util.List;
import java.util.Set;

/**
 * An NVM subsystem the target offers: its NQN, its namespaces (namespace id {@code i + 1}
 * is {@code namespaces.get(i)}), and the host NQNs allowed to connect (empty: any host).
 */
public record Subsystem(String nqn, String serial, List<Namespace> namespaces, Set<String> allowedHosts) {
    public Subsystem {
        namespaces = List.copyOf(namespaces);
        allowedHosts = Set.copyOf(allowedHosts);
    }

    public boolean allows(String hostNqn) {
        return allowedHosts.isEmpty() || allowedHosts.contains(hostNqn);
    }

    /** The namespace {@code nsid} names, or null when it names none. */
    public Namespace namespace(int nsid) {
        return nsid >= 1 && nsid <= namespaces.size() ? namespaces.get(nsid - 1) : null;
    }
}

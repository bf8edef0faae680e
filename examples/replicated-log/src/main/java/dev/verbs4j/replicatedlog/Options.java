package dev.verbs4j.replicatedlog;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A command's {@code --name value} options and its positional arguments. */
final class Options {
    private final Map<String, List<String>> values = new HashMap<>();
    private final List<String> positional = new ArrayList<>();

    Options(String[] args, int from, Set<String> flags) {
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                String name = a.substring(2);
                if (flags.contains(name)) {
                    values.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
                } else if (i + 1 < args.length) {
                    values.computeIfAbsent(name, k -> new ArrayList<>()).add(args[++i]);
                } else {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
            } else {
                positional.add(a);
            }
        }
    }

    String get(String name, String otherwise) {
        List<String> v = values.get(name);
        return v == null ? otherwise : v.getLast();
    }

    List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    boolean flag(String name) {
        return values.containsKey(name);
    }

    long number(String name, long otherwise, long min, long max) {
        String v = get(name, null);
        if (v == null) {
            return otherwise;
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " " + v + ": not a number");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("--" + name + " " + v + ": outside " + min + ".." + max);
        }
        return n;
    }

    List<String> positional() {
        return positional;
    }

    /** Opens {@code --device} of {@code --provider} (the default provider, the first device when not given). */
    DeviceContext openDevice() {
        String providerName = get("provider", null);
        Provider provider = providerName == null ? Verbs.defaultProvider() : Verbs.provider(providerName);
        String name = get("device", null);
        for (Device d : provider.devices()) {
            if (name == null || d.name().equals(name)) {
                return d.open();
            }
        }
        throw new IllegalArgumentException("provider " + provider.name() + " has no device "
                + (name == null ? "at all" : name) + provider.unavailableReason().map(r -> " (" + r + ")").orElse(""));
    }

    /** HOST:PORT. */
    static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected HOST:PORT, got " + hostPort);
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}

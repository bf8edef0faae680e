package dev.verbs4j.conformance.twohost;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Where the requesters of one host meet before their peer goes: each says it is connected
 * (a file in a folder they share), and one of them, the leader, waits for the others, asks
 * the peer host to reboot, and tells everyone once the peer no longer answers on its
 * control address. The others wait for that word.
 */
final class Rendezvous {
    private static final String GONE = "peer-gone";
    private static final Duration WAIT = Duration.ofMinutes(5);

    private final Path folder;
    private final String name;
    private final boolean leader;
    private final List<String> others;
    private final InetSocketAddress control;
    private final LongSupplier clock;

    /**
     * @param folder the shared folder
     * @param name this requester's name
     * @param leader whether this requester asks the peer to go
     * @param others the names the leader waits for
     * @param control the peer's control address (the leader sends {@code reboot} there and probes it)
     * @param clock nanoseconds
     */
    Rendezvous(Path folder, String name, boolean leader, List<String> others, InetSocketAddress control, LongSupplier clock) {
        this.folder = folder;
        this.name = name;
        this.leader = leader;
        this.others = others;
        this.control = control;
        this.clock = clock;
    }

    /** @return null once the peer is gone, else why it is not known to be */
    String arrive() {
        touch(name + ".connected");
        if (!leader) {
            return waitFor(GONE) ? null : "no word that the peer went away within " + WAIT.toSeconds() + " s";
        }
        for (String other : others) {
            if (!waitFor(other + ".connected")) {
                return other + " did not connect within " + WAIT.toSeconds() + " s";
            }
        }
        if (!RebootRequester.request(control, "reboot")) {
            return "the reboot request to " + control + " failed";
        }
        long until = clock.getAsLong() + WAIT.toNanos();
        int silent = 0;
        while (silent < 2) {
            if (clock.getAsLong() - until > 0) {
                return "the peer still answers on " + control + " " + WAIT.toSeconds() + " s after the reboot request";
            }
            silent = answers() ? 0 : silent + 1;
            RebootSide.pause(50);
        }
        touch(GONE);
        return null;
    }

    private boolean answers() {
        try (Socket s = new Socket()) {
            s.connect(control, 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean waitFor(String marker) {
        long until = clock.getAsLong() + WAIT.toNanos();
        while (!Files.exists(folder.resolve(marker))) {
            if (clock.getAsLong() - until > 0) {
                return false;
            }
            RebootSide.pause(50);
        }
        return true;
    }

    private void touch(String marker) {
        try {
            Files.createDirectories(folder);
            Files.writeString(folder.resolve(marker), "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + folder.resolve(marker), e);
        }
    }
}

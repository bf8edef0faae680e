package dev.verbs4j.conformance.twohost;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reboot checks on one soft device: a responder whose way of going away is to close its
 * device (its queue pairs vanish, as a rebooted host's do) and to come back on the same
 * addresses a moment later with new ones. In the micro-VM pair the responder's host reboots.
 */
class PeerRebootTest {
    static {
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27923");
    }

    @TempDir
    Path folder;

    @Test
    void requesterSeesTheRetryErrorKeepsItsOtherPairsAndConnectsAgain() throws Exception {
        InetSocketAddress data = freeAddress();
        InetSocketAddress control = freeAddress();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread peer = Thread.ofPlatform().name("going-peer").daemon().start(() -> {
            try {
                try (RebootSide first = RebootSide.open("soft", "soft0")) {
                    new RebootResponder(first, () -> { }).serve(data, control);
                }
                // Away until the requester has seen it gone, as a rebooting host is.
                while (!Files.exists(folder.resolve("meet").resolve("peer-gone"))) {
                    Thread.sleep(10);
                }
                try (RebootSide back = RebootSide.open("soft", "soft0")) {
                    new RebootResponder(back, null).serve(data, control);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        Path report = folder.resolve("reboot.tsv");
        RebootRequester requester = new RebootRequester(RebootSide.open("soft", "soft0"), "softToSoft", 10, 2,
                System::nanoTime, new RebootReport(report));
        boolean passed = requester.run(data, control,
                new Rendezvous(folder.resolve("meet"), "softToSoft", true, List.of(), control, System::nanoTime));
        List<String> lines = Files.readAllLines(report);
        peer.join(Duration.ofMinutes(1));
        assertFalse(peer.isAlive(), "the responder did not end: " + String.join("\n", lines));
        assertEquals(List.of("BothPairsCarryDataBeforeThePeerGoes", "PeerGoesAway", "WriteToTheGonePeerEndsInRetryExceeded",
                "QueuePairToTheGonePeerIsInError", "LoopbackPairUnharmed", "NewConnectionAfterThePeerReturns"),
                lines.stream().map(l -> l.substring((RebootReport.CASE_PREFIX + "softToSoft").length(), l.indexOf('\t'))).toList());
        assertTrue(passed, String.join("\n", lines));
        assertTrue(lines.stream().allMatch(l -> l.contains("\tpass\t")), String.join("\n", lines));
        assertEquals(null, failed.get());
    }

    @Test
    void aPeerThatNeverComesIsAFailedCheckNotAHang() throws Exception {
        InetSocketAddress data = freeAddress();
        InetSocketAddress control = freeAddress();
        Path report = folder.resolve("never.tsv");
        long[] now = {0};
        // The clock jumps ten minutes a read: every wait for the peer ends at its first look.
        RebootRequester requester = new RebootRequester(RebootSide.open("soft", "soft0"), "nobody", 10, 2,
                () -> now[0] += 600_000_000_000L, new RebootReport(report));
        assertFalse(requester.run(data, control,
                new Rendezvous(folder.resolve("meet"), "nobody", true, List.of(), control, System::nanoTime)));
        List<String> lines = Files.readAllLines(report);
        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.getFirst().contains("BothPairsCarryDataBeforeThePeerGoes\tfail\tno connection to"), lines.getFirst());
    }

    private static InetSocketAddress freeAddress() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
    }
}

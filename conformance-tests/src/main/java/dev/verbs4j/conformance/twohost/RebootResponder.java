package dev.verbs4j.conformance.twohost;

import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The side that goes away: it accepts RC connections (the peer's requester writes to and
 * reads from its buffer) and, on a control port, takes one of two requests:
 * {@code reboot} runs its way of going away ({@link #SYSRQ_REBOOT} reboots the machine at
 * once, with no orderly shutdown, as a power cut would) and ends the serving; {@code done}
 * ends the serving. A control connection that sends nothing is a peer probing whether this
 * host is still there.
 */
final class RebootResponder {
    /** Reboots this machine now, through the kernel's magic SysRq trigger (root only). */
    static final Runnable SYSRQ_REBOOT = () -> {
        try {
            Files.writeString(Path.of("/proc/sysrq-trigger"), "b");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reboot through /proc/sysrq-trigger", e);
        }
    };

    private final RebootSide side;
    private final Runnable goAway;

    /**
     * @param side the device and buffer the requesters reach
     * @param goAway what a {@code reboot} request does, or null to ignore such requests
     */
    RebootResponder(RebootSide side, Runnable goAway) {
        this.side = side;
        this.goAway = goAway;
    }

    /**
     * Serves until a {@code done} or {@code reboot} request.
     *
     * @param data where the requesters connect their queue pairs
     * @param control where the requests come
     * @throws IOException when an address cannot be bound
     */
    void serve(InetSocketAddress data, InetSocketAddress control) throws IOException {
        try (ServerSocket rc = new ServerSocket(); ServerSocket requests = new ServerSocket()) {
            rc.setReuseAddress(true);
            rc.bind(data);
            requests.setReuseAddress(true);
            requests.bind(control);
            Thread acceptor = Thread.ofPlatform().daemon().name("rc-accept").start(() -> acceptQueuePairs(rc));
            System.out.println("reboot responder: queue pairs at " + data + ", requests at " + control);
            System.out.flush();
            while (!answer(requests)) {
                // the next request
            }
            rc.close();
            try {
                acceptor.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void acceptQueuePairs(ServerSocket rc) {
        RcOptions options = new RcOptions().shared(side.region());
        while (!rc.isClosed()) {
            QueuePair qp = side.newQp();
            try {
                RcConnector.accept(qp, rc, options, Duration.ofHours(1));
                System.out.println("reboot responder: queue pair " + qp.qpn() + " connected");
                System.out.flush();
            } catch (UncheckedIOException e) {
                if (!rc.isClosed()) {
                    System.out.println("reboot responder: a connection failed: " + e.getMessage());
                }
            }
        }
    }

    /** @return true once the request was {@code done} or {@code reboot} */
    private boolean answer(ServerSocket requests) throws IOException {
        try (Socket s = requests.accept()) {
            s.setSoTimeout(10_000);
            String request = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            if ("done".equals(request)) {
                System.out.println("reboot responder: done");
                return true;
            }
            if ("reboot".equals(request) && goAway != null) {
                System.out.println("reboot responder: going away now");
                System.out.flush();
                goAway.run();
                return true;
            }
            if (request != null) {
                System.out.println("reboot responder: ignored request '" + request + "'");
            }
        } catch (IOException e) {
            System.out.println("reboot responder: a request failed: " + e.getMessage());
        }
        return false;
    }
}

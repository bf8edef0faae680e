package dev.verbs4j.conformance.twohost;

import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpState;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The side that stays: one RC queue pair to the peer that will go away and a loopback pair
 * on its own device. It checks that both carry data, lets the peer go (a {@link Rendezvous}),
 * then that a write to the vanished peer ends in {@code IBV_WC_RETRY_EXC_ERR} within the
 * queue pair's configured local ACK timeout and retry count (IBTA 9.7.6.1.3), that the
 * loopback pair is unharmed, and that a new queue pair connects once the peer is back.
 * Each check is one line of the report.
 */
final class RebootRequester {
    /** How long the first connection and the one after the peer's return may take to come up. */
    private static final Duration CONNECT_WITHIN = Duration.ofMinutes(5);
    private static final long TRANSFER_WAIT_NANOS = Duration.ofSeconds(30).toNanos();
    /**
     * What the emulated machines may add to the retry window: twice the window plus this. A
     * requester that waits longer, or forever, fails; one that gives up before the first
     * timeout has not retried at all.
     */
    private static final long EMULATION_SLACK_NANOS = Duration.ofSeconds(3).toNanos();

    private final RebootSide side;
    private final String name;
    private final int timeoutCode;
    private final int retryCount;
    private final LongSupplier clock;
    private final RebootReport report;

    /**
     * @param side the device and buffer
     * @param name the pairing, for the case names (such as {@code softToRxe})
     * @param timeoutCode the local ACK timeout, 4.096 µs × 2^code
     * @param retryCount the retries before RETRY_EXC_ERR, 0-6 (at 7 the kernel's rxe retries forever: finding retry-count-seven)
     * @param clock nanoseconds
     * @param report where each check's outcome goes
     */
    RebootRequester(RebootSide side, String name, int timeoutCode, int retryCount, LongSupplier clock, RebootReport report) {
        this.side = side;
        this.name = name;
        this.timeoutCode = timeoutCode;
        this.retryCount = retryCount;
        this.clock = clock;
        this.report = report;
    }

    /** The retry window the queue pair is configured for: (retry count + 1) local ACK timeouts. */
    long retryWindowNanos() {
        return (retryCount + 1) * ackTimeoutNanos();
    }

    private long ackTimeoutNanos() {
        return Math.round(4096.0 * (1L << timeoutCode));
    }

    /**
     * Runs every check in order.
     *
     * @param peer the responder's queue-pair address
     * @param control the responder's request address
     * @param peerGone returns once the peer is away
     * @return true when every check passed
     */
    boolean run(InetSocketAddress peer, InetSocketAddress control, Rendezvous peerGone) {
        RcOptions options = new RcOptions().timeout(timeoutCode).retryCount(retryCount).shared(side.region());
        Connected first = connect(peer, options);
        QueuePair[] loop = loopbackPair(options);
        if (!report.check(name + "BothPairsCarryDataBeforeThePeerGoes", firstFailure(carries(first, peer, 1), loopback(loop, 2)))
                || !report.check(name + "PeerGoesAway", peerGone.arrive())) {
            request(control, "done");
            return false;
        }
        QueuePair toPeer = first.qp();
        QpEndpoint remote = first.remote();

        toPeer.postSend(new SendWorkRequest().wrId(3).signaled(true).buffer(side.region(), 0, 64)
                .rdmaWrite(remote.address(), remote.rkey()));
        long posted = clock.getAsLong();
        long bound = 2 * retryWindowNanos() + EMULATION_SLACK_NANOS;
        WorkCompletion wc = RebootSide.next(toPeer.sendCq(), clock, bound);
        long tookNanos = clock.getAsLong() - posted;
        boolean ended = report.check(name + "WriteToTheGonePeerEndsInRetryExceeded", retryVerdict(wc, tookNanos, bound));
        QpState after = toPeer.query(new QpAttributes()).state();
        ended &= report.check(name + "QueuePairToTheGonePeerIsInError",
                after == QpState.ERR ? null : "the queue pair is in " + after + ", not ERR");
        boolean unharmed = report.check(name + "LoopbackPairUnharmed", firstFailure(loopback(loop, 4), states(loop)));

        Connected back = connect(peer, options);
        boolean reconnected = report.check(name + "NewConnectionAfterThePeerReturns", carries(back, peer, 5));
        request(control, "done");
        return ended && unharmed && reconnected;
    }

    /** A transfer to the peer over {@code connected}; why none could be made when it is null (no connection). */
    private String carries(Connected connected, InetSocketAddress peer, int seed) {
        if (connected == null) {
            return "no connection to " + peer + " within " + CONNECT_WITHIN.toSeconds() + " s";
        }
        return side.transfer(connected.qp(), connected.remote().address(), connected.remote().rkey(), seed, clock,
                TRANSFER_WAIT_NANOS);
    }

    private String retryVerdict(WorkCompletion wc, long tookNanos, long bound) {
        String window = String.format("timeout %d (%.1f ms) and retry_cnt %d: window %.0f ms", timeoutCode,
                ackTimeoutNanos() / 1e6, retryCount, retryWindowNanos() / 1e6);
        if (wc == null) {
            return "no completion within " + bound / 1_000_000 + " ms (" + window + ")";
        }
        if (wc.status() != WcStatus.RETRY_EXC_ERR) {
            return "completed with " + wc.status() + " after " + tookNanos / 1_000_000 + " ms, not RETRY_EXC_ERR (" + window + ")";
        }
        if (tookNanos < ackTimeoutNanos()) {
            return "RETRY_EXC_ERR after " + tookNanos / 1_000_000 + " ms, before a single local ACK timeout (" + window + ")";
        }
        System.out.printf("%s: RETRY_EXC_ERR after %d ms (%s)%n", name, tookNanos / 1_000_000, window);
        return null;
    }

    /** Two queue pairs of this device connected to each other, in RTS. */
    private QueuePair[] loopbackPair(RcOptions options) {
        QueuePair a = side.newQp();
        QueuePair b = side.newQp();
        QpEndpoint endA = RcConnector.localEndpoint(a, options);
        QpEndpoint endB = RcConnector.localEndpoint(b, options);
        RcConnector.bringUp(a, endA, endB, options);
        RcConnector.bringUp(b, endB, endA, options);
        return new QueuePair[] {a, b};
    }

    /** A transfer from the first loopback queue pair into the second half of this side's own buffer. */
    private String loopback(QueuePair[] loop, int seed) {
        return side.transfer(loop[0], side.region().address() + RebootSide.BUFFER_BYTES / 2, side.region().rkey(), seed,
                clock, TRANSFER_WAIT_NANOS);
    }

    private static String states(QueuePair[] loop) {
        for (QueuePair qp : loop) {
            QpState state = qp.query(new QpAttributes()).state();
            if (state != QpState.RTS) {
                return "loopback queue pair " + qp.qpn() + " is in " + state;
            }
        }
        return null;
    }

    private static String firstFailure(String first, String second) {
        return first != null ? first : second;
    }

    /** A queue pair in RTS and what its peer sent. */
    private record Connected(QueuePair qp, QpEndpoint remote) {
    }

    /**
     * A new queue pair connected to the responder, trying again while it is not there (a queue
     * pair that a failed exchange moved out of RESET is left, and a new one made).
     *
     * @return the connection, or null when none came up in time
     */
    private Connected connect(InetSocketAddress peer, RcOptions options) {
        long until = clock.getAsLong() + CONNECT_WITHIN.toNanos();
        QueuePair qp = side.newQp();
        while (true) {
            try {
                return new Connected(qp, RcConnector.connect(qp, peer, options, Duration.ofSeconds(3)));
            } catch (UncheckedIOException e) {
                if (clock.getAsLong() - until > 0) {
                    return null;
                }
                if (qp.query(new QpAttributes()).state() != QpState.RESET) {
                    qp = side.newQp();
                }
                RebootSide.pause(1000);
            }
        }
    }

    /**
     * Sends one request line to a responder's control address.
     *
     * @param control the address
     * @param request {@code reboot} or {@code done}
     * @return whether it was sent
     */
    static boolean request(InetSocketAddress control, String request) {
        try (Socket s = new Socket()) {
            s.connect(control, 3000);
            OutputStream out = s.getOutputStream();
            out.write((request + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

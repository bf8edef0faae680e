package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QueuePair;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.tools.cm.CmSetup;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The test's own queue pairs connected through the connection manager, as perftest does
 * with {@code -R} ({@code create_rdma_cm_connection}): the client resolves and connects one
 * id per queue pair to the server's port, trying again while the server is not listening
 * yet; the server listens on the same port (its exchange no longer does), from before the
 * exchange that lets the client go on, and accepts as many requests as there are queue pairs. The queue pairs made beforehand are handed to the
 * ids, which take them to RTS. READ and atomic tests offer their outstanding reads as both
 * initiator depth and responder resources.
 */
final class CmDataConnection implements AutoCloseable {
    private static final long CONNECT_RETRY_NS = 10_000_000_000L;
    private static final Duration DISCONNECT_WAIT = Duration.ofSeconds(2);

    private final CmEventChannel channel;
    private final List<CmId> ids = new ArrayList<>();

    private CmDataConnection(CmEventChannel channel) {
        this.channel = channel;
    }

    private static ConnectionParameters parameters(PerftestSide side) {
        PerftestTest.Verb verb = side.options.test.verb;
        int reads = verb == PerftestTest.Verb.READ || verb == PerftestTest.Verb.ATOMIC ? side.keys(0).outReads() : 0;
        return new ConnectionParameters().responderResources(reads).initiatorDepth(reads).retryCount(7).rnrRetryCount(7);
    }

    /** The client's side: every queue pair of {@code side} connected to {@code server}. */
    static CmDataConnection connect(CmEventChannel channel, PerftestSide side, InetSocketAddress source,
                                    InetSocketAddress server) {
        CmDataConnection made = new CmDataConnection(channel);
        try {
            for (QueuePair qp : side.qps) {
                made.ids.add(connectOne(channel, side, qp, source, server));
            }
            return made;
        } catch (RuntimeException e) {
            made.close();
            throw e;
        }
    }

    private static CmId connectOne(CmEventChannel channel, PerftestSide side, QueuePair qp, InetSocketAddress source,
                                   InetSocketAddress server) {
        long end = System.nanoTime() + CONNECT_RETRY_NS;
        while (true) {
            CmId id = CmSetup.resolve(channel, source, server);
            try {
                CmSetup.checkDevice(id, side.ctx.device().name());
                id.attachQp(qp);
                id.connect(parameters(side));
                channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT);
                return id;
            } catch (RuntimeException e) {
                id.close();
                if (!CmSetup.refused(e) || System.nanoTime() - end > 0) {
                    throw e;
                }
            }
            // A refused connection leaves the queue pair in ERR; the next id takes it from RESET.
            qp.modify(new QpAttributes().state(QpState.RESET));
            pause();
        }
    }

    /**
     * The server's first step, taken before the exchange that lets the client connect: the C
     * client's first request comes as soon as that exchange is over, and perftest 4.5's client
     * does not survive a refusal.
     */
    static CmId listen(CmEventChannel channel, PerftestSide side, InetSocketAddress address) {
        return CmSetup.listen(channel, address, side.qps.length);
    }

    /**
     * The server's second step: one request per queue pair of {@code side} on {@code listener}
     * (which this closes), each accepted and established.
     */
    static CmDataConnection accept(CmEventChannel channel, PerftestSide side, CmId listener) {
        CmDataConnection made = new CmDataConnection(channel);
        int established = 0;
        try (listener) {
            while (made.ids.size() < side.qps.length || established < side.qps.length) {
                CmEvent event = channel.nextEvent(CmSetup.EVENT_TIMEOUT).orElseThrow(() -> new IllegalStateException(
                        "the perftest client did not connect its queue pairs within " + CmSetup.EVENT_TIMEOUT));
                if (event.type() == CmEventType.CONNECT_REQUEST && made.ids.size() < side.qps.length) {
                    CmId id = event.id();
                    made.ids.add(id);
                    CmSetup.checkDevice(id, side.ctx.device().name());
                    id.attachQp(side.qps[made.ids.size() - 1]);
                    id.accept(parameters(side));
                } else if (event.type() == CmEventType.ESTABLISHED) {
                    established++;
                } else {
                    throw new IllegalStateException("connecting the test's queue pairs: unexpected " + event);
                }
            }
            return made;
        } catch (RuntimeException e) {
            made.close();
            throw e;
        }
    }

    /**
     * Disconnects every queue pair and waits briefly for the DISCONNECTED events (the peer
     * may have disconnected first), then destroys the ids; the queue pairs stay the side's.
     */
    @Override
    public void close() {
        for (CmId id : ids) {
            try {
                id.disconnect();
            } catch (RuntimeException e) {
                System.err.println("verbs4j perf --compat: disconnecting: " + e.getMessage());
            }
        }
        for (int i = 0; i < ids.size(); i++) {
            if (channel.nextEvent(DISCONNECT_WAIT).isEmpty()) {
                break;
            }
        }
        for (CmId id : ids) {
            id.close();
        }
        ids.clear();
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

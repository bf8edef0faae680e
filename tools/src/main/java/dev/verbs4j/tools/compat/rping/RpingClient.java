package dev.verbs4j.tools.compat.rping;

import dev.verbs4j.WcOpcode;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.tools.cm.CmSetup;

import java.io.PrintStream;
import java.net.InetSocketAddress;

/**
 * rping's client ({@code rping_run_client}, {@code rping_test_client}): per ping, it fills
 * its start buffer with rping's text, advertises it, waits while the server RDMA READs it,
 * advertises its rdma buffer, waits while the server RDMA WRITEs the text back, and with -V
 * compares the two.
 */
final class RpingClient {
    /** A server that is still starting refuses: connecting is tried again for this long. */
    private static final long CONNECT_RETRY_NS = 10_000_000_000L;

    private final RpingOptions o;
    private final PrintStream out;

    RpingClient(RpingOptions options, PrintStream out) {
        this.o = options;
        this.out = out;
    }

    /** @return the exit status: 0 when every ping completed (and, with -V, came back unchanged) */
    int run(CmEventChannel channel) {
        InetSocketAddress server = CmSetup.address(o.address, o.port);
        InetSocketAddress source = o.source == null ? null : CmSetup.address(o.source, 0);
        long end = System.nanoTime() + CONNECT_RETRY_NS;
        while (true) {
            CmId id = CmSetup.resolve(channel, source, server);
            RpingConnection c = null;
            try {
                CmSetup.checkDevice(id, o.device);
                c = new RpingConnection(id, o, out);
                c.postReceive();
                id.connect(new ConnectionParameters().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7));
                CmEvent established = channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT);
                c.debug(established);
                int status = pings(c);
                c.disconnect();
                return status;
            } catch (RuntimeException e) {
                if (!CmSetup.refused(e) || System.nanoTime() - end > 0) {
                    throw e;
                }
            } finally {
                if (c != null) {
                    c.close();
                }
                id.close();
            }
            pause();
        }
    }

    private int pings(RpingConnection c) {
        int size = o.size;
        int ping = 0;
        for (; o.count == 0 || ping < o.count; ping++) {
            PingText.fill(c.buffer, c.start, size, ping);
            c.buffer.asSlice(RpingConnection.RDMA, size).fill((byte) 0);
            c.advertise(c.start, size);
            if (!c.await(WcOpcode.RECV)) {
                out.printf("rping: the server disconnected during ping %d%n", ping);
                return 1;
            }
            c.advertise(RpingConnection.RDMA, size);
            if (!c.await(WcOpcode.RECV)) {
                out.printf("rping: the server disconnected during ping %d%n", ping);
                return 1;
            }
            if (o.validate) {
                long at = c.buffer.asSlice(c.start, size).mismatch(c.buffer.asSlice(RpingConnection.RDMA, size));
                if (at >= 0) {
                    out.printf("rping: data mismatch in ping %d at byte %d%n", ping, at);
                    return 1;
                }
            }
            if (o.verbose) {
                out.println("ping data: " + c.text(RpingConnection.RDMA, size));
            }
        }
        out.printf("rping: %d pings of %d bytes%s%n", ping, size, o.validate ? ", every one came back unchanged" : "");
        return 0;
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

package dev.verbs4j.tools.compat.rping;

import dev.verbs4j.WcOpcode;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.tools.cm.CmSetup;

import java.io.PrintStream;

/**
 * rping's server ({@code rping_run_server}, {@code rping_test_server}): one client; per ping
 * it RDMA READs the buffer the client advertises, answers with a go-ahead, RDMA WRITEs the
 * text it read into the client's second buffer, and answers again, until the client
 * disconnects. With -V it checks what it read is rping's text for that ping.
 */
final class RpingServer {
    private final RpingOptions o;
    private final PrintStream out;

    RpingServer(RpingOptions options, PrintStream out) {
        this.o = options;
        this.out = out;
    }

    /** @return 0 when the client disconnected after whole pings (all -C of them when given), each checked with -V */
    int run(CmEventChannel channel) {
        try (CmId listener = CmSetup.listen(channel, CmSetup.address(o.address, o.port), 3)) {
            out.printf("rping: server listening on %s port %d%n", o.address == null ? "every address" : o.address, o.port);
            out.flush();
            CmEvent request = CmSetup.awaitRequest(channel, null);
            CmId id = request.id();
            try {
                CmSetup.checkDevice(id, o.device);
            } catch (RuntimeException e) {
                id.reject(null);
                id.close();
                throw e;
            }
            try (RpingConnection c = new RpingConnection(id, o, out)) {
                c.debug(request);
                c.postReceive();
                id.accept(new ConnectionParameters().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7));
                c.debug(channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT));
                int status = serve(c);
                c.disconnect();
                return status;
            } finally {
                id.close();
            }
        }
    }

    private int serve(RpingConnection c) {
        int pings = 0;
        while (true) {
            if (!c.await(WcOpcode.RECV)) {
                break;
            }
            long address = RdmaInfo.address(c.buffer, RpingConnection.RECEIVE);
            int rkey = RdmaInfo.rkey(c.buffer, RpingConnection.RECEIVE);
            int length = RdmaInfo.length(c.buffer, RpingConnection.RECEIVE);
            if (length < 0 || length > o.size) {
                out.printf("rping: the client advertises %d bytes, more than this side's -S %d%n", Integer.toUnsignedLong(length),
                        o.size);
                return 1;
            }
            c.postRead(address, rkey, length);
            if (!c.await(WcOpcode.RDMA_READ)) {
                return interrupted(pings);
            }
            if (o.verbose) {
                out.println("server ping data: " + c.text(RpingConnection.RDMA, length));
            }
            if (o.validate && !valid(c, length, pings)) {
                return 1;
            }
            c.buffer.asSlice(RpingConnection.SEND, RdmaInfo.BYTES).fill((byte) 0);
            c.postSend();
            if (!c.await(WcOpcode.RECV)) {
                return interrupted(pings);
            }
            address = RdmaInfo.address(c.buffer, RpingConnection.RECEIVE);
            rkey = RdmaInfo.rkey(c.buffer, RpingConnection.RECEIVE);
            c.postWrite(address, rkey, c.stringLength(RpingConnection.RDMA, length - 1) + 1);
            if (!c.await(WcOpcode.RDMA_WRITE)) {
                return interrupted(pings);
            }
            c.postSend();
            pings++;
        }
        if (o.count > 0 && pings != o.count) {
            out.printf("rping: the client disconnected after %d pings, not %d%n", pings, o.count);
            return 1;
        }
        if (pings == 0) {
            out.println("rping: the client disconnected before its first ping");
            return 1;
        }
        out.printf("rping: served %d pings of up to %d bytes%s%n", pings, o.size,
                o.validate ? ", each holding rping's text" : "");
        return 0;
    }

    private boolean valid(RpingConnection c, int length, int ping) {
        long at = length < PingText.MIN_SIZE ? 0 : PingText.mismatch(c.buffer, RpingConnection.RDMA, length, ping);
        if (at >= 0) {
            out.printf("rping: ping %d is not rping's text of %d bytes from byte %d%n", ping, length, at);
            return false;
        }
        return true;
    }

    private int interrupted(int pings) {
        out.printf("rping: the client disconnected in the middle of ping %d%n", pings);
        return 1;
    }
}

package dev.verbs4j.tools.compat.cmexample;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.tools.cm.CmSetup;
import dev.verbs4j.tools.cm.CompletionWaiter;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

/**
 * {@code verbs4j rdma-server} and {@code verbs4j rdma-client}: librdmacm's rdma_server.c and
 * rdma_client.c on the wire. The server takes one connection with a receive posted; the
 * client posts a receive, connects, sends 16 bytes and waits for the server's 16; the server
 * answers once its receive completed; then both disconnect. Like the C programs they print
 * "start" and "end STATUS"; the status is 0 only when both messages went through whole.
 */
public final class CmExampleCommand {
    private static final int MESSAGE = 16;
    private static final long COMPLETION_TIMEOUT_NS = 20_000_000_000L;

    private CmExampleCommand() {
    }

    public static int run(boolean server, String[] args, PrintStream out, PrintStream err) {
        String name = server ? "rdma_server" : "rdma_client";
        CmExampleOptions o;
        try {
            o = CmExampleOptions.parse(server, args);
        } catch (IllegalArgumentException e) {
            err.println("verbs4j " + (server ? "rdma-server" : "rdma-client") + ": " + e.getMessage());
            err.print(CmExampleOptions.USAGE);
            return 2;
        }
        out.println(name + ": start");
        out.flush();
        int status;
        try (CmEventChannel channel = CmSetup.channel(o.provider, o.softDeviceAddress())) {
            status = server ? serve(o, channel, out) : connect(o, channel, out);
        } catch (RuntimeException e) {
            out.println(name + ": " + e.getMessage());
            status = 1;
        }
        out.println(name + ": end " + status);
        out.flush();
        return status;
    }

    private static int serve(CmExampleOptions o, CmEventChannel channel, PrintStream out) {
        try (CmId listener = CmSetup.listen(channel, CmSetup.address(o.address, o.port), 0)) {
            out.println("rdma_server: listening on " + o.address + " port " + o.port);
            out.flush();
            CmEvent request = CmSetup.awaitRequest(channel, null);
            try (CmId id = request.id(); Exchange x = new Exchange(id, o.device)) {
                x.postReceive();
                id.accept(new ConnectionParameters());
                channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT);
                x.awaitReceive();
                x.send();
                id.disconnect();
                awaitDisconnect(channel);
                return 0;
            }
        }
    }

    private static int connect(CmExampleOptions o, CmEventChannel channel, PrintStream out) {
        InetSocketAddress source = o.softAddress == null ? null : CmSetup.address(o.softAddress, 0);
        try (CmId id = CmSetup.resolve(channel, source, CmSetup.address(o.address, o.port)); Exchange x = new Exchange(id, o.device)) {
            x.postReceive();
            id.connect(new ConnectionParameters());
            channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT);
            x.send();
            x.awaitReceive();
            id.disconnect();
            awaitDisconnect(channel);
            return 0;
        }
    }

    /** Either side disconnects first; the DISCONNECTED event is waited for briefly, as destroying the id would. */
    private static void awaitDisconnect(CmEventChannel channel) {
        channel.nextEvent(Duration.ofSeconds(2));
    }

    /** One queue pair of one send and one receive, and the two 16-byte messages, on the id's device. */
    private static final class Exchange implements AutoCloseable {
        private final Arena arena = Arena.ofShared();
        private final DeviceContext ctx;
        private final ProtectionDomain pd;
        private final CompletionQueue sendCq;
        private final CompletionQueue recvCq;
        private final QueuePair qp;
        private final MemoryRegion region;
        private final CompletionWaiter sends;
        private final CompletionWaiter receives;

        Exchange(CmId id, String deviceName) {
            CmSetup.checkDevice(id, deviceName);
            ctx = id.device().open();
            pd = ctx.allocatePd();
            // One queue each: the peer's message may complete before this side's send does.
            sendCq = ctx.createCq(1);
            recvCq = ctx.createCq(1);
            qp = id.createQp(pd, new QpInitAttributes(QpType.RC, sendCq, recvCq).capacity(1, 1, 1, 1, MESSAGE).signalAll(true));
            MemorySegment buffer = arena.allocate(2 * MESSAGE, 64);
            region = pd.registerMemory(buffer, EnumSet.of(Access.LOCAL_WRITE));
            sends = new CompletionWaiter(sendCq, COMPLETION_TIMEOUT_NS);
            receives = new CompletionWaiter(recvCq, COMPLETION_TIMEOUT_NS);
        }

        void postReceive() {
            qp.postRecv(new ReceiveWorkRequest().wrId(1).buffer(region, 0, MESSAGE));
        }

        void send() {
            qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(region, MESSAGE, MESSAGE).send());
            expect(sends, WcOpcode.SEND, "the send completion");
        }

        void awaitReceive() {
            WorkCompletion wc = expect(receives, WcOpcode.RECV, "the peer's message");
            if (wc.byteLength() != MESSAGE) {
                throw new IllegalStateException("the peer's message has " + wc.byteLength() + " bytes, not " + MESSAGE);
            }
        }

        private static WorkCompletion expect(CompletionWaiter completions, WcOpcode opcode, String what) {
            WorkCompletion wc = completions.nextSuccessful(what);
            if (wc.opcode() != opcode) {
                throw new IllegalStateException("expected " + what + ", got a " + wc.opcode() + " completion");
            }
            return wc;
        }

        @Override
        public void close() {
            for (AutoCloseable c : new AutoCloseable[] {qp, region, sendCq, recvCq, pd, ctx}) {
                try {
                    c.close();
                } catch (Exception e) {
                    System.err.println("closing " + c + ": " + e.getMessage());
                }
            }
            arena.close();
        }
    }
}

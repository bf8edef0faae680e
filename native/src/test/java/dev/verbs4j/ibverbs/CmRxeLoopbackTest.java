package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.cm.RejectReason;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.engine.discovery.DiscoverySelectors;

/**
 * The connection manager on the kernel's rxe: a client and a server of this provider
 * connect through librdmacm on one address (10.9.0.1 to itself), exchange SENDs and
 * private data both ways, and disconnect; a port without a listener, a reject, and an
 * address nobody answers give the kernel's events. Runs where {@code /dev/infiniband/rdma_cm}
 * and an address {@code verbs4j.cm.address} (default 10.9.0.1) on an RDMA device exist:
 * the rxe VM ({@link #main} runs it there without Maven).
 */
class CmRxeLoopbackTest {
    private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(5);
    private static final int BUFFER = 4096;

    private final InetAddress address = addressUnderTest();
    private CmEventChannel serverChannel;
    private CmEventChannel clientChannel;
    private CmId listener;
    private int port;

    private static InetAddress addressUnderTest() {
        try {
            return InetAddress.getByName(System.getProperty("verbs4j.cm.address", "10.9.0.1"));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs this class with the JUnit launcher and prints what happened; exit status 1 on a failure. */
    public static void main(String[] args) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(CmRxeLoopbackTest.class)).build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary);
        summary.getSummary().printTo(new java.io.PrintWriter(System.out, true));
        summary.getSummary().printFailuresTo(new java.io.PrintWriter(System.out, true), 30);
        System.exit(summary.getSummary().getTotalFailureCount() == 0
                && summary.getSummary().getTestsSucceededCount() > 0 ? 0 : 1);
    }

    @BeforeEach
    void listen() {
        assumeTrue(Files.exists(IbverbsCmEventChannel.CM_DEVICE), "needs the kernel's connection manager (the rxe VM)");
        IbverbsProvider provider = new IbverbsProvider();
        serverChannel = provider.createCmEventChannel();
        clientChannel = provider.createCmEventChannel();
        listener = serverChannel.createId(PortSpace.TCP);
        listener.bindAddress(new InetSocketAddress(address, 0));
        listener.listen(8);
        port = listener.localAddress().getPort();
        assertTrue(port > 0, "bound to port " + port);
    }

    @AfterEach
    void close() {
        if (listener != null) {
            listener.close();
        }
        if (serverChannel != null) {
            serverChannel.close();
        }
        if (clientChannel != null) {
            clientChannel.close();
        }
    }

    /** A side's verbs objects on the id's device. */
    private static final class Side implements AutoCloseable {
        final Arena arena = Arena.ofShared();
        final DeviceContext context;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final MemorySegment buffer;
        final MemoryRegion region;
        QueuePair qp;

        Side(CmId id) {
            context = id.device().open();
            pd = context.allocatePd();
            cq = context.createCq(16);
            buffer = arena.allocate(2 * BUFFER, 64);
            region = pd.registerMemory(buffer, EnumSet.of(Access.LOCAL_WRITE));
        }

        QueuePair createQp(CmId id) {
            qp = id.createQp(pd, new QpInitAttributes(QpType.RC, cq));
            assertEquals(QpState.INIT, qp.state());
            assertSame(qp, id.qp());
            qp.postRecv(new ReceiveWorkRequest().wrId(1).buffer(region, BUFFER, BUFFER));
            return qp;
        }

        void send(String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, 0, bytes.length);
            qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(region, 0, bytes.length).send());
        }

        /** Waits for the send and the receive; returns the text received. */
        String completeExchange() {
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
            String received = null;
            boolean sent = false;
            long deadline = System.nanoTime() + EVENT_TIMEOUT.toNanos();
            while ((received == null || !sent) && System.nanoTime() < deadline) {
                int n = cq.poll(wcs);
                for (int i = 0; i < n; i++) {
                    assertTrue(wcs[i].isSuccess(), wcs[i].toString());
                    if (wcs[i].opcode() == WcOpcode.RECV) {
                        byte[] bytes = new byte[wcs[i].byteLength()];
                        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, BUFFER, bytes, 0, bytes.length);
                        received = new String(bytes, StandardCharsets.UTF_8);
                    } else {
                        sent = true;
                    }
                }
                Thread.onSpinWait();
            }
            assertTrue(sent, "no send completion");
            assertNotNull(received, "no receive completion");
            return received;
        }

        @Override
        public void close() {
            if (qp != null) {
                qp.close();
            }
            region.close();
            cq.close();
            pd.close();
            context.close();
            arena.close();
        }
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertStartsWith(byte[] expected, byte[] actual) {
        assertTrue(actual.length >= expected.length, "private data of " + actual.length + " bytes");
        assertArrayEquals(expected, Arrays.copyOf(actual, expected.length));
    }

    /** A client id resolved toward the listener (or another port). */
    private CmId resolvedClient(int toPort) {
        return resolve(clientChannel.createId(PortSpace.TCP), new InetSocketAddress(address, toPort));
    }

    @Test
    void clientAndServerConnectSendBothWaysAndDisconnect() {
        CmId client = resolvedClient(port);
        assertNotNull(client.device());
        System.out.println("resolved to " + client.device().name() + " port " + client.port());
        assertEquals(1, client.port());
        try (Side clientSide = new Side(client)) {
            QueuePair clientQp = clientSide.createQp(client);
            byte[] request = text("request from the client");
            client.connect(new ConnectionParameters().privateData(request));

            CmEvent connectRequest = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT);
            System.out.println("CONNECT_REQUEST: " + connectRequest + " " + connectRequest.parameters()
                    + " private data length " + connectRequest.privateData().length);
            assertSame(listener, connectRequest.listenId());
            CmId server = connectRequest.id();
            assertTrue(server != listener);
            assertEquals(0, connectRequest.status());
            assertStartsWith(request, connectRequest.privateData());
            assertEquals(clientQp.qpn(), connectRequest.parameters().qpNumber());
            assertEquals(client.localAddress(), server.peerAddress());
            assertEquals(server.localAddress(), client.peerAddress());
            assertEquals(new InetSocketAddress(address, port), server.localAddress());
            try (Side serverSide = new Side(server)) {
                QueuePair serverQp = serverSide.createQp(server);
                byte[] reply = text("reply from the server");
                server.accept(new ConnectionParameters().privateData(reply));
                assertEquals(QpState.RTS, serverQp.state());

                CmEvent established = clientChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                System.out.println("client ESTABLISHED: " + established + " " + established.parameters()
                        + " private data length " + established.privateData().length);
                assertSame(client, established.id());
                assertStartsWith(reply, established.privateData());
                assertEquals(serverQp.qpn(), established.parameters().qpNumber());
                assertEquals(QpState.RTS, clientQp.state());
                CmEvent serverEstablished = serverChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                assertSame(server, serverEstablished.id());
                System.out.println("server ESTABLISHED: " + serverEstablished + " private data length "
                        + serverEstablished.privateData().length);

                clientSide.send("send from the client");
                serverSide.send("send from the server");
                assertEquals("send from the server", clientSide.completeExchange());
                assertEquals("send from the client", serverSide.completeExchange());

                // The DREQ reaches the server at once; the client's own DISCONNECTED waits for the
                // DREP, which the server's kernel sends when the server disconnects in turn.
                client.disconnect();
                assertEquals(QpState.ERR, clientQp.state());
                CmEvent serverDisconnected = serverChannel.expect(CmEventType.DISCONNECTED, EVENT_TIMEOUT);
                assertSame(server, serverDisconnected.id());
                assertEquals(QpState.ERR, serverQp.state());
                assertEquals(Optional.empty(), clientChannel.nextEvent(Duration.ofMillis(500)));
                server.disconnect();
                CmEvent clientDisconnected = clientChannel.expect(CmEventType.DISCONNECTED, EVENT_TIMEOUT);
                assertSame(client, clientDisconnected.id());
                System.out.println("DISCONNECTED: server " + serverDisconnected + ", then client " + clientDisconnected);
                server.close();
            }
        } finally {
            client.close();
        }
        assertEquals(Optional.empty(), serverChannel.nextEvent(Duration.ofMillis(200)));
        assertEquals(Optional.empty(), clientChannel.nextEvent(Duration.ofMillis(200)));
    }

    @Test
    void noListenerOnThePortIsRejectedWithInvalidServiceId() {
        listener.close();
        int closedPort = port;
        listener = null;
        CmId client = resolvedClient(closedPort);
        try (Side side = new Side(client)) {
            QueuePair qp = side.createQp(client);
            client.connect(new ConnectionParameters());
            CmEvent event = clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
            System.out.println("no listener: " + event + " private data length " + event.privateData().length);
            assertEquals(CmEventType.REJECTED, event.type());
            assertEquals(RejectReason.INVALID_SERVICE_ID.value(), event.status());
            assertEquals(QpState.ERR, qp.state());
        } finally {
            client.close();
        }
    }

    @Test
    void aRejectCarriesItsPrivateDataAndReadsAsConsumerDefined() {
        CmId client = resolvedClient(port);
        try (Side side = new Side(client)) {
            side.createQp(client);
            client.connect(new ConnectionParameters());
            CmEvent request = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT);
            byte[] why = text("not today");
            request.id().reject(why);
            CmEvent rejected = clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
            System.out.println("reject: " + rejected + " private data length " + rejected.privateData().length);
            assertEquals(CmEventType.REJECTED, rejected.type());
            assertEquals(RejectReason.CONSUMER_DEFINED, rejected.rejectReason());
            assertStartsWith(why, rejected.privateData());
            request.id().close();
        } finally {
            client.close();
        }
    }

    @Test
    void anActiveIdWithoutQueuePairGetsTheResponseAndEstablishesOnAccept() {
        CmId client = resolvedClient(port);
        try {
            client.connect(new ConnectionParameters().qpNumber(0x123));
            CmEvent request = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT);
            assertEquals(0x123, request.parameters().qpNumber());
            CmId server = request.id();
            server.accept(new ConnectionParameters().qpNumber(0x456));
            CmEvent response = clientChannel.expect(CmEventType.CONNECT_RESPONSE, EVENT_TIMEOUT);
            assertEquals(0x456, response.parameters().qpNumber());
            client.accept(new ConnectionParameters());
            serverChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
            server.disconnect();
            clientChannel.expect(CmEventType.DISCONNECTED, EVENT_TIMEOUT);
            client.disconnect();
            serverChannel.expect(CmEventType.DISCONNECTED, EVENT_TIMEOUT);
            server.close();
        } finally {
            client.close();
        }
    }

    @Test
    void anAddressNobodyAnswersGivesTheKernelsError() {
        byte[] ip = address.getAddress();
        ip[3] = (byte) 99; // same subnet, no host
        CmId client = clientChannel.createId(PortSpace.TCP);
        try {
            InetSocketAddress nobody;
            try {
                nobody = new InetSocketAddress(InetAddress.getByAddress(ip), port);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
            client.resolveAddress(null, nobody, Duration.ofSeconds(2));
            CmEvent event = clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
            System.out.println("address nobody answers (" + nobody + "): " + event);
            if (event.type() == CmEventType.ADDR_RESOLVED) {
                client.resolveRoute(Duration.ofSeconds(2));
                event = clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
                System.out.println("  then: " + event);
            }
            assertTrue(EnumSet.of(CmEventType.ADDR_ERROR, CmEventType.ROUTE_ERROR, CmEventType.UNREACHABLE)
                    .contains(event.type()), event.toString());
            assertTrue(event.status() < 0, event.toString());
        } finally {
            client.close();
        }
    }

    /** UDP port space: SIDR request and reply; the UD queue pairs are in RTS from the start. */
    @Test
    void udpPortSpaceResolvesTheQueuePairAndQkeyWithSidr() {
        CmId udpListener = serverChannel.createId(PortSpace.UDP);
        CmId client = clientChannel.createId(PortSpace.UDP);
        try {
            assertEquals(QpType.UD, udpListener.qpType());
            udpListener.bindAddress(new InetSocketAddress(address, 0));
            udpListener.listen(4);
            resolve(client, udpListener.localAddress());
            try (Side clientSide = new Side(client)) {
                clientSide.qp = client.createQp(clientSide.pd, new QpInitAttributes(QpType.UD, clientSide.cq));
                assertEquals(QpState.RTS, clientSide.qp.state());
                client.connect(new ConnectionParameters().privateData(text("sidr")));
                CmEvent request = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT);
                System.out.println("UDP CONNECT_REQUEST: " + request + " " + request.parameters()
                        + " private data length " + request.privateData().length);
                assertStartsWith(text("sidr"), request.privateData());
                CmId server = request.id();
                try (Side serverSide = new Side(server)) {
                    serverSide.qp = server.createQp(serverSide.pd, new QpInitAttributes(QpType.UD, serverSide.cq));
                    assertEquals(QpState.RTS, serverSide.qp.state());
                    server.accept(new ConnectionParameters().privateData(text("sidr reply")));
                    CmEvent established = clientChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                    System.out.println("UDP ESTABLISHED: " + established + " " + established.parameters()
                            + " private data length " + established.privateData().length);
                    assertEquals(serverSide.qp.qpn(), established.parameters().qpNumber());
                    assertStartsWith(text("sidr reply"), established.privateData());
                    server.close();
                }
            }
        } finally {
            client.close();
            udpListener.close();
        }
    }

    /**
     * Accept with 255 (RDMA_MAX_RESP_RES, RDMA_MAX_INIT_DEPTH) takes the peer's request,
     * bounded by the device; more than the device allows is EINVAL before anything moves.
     * Powers of two, as rxe rounds both depths up to one.
     */
    @Test
    void acceptClampsTheDepthsToTheRequestAndTheDevice() {
        CmId client = resolvedClient(port);
        try (Side clientSide = new Side(client)) {
            QueuePair clientQp = clientSide.createQp(client);
            client.connect(new ConnectionParameters().responderResources(8).initiatorDepth(2));
            CmEvent request = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT);
            System.out.println("request for depths 8/2 reads as " + request.parameters());
            CmId server = request.id();
            try (Side serverSide = new Side(server)) {
                QueuePair serverQp = serverSide.createQp(server);
                int deviceMax = serverSide.context.queryDevice().maxQpRdAtom();
                assertTrue(deviceMax < 255, "device allows " + deviceMax);
                VerbsException tooDeep = assertThrows(VerbsException.class,
                        () -> server.accept(new ConnectionParameters().responderResources(deviceMax + 1)));
                assertEquals(Errno.EINVAL, tooDeep.error());
                assertEquals(QpState.INIT, serverQp.state());
                server.accept(new ConnectionParameters().responderResources(255).initiatorDepth(255));
                dev.verbs4j.QpAttributes attributes = serverQp.query(new dev.verbs4j.QpAttributes());
                System.out.println("server queue pair: max_dest_rd_atomic " + attributes.maxDestRdAtomic()
                        + ", max_rd_atomic " + attributes.maxRdAtomic());
                assertEquals(2, attributes.maxDestRdAtomic());
                assertEquals(8, attributes.maxRdAtomic());
                CmEvent established = clientChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                System.out.println("reply reads as " + established.parameters());
                dev.verbs4j.QpAttributes clientAttributes = clientQp.query(new dev.verbs4j.QpAttributes());
                System.out.println("client queue pair: max_dest_rd_atomic " + clientAttributes.maxDestRdAtomic()
                        + ", max_rd_atomic " + clientAttributes.maxRdAtomic());
                assertEquals(8, clientAttributes.maxDestRdAtomic());
                assertEquals(2, clientAttributes.maxRdAtomic());
                serverChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                server.close();
                clientChannel.expect(CmEventType.DISCONNECTED, EVENT_TIMEOUT);
            }
        } finally {
            client.close();
        }
    }

    /**
     * A queue pair that cannot go to RTR when the reply comes: CONNECT_ERROR with the
     * errno of the failed modify, the queue pair in ERR, as librdmacm reports it.
     */
    @Test
    void aQueuePairThatCannotReachRtrEndsInConnectError() {
        CmId client = resolvedClient(port);
        try (Side clientSide = new Side(client)) {
            QueuePair clientQp = clientSide.createQp(client);
            client.connect(new ConnectionParameters());
            CmId server = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT).id();
            try (Side serverSide = new Side(server)) {
                serverSide.createQp(server);
                clientQp.modify(new dev.verbs4j.QpAttributes().state(QpState.ERR));
                server.accept(new ConnectionParameters());
                CmEvent event = clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
                System.out.println("reply to a queue pair in ERR: " + event);
                assertEquals(CmEventType.CONNECT_ERROR, event.type());
                assertTrue(event.status() < 0, event.toString());
                assertEquals(QpState.ERR, clientQp.state());
                client.close();
                CmEvent serverSees = serverChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
                System.out.println("  the server then sees: " + serverSees);
                server.close();
            }
        } finally {
            client.close();
        }
    }

    /** A queue pair the application closed is forgotten: the reply reads as CONNECT_RESPONSE. */
    @Test
    void aClosedQueuePairIsForgotten() {
        CmId client = resolvedClient(port);
        try (Side clientSide = new Side(client)) {
            QueuePair clientQp = clientSide.createQp(client);
            client.connect(new ConnectionParameters());
            clientQp.close();
            clientSide.qp = null;
            assertEquals(null, client.qp());
            CmId server = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT).id();
            server.accept(new ConnectionParameters().qpNumber(0x77));
            assertEquals(CmEventType.CONNECT_RESPONSE,
                    clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow().type());
            client.reject(null);
            CmEvent serverSees = serverChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
            System.out.println("reject after the reply: the server sees " + serverSees);
            server.close();
        } finally {
            client.close();
        }
    }

    @Test
    void optionsAreSetThroughRdmaSetOption() {
        CmId id = clientChannel.createId(PortSpace.TCP);
        try {
            id.reuseAddress(true);
            id.bindAddress(new InetSocketAddress(address, 0));
            id.typeOfService(32);
            id.ackTimeout(14);
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> id.ackTimeout(32)).error());
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> id.typeOfService(256)).error());
            assertEquals(address, id.localAddress().getAddress());
            assertEquals(null, id.peerAddress());
        } finally {
            id.close();
        }
    }

    @Test
    void closingAConnectedIdDisconnectsThePeer() {
        CmId client = resolvedClient(port);
        try (Side clientSide = new Side(client)) {
            QueuePair clientQp = clientSide.createQp(client);
            client.connect(new ConnectionParameters());
            CmId server = serverChannel.expect(CmEventType.CONNECT_REQUEST, EVENT_TIMEOUT).id();
            try (Side serverSide = new Side(server)) {
                QueuePair wrongType = serverSide.pd.createQp(new QpInitAttributes(QpType.UD, serverSide.cq));
                assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> server.attachQp(wrongType)).error());
                wrongType.close();
                serverSide.qp = serverSide.pd.createQp(new QpInitAttributes(QpType.RC, serverSide.cq));
                assertEquals(QpState.RESET, serverSide.qp.state());
                server.attachQp(serverSide.qp);
                assertEquals(QpState.INIT, serverSide.qp.state());
                assertSame(serverSide.qp, server.qp());
                assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> server.attachQp(serverSide.qp)).error());
                server.accept(new ConnectionParameters());
                clientChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                serverChannel.expect(CmEventType.ESTABLISHED, EVENT_TIMEOUT);
                server.close();
                CmEvent event = clientChannel.expect(CmEventType.DISCONNECTED, EVENT_TIMEOUT);
                System.out.println("peer closed its id: " + event);
                assertEquals(QpState.ERR, clientQp.state());
                assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, server::disconnect).error());
            }
        } finally {
            client.close();
        }
    }

    /**
     * 192.0.2.1 (TEST-NET-1) has no route in the rxe VM, so the kernel's route lookup fails
     * {@code rdma_resolve_addr} at once: {@code ENETUNREACH}, or {@code EHOSTUNREACH} through an
     * unreachable route. Where a route leads somewhere, resolution goes on in the background
     * and {@code RDMA_CM_EVENT_ADDR_ERROR} carries why it stopped (drivers/infiniband/core/addr.c
     * and cma.c's addr_handler): {@code ETIMEDOUT} when the next hop never answers ARP,
     * {@code ENODEV} when the route's interface has no RDMA device, or the lookup's own errno
     * when a retry finds the route gone.
     */
    @Test
    void anAddressWithoutRouteFailsAtOnceOrInAnEvent() throws Exception {
        Set<Errno> atOnce = EnumSet.of(Errno.ENETUNREACH, Errno.EHOSTUNREACH);
        Set<Errno> inEvent = EnumSet.of(Errno.ENETUNREACH, Errno.EHOSTUNREACH, Errno.ETIMEDOUT, Errno.ENODEV);
        InetSocketAddress noRoute = new InetSocketAddress(InetAddress.getByName("192.0.2.1"), port);
        CmId client = clientChannel.createId(PortSpace.TCP);
        try {
            try {
                client.resolveAddress(null, noRoute, Duration.ofSeconds(2));
            } catch (VerbsException e) {
                System.out.println("address without route (" + noRoute + "): rdma_resolve_addr failed with " + e.error());
                assertTrue(atOnce.contains(e.error()), "rdma_resolve_addr failed with errno " + e.errno() + ", not one of " + atOnce);
                return;
            }
            CmEvent event = clientChannel.nextEvent(EVENT_TIMEOUT).orElseThrow();
            System.out.println("address without route (" + noRoute + "): " + event);
            assertEquals(CmEventType.ADDR_ERROR, event.type(), event.toString());
            assertTrue(inEvent.contains(Errno.of(-event.status())), "ADDR_ERROR status " + event.status()
                    + ", not minus one of " + inEvent);
        } finally {
            client.close();
        }
    }

    /** 10.9.0.2 answers ARP (the peer namespace) but runs no RDMA: the request goes unanswered. */
    @Test
    void aHostWithoutRdmaIsUnreachable() throws Exception {
        assumeTrue(System.getProperty("verbs4j.cm.silentPeer") != null, "set verbs4j.cm.silentPeer to a host without RDMA");
        InetSocketAddress silent = new InetSocketAddress(InetAddress.getByName(System.getProperty("verbs4j.cm.silentPeer")), 7471);
        CmId client = clientChannel.createId(PortSpace.TCP);
        try (Side side = new Side(resolve(client, silent))) {
            QueuePair qp = side.createQp(client);
            long start = System.nanoTime();
            client.connect(new ConnectionParameters());
            CmEvent event = clientChannel.nextEvent(Duration.ofMinutes(5)).orElseThrow();
            System.out.println("host without RDMA (" + silent + "): " + event + " after "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
            assertEquals(CmEventType.UNREACHABLE, event.type());
            assertEquals(-Errno.ETIMEDOUT.number(), event.status());
            System.out.println("  queue pair then in " + qp.state());
        } finally {
            client.close();
        }
    }

    private CmId resolve(CmId client, InetSocketAddress destination) {
        client.resolveAddress(null, destination, RESOLVE_TIMEOUT);
        clientChannel.expect(CmEventType.ADDR_RESOLVED, EVENT_TIMEOUT);
        client.resolveRoute(RESOLVE_TIMEOUT);
        clientChannel.expect(CmEventType.ROUTE_RESOLVED, EVENT_TIMEOUT);
        return client;
    }

    @Test
    void badCallsAreVerbsExceptions() {
        CmId unresolved = clientChannel.createId(PortSpace.TCP);
        try {
            try (DeviceContext context = new IbverbsProvider().devices().getFirst().open()) {
                ProtectionDomain pd = context.allocatePd();
                CompletionQueue cq = context.createCq(4);
                VerbsException noDevice = assertThrows(VerbsException.class,
                        () -> unresolved.createQp(pd, new QpInitAttributes(QpType.RC, cq)));
                assertEquals(Errno.EINVAL, noDevice.error());
                cq.close();
                pd.close();
            }
            CmId client = resolvedClient(port);
            try {
                VerbsException tooLong = assertThrows(VerbsException.class,
                        () -> client.connect(new ConnectionParameters().privateData(new byte[57])));
                assertEquals(Errno.EINVAL, tooLong.error());
                VerbsException inUse = assertThrows(VerbsException.class,
                        () -> unresolved.bindAddress(new InetSocketAddress(address, port)));
                assertEquals(Errno.EADDRINUSE, inUse.error());
            } finally {
                client.close();
            }
        } finally {
            unresolved.close();
        }
        VerbsException closed = assertThrows(VerbsException.class, () -> unresolved.listen(1));
        assertEquals(Errno.EINVAL, closed.error());
    }
}

package dev.verbs4j.conformance.cm;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.QpState;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.cm.RejectReason;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.CmSides;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.Arrays;

import static dev.verbs4j.conformance.fixture.CmSides.expect;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Connecting RC queue pairs through the connection manager, as librdmacm applications do. */
@ConformanceSuite
class ConnectionManagerTest {
    private static final byte[] HELLO = {'h', 'e', 'l', 'l', 'o'};
    private static final byte[] WELCOME = {'w', 'e', 'l', 'c', 'o', 'm', 'e'};

    /** Two connected ids: the client's (local side) and the one the listener accepted (remote side). */
    private record Connected(CmSides cm, CmId client, QueuePair clientQp, CmId server, QueuePair serverQp) {
    }

    private static Connected connect(Testbed bed, CmSides cm) {
        CmId client = cm.resolvedClient(cm.listening());
        QueuePair clientQp = cm.createQp(client, bed.local());
        assertEquals(QpState.INIT, clientQp.state(), "rdma_create_qp leaves an RC queue pair in INIT");
        client.connect(new ConnectionParameters().privateData(HELLO).responderResources(1).initiatorDepth(1));

        CmEvent request = expect(cm.serverChannel(), CmEventType.CONNECT_REQUEST);
        assertSame(cm.listener(), request.listenId(), "the request names its listener");
        CmId server = cm.serverChannel().equals(request.id().channel()) ? request.id() : null;
        assertNotNull(server, "the new id reports on the listener's channel");
        assertEquals(ConnectionParameters.MAX_CONNECT_PRIVATE_DATA, request.privateData().length,
                "a request's private data arrives at its full 56 bytes");
        assertArrayEquals(HELLO, Arrays.copyOf(request.privateData(), HELLO.length), "the request's private data");
        assertEquals(clientQp.qpn(), request.parameters().qpNumber(), "the request names the client's queue pair");
        QueuePair serverQp = cm.createQp(server, bed.remote());
        server.accept(new ConnectionParameters().privateData(WELCOME).responderResources(1).initiatorDepth(1));

        CmEvent established = expect(cm.clientChannel(), CmEventType.ESTABLISHED);
        assertSame(client, established.id());
        assertEquals(ConnectionParameters.MAX_ACCEPT_PRIVATE_DATA, established.privateData().length);
        assertArrayEquals(WELCOME, Arrays.copyOf(established.privateData(), WELCOME.length), "the accept's private data");
        assertEquals(serverQp.qpn(), established.parameters().qpNumber(), "the reply names the server's queue pair");
        CmEvent serverUp = expect(cm.serverChannel(), CmEventType.ESTABLISHED);
        assertEquals(0, serverUp.privateData().length, "a listener's ESTABLISHED carries no private data");
        bed.track(server);
        return new Connected(cm, client, clientQp, server, serverQp);
    }

    @Test
    void connectAcceptCarryPrivateDataAndLeaveBothQueuePairsReadyToSend(Testbed bed) {
        Connected c = connect(bed, CmSides.open(bed));
        assertEquals(QpState.RTS, c.clientQp().state(), "the client's queue pair after ESTABLISHED");
        assertEquals(QpState.RTS, c.serverQp().state(), "the server's queue pair after accept");
        assertEquals(c.cm().listening(), c.client().peerAddress(), "the client's peer is the listener's address");
        assertEquals(c.client().localAddress(), c.server().peerAddress(), "the server's peer is the client's address and port");

        Buffer source = bed.buffer(c.clientQp().protectionDomain(), 4096, Access.LOCAL_WRITE);
        Buffer sink = bed.buffer(c.serverQp().protectionDomain(), 4096, Access.LOCAL_WRITE);
        Bytes.fill(source.memory(), 3);
        c.serverQp().postRecv(new ReceiveWorkRequest().wrId(5).buffer(sink.region(), 0, 4096));
        c.clientQp().postSend(new SendWorkRequest().wrId(6).signaled(true).buffer(source.region(), 0, 2000).send());
        Expect.success(WcOpcode.SEND, 6, Completions.next(c.clientQp().sendCq(), "the send"), "send over the connection");
        Expect.success(WcOpcode.RECV, 5, Completions.next(c.serverQp().recvCq(), "the receive"), "receive over the connection");
        Bytes.assertSame(source.slice(0, 2000), sink.slice(0, 2000), "bytes sent over the connection");
    }

    /**
     * The side that disconnects first hears DISCONNECTED when the peer's application answers
     * with its own disconnect (its DREP), as librdmacm applications such as rping do.
     */
    @Test
    void disconnectReachesThePeerAndItsAnswerTheFirstSide(Testbed bed) {
        Connected c = connect(bed, CmSides.open(bed));
        c.client().disconnect();
        expect(c.cm().serverChannel(), CmEventType.DISCONNECTED);
        assertEquals(QpState.ERR, c.serverQp().state(), "the server's queue pair after the peer disconnected");
        c.server().disconnect();
        expect(c.cm().clientChannel(), CmEventType.DISCONNECTED);
        assertEquals(QpState.ERR, c.clientQp().state(), "the client's queue pair after disconnect");
    }

    @Test
    void aPortWithoutListenerRejectsAsAnInvalidServiceId(Testbed bed) {
        CmSides cm = CmSides.open(bed);
        InetSocketAddress closed = new InetSocketAddress(cm.listening().getAddress(), freePort(cm));
        CmId client = cm.resolvedClient(closed);
        cm.createQp(client, bed.local());
        client.connect(new ConnectionParameters());
        CmEvent rejected = expect(cm.clientChannel(), CmEventType.REJECTED);
        assertEquals(RejectReason.INVALID_SERVICE_ID, rejected.rejectReason(), "no listener: " + rejected);
        assertEquals(QpState.ERR, client.qp().state(), "a rejected connection's queue pair");
    }

    @Test
    void aListenerThatRejectsSendsItsReasonAndPrivateData(Testbed bed) {
        CmSides cm = CmSides.open(bed);
        CmId client = cm.resolvedClient(cm.listening());
        cm.createQp(client, bed.local());
        client.connect(new ConnectionParameters());
        CmEvent request = expect(cm.serverChannel(), CmEventType.CONNECT_REQUEST);
        bed.track(request.id());
        request.id().reject(new byte[] {7, 7});
        CmEvent rejected = expect(cm.clientChannel(), CmEventType.REJECTED);
        assertEquals(RejectReason.CONSUMER_DEFINED, rejected.rejectReason());
        assertEquals(ConnectionParameters.MAX_REJECT_PRIVATE_DATA, rejected.privateData().length);
        assertEquals(7, rejected.privateData()[1], "the reject's private data");
    }

    @Test
    void privateDataBeyondTheRequestsRoomIsEinval(Testbed bed) {
        CmSides cm = CmSides.open(bed);
        CmId client = cm.resolvedClient(cm.listening());
        cm.createQp(client, bed.local());
        VerbsException e = assertThrows(VerbsException.class, () -> client.connect(
                new ConnectionParameters().privateData(new byte[ConnectionParameters.MAX_CONNECT_PRIVATE_DATA + 1])));
        assertEquals(Errno.EINVAL, e.error());
    }

    @Test
    void connectBeforeTheRouteIsResolvedIsEinval(Testbed bed) {
        CmSides cm = CmSides.open(bed);
        CmId id = bed.track(cm.clientChannel().createId(PortSpace.TCP));
        VerbsException e = assertThrows(VerbsException.class, () -> id.connect(new ConnectionParameters().qpNumber(5)));
        assertEquals(Errno.EINVAL, e.error());
    }

    @Test
    void bindingAPortAListenerHoldsIsEaddrinuse(Testbed bed) {
        CmSides cm = CmSides.open(bed);
        CmId other = bed.track(cm.serverChannel().createId(PortSpace.TCP));
        VerbsException e = assertThrows(VerbsException.class, () -> other.bindAddress(cm.listening()));
        assertEquals(Errno.EADDRINUSE, e.error());
    }

    /** A port nothing listens on: bound and released by a throwaway id. */
    private static int freePort(CmSides cm) {
        try (CmId probe = cm.serverChannel().createId(PortSpace.TCP)) {
            probe.bindAddress(new InetSocketAddress(cm.listening().getAddress(), 0));
            return probe.localAddress().getPort();
        }
    }
}

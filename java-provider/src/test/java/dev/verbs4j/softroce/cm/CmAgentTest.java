package dev.verbs4j.softroce.cm;

import dev.verbs4j.Mtu;
import dev.verbs4j.QpType;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.cm.RejectReason;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two agents joined by a MAD pipe that the test drives, with its own clock. */
class CmAgentTest {
    private static final CmTimeouts TIMEOUTS = new CmTimeouts(10, 3, 8);
    private static final long SERVICE = PortSpace.TCP.serviceId(7471);

    private final InetAddress addressA = address("10.0.0.1");
    private final InetAddress addressB = address("10.0.0.2");
    private final ArrayDeque<Mad> wire = new ArrayDeque<>();
    private final Recorder activeSide = new Recorder();
    private final Recorder passiveSide = new Recorder();
    private boolean listening = true;
    private int lose;
    private int sentFromA;
    private long now = 1_000_000;

    private record Mad(InetAddress to, byte[] bytes) {
    }

    private final CmAgent a = new CmAgent(sink(true), (sid, dst) -> null, 0xA, addressA, Mtu.MTU_4096, TIMEOUTS, new Random(1));
    private final CmAgent b = new CmAgent(sink(false), (sid, dst) -> listening && sid == SERVICE && dst.equals(addressB)
            ? (c, offer, from, to) -> passiveSide.request(c, offer) : null, 0xB, addressB, Mtu.MTU_1024, TIMEOUTS, new Random(2));

    private MadSink sink(boolean fromA) {
        return (to, mad) -> {
            if (fromA) {
                sentFromA++;
            }
            if (lose > 0) {
                lose--;
                return true;
            }
            wire.add(new Mad(to, mad.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
            return true;
        };
    }

    /** Delivers every MAD in flight (and those the answers send) at the current time. */
    private void deliver() {
        while (!wire.isEmpty()) {
            Mad m = wire.poll();
            MemorySegment seg = Arena.ofAuto().allocate(CmMad.SIZE);
            seg.copyFrom(MemorySegment.ofArray(m.bytes()));
            (m.to().equals(addressA) ? a : b).onMad(seg, m.to().equals(addressA) ? addressB : addressA, now);
        }
    }

    private void advance(long ns) {
        now += ns;
        a.doWork(now);
        b.doWork(now);
        deliver();
    }

    private CmConnection connect(byte[] data) {
        CmConnection c = a.connect(activeSide, SERVICE, new InetSocketAddress(addressA, 40000),
                new InetSocketAddress(addressB, 7471), QpType.RC, 0x11, 0x123456, Mtu.MTU_4096,
                new ConnectionParameters().privateData(data).responderResources(4).initiatorDepth(2), now);
        deliver();
        return c;
    }

    @Test
    void requestReplyReadyConnectsBothSidesWithEachOthersQueuePairs() {
        CmConnection active = connect(new byte[] {1, 2, 3});
        assertEquals(List.of("request"), passiveSide.events);
        CmConnection passive = passiveSide.connection;
        assertEquals(0x11, passive.remoteQpn());
        assertEquals(0x123456, passive.remotePsn());
        assertEquals(Mtu.MTU_1024, passive.pathMtu(), "the passive side keeps to its own port's MTU");
        assertEquals(2, passiveSide.offer.responderResources(), "the event reports the peer's depth as this side's resources");
        assertEquals(4, passiveSide.offer.initiatorDepth());
        assertEquals(ConnectionParameters.MAX_CONNECT_PRIVATE_DATA, passiveSide.offer.privateDataLength());
        assertArrayEquals(new byte[] {1, 2, 3}, java.util.Arrays.copyOf(passiveSide.offer.privateData(), 3));

        b.accept(passive, 0x22, 0x654321, new ConnectionParameters().responderResources(2).initiatorDepth(4)
                .privateData(new byte[] {9}), now);
        deliver();
        assertEquals(List.of("reply"), activeSide.events);
        assertEquals(0x22, active.remoteQpn());
        assertEquals(0x654321, active.remotePsn());
        assertEquals(ConnectionParameters.MAX_ACCEPT_PRIVATE_DATA, activeSide.offer.privateDataLength());
        a.ready(active);
        deliver();
        assertEquals(List.of("request", "established"), passiveSide.events);
        assertEquals("ESTABLISHED", active.stateName());
        assertEquals("ESTABLISHED", passive.stateName());
    }

    @Test
    void noListenerIsRejectedAsAnInvalidServiceId() {
        listening = false;
        connect(null);
        assertEquals(List.of("rejected " + RejectReason.INVALID_SERVICE_ID.value()), activeSide.events);
        assertEquals(0, a.connections());
    }

    @Test
    void aRefusedRequestCarriesTheListenersPrivateData() {
        connect(null);
        b.reject(passiveSide.connection, RejectReason.CONSUMER_DEFINED.value(), new byte[] {42});
        deliver();
        assertEquals(List.of("rejected 28"), activeSide.events);
        assertEquals(42, activeSide.offer.privateData()[0]);
        assertEquals(ConnectionParameters.MAX_REJECT_PRIVATE_DATA, activeSide.offer.privateDataLength());
    }

    @Test
    void aLostRequestIsSentAgainAfterTheAnswerTime() {
        lose = 1;
        connect(null);
        assertTrue(passiveSide.events.isEmpty());
        advance(TIMEOUTS.answerNs(TIMEOUTS.responseTimeout()) - 1);
        assertTrue(passiveSide.events.isEmpty(), "not before its time");
        advance(1);
        assertEquals(List.of("request"), passiveSide.events);
        assertEquals(2, sentFromA);
    }

    @Test
    void aPeerThatNeverAnswersIsUnreachableAfterEveryRetry() {
        lose = Integer.MAX_VALUE;
        connect(null);
        for (int i = 0; i <= TIMEOUTS.maxRetries(); i++) {
            advance(TIMEOUTS.answerNs(TIMEOUTS.responseTimeout()));
        }
        assertEquals(List.of("unreachable"), activeSide.events);
        assertEquals(1 + TIMEOUTS.maxRetries(), sentFromA);
        assertEquals(0, a.connections());
    }

    @Test
    void aLostReplyIsSentAgainAndARetransmittedRequestMakesNoSecondConnection() {
        connect(null);
        lose = 1;
        b.accept(passiveSide.connection, 0x22, 1, new ConnectionParameters(), now);
        advance(TIMEOUTS.answerNs(TIMEOUTS.responseTimeout()));   // A resends its REQ: B must not take it as new
        assertEquals(List.of("request"), passiveSide.events);
        advance(TIMEOUTS.answerNs(20));                          // B resends its REP
        assertEquals(List.of("reply"), activeSide.events);
    }

    @Test
    void disconnectReachesBothSidesThenTimewaitEnds() {
        CmConnection active = connect(null);
        b.accept(passiveSide.connection, 0x22, 1, new ConnectionParameters(), now);
        deliver();
        a.ready(active);
        deliver();
        a.disconnect(active, now);
        deliver();
        assertEquals(List.of("request", "established", "disconnected"), passiveSide.events);
        assertEquals(List.of("reply"), activeSide.events, "the DREP waits for the passive application");
        b.disconnect(passiveSide.connection, now);
        deliver();
        assertEquals(List.of("reply", "disconnected"), activeSide.events);
        advance(TIMEOUTS.timewaitNs());
        assertEquals(List.of("reply", "disconnected", "timewait exit"), activeSide.events);
        assertEquals(List.of("request", "established", "disconnected", "timewait exit"), passiveSide.events);
        assertEquals(0, a.connections());
        assertEquals(0, b.connections());
    }

    @Test
    void anActivePeerThatDiesAfterItsRequestLeavesThePassiveSideUnreachableAndRejected() {
        connect(null);
        lose = Integer.MAX_VALUE; // from here on nothing arrives: the active side is gone
        b.accept(passiveSide.connection, 0x22, 1, new ConnectionParameters(), now);
        for (int i = 0; i <= TIMEOUTS.maxRetries(); i++) {
            advance(TIMEOUTS.answerNs(TIMEOUTS.responseTimeout()));
        }
        assertEquals(List.of("request", "unreachable"), passiveSide.events);
        assertEquals(0, b.connections());
    }

    @Test
    void anMraStopsTheRetriesUntilTheTimeItAsksFor() {
        connect(null);
        int sent = sentFromA;
        MemorySegment mra = Arena.ofAuto().allocate(CmMad.SIZE);
        CmMad.header(mra, CmMad.ATTR_MRA, 1);
        CmMad.u32(mra, CmMad.LOCAL_COMM_ID, passiveSide.connection.localCommId());
        CmMad.u32(mra, CmMad.REMOTE_COMM_ID, passiveSide.connection.remoteCommId);
        CmMad.bits(mra, CmMad.MRA_MESSAGE, 0, 2, CmMad.MESSAGE_REQ);
        CmMad.bits(mra, CmMad.MRA_SERVICE_TIMEOUT, 0, 5, 16);
        a.onMad(mra, addressB, now);
        advance(TIMEOUTS.answerNs(TIMEOUTS.responseTimeout()) * 2);
        assertEquals(sent, sentFromA, "no REQ again while the peer asked for more time");
        assertEquals(List.of(), activeSide.events);
        advance(CmTimeouts.nanos(16));
        assertEquals(sent + 1, sentFromA, "the REQ once more when that time is over");
    }

    @Test
    void malformedAndStrayMadsAreDroppedAndCounted() {
        Random random = new Random(7);
        MemorySegment mad = Arena.ofAuto().allocate(CmMad.SIZE);
        int rounds = 2000;
        for (int i = 0; i < rounds; i++) {
            byte[] junk = new byte[CmMad.SIZE];
            random.nextBytes(junk);
            if (i % 2 == 0) { // a plausible CM header with random fields
                junk[0] = 1;
                junk[1] = 7;
                junk[2] = 2;
                junk[3] = 3;
                junk[16] = 0;
                junk[17] = (byte) (0x10 + random.nextInt(7));
            }
            mad.copyFrom(MemorySegment.ofArray(junk));
            b.onMad(mad, addressA, now);
            wire.clear();
        }
        assertTrue(b.dropped() > 0);
        assertEquals(0, passiveSide.events.stream().filter(e -> !e.equals("request")).count());
    }

    private static final class Recorder implements CmEndpoint {
        final List<String> events = new ArrayList<>();
        CmConnection connection;
        ConnectionParameters offer;

        CmEndpoint request(CmConnection c, ConnectionParameters peer) {
            connection = c;
            offer = peer;
            events.add("request");
            return this;
        }

        @Override
        public void onReply(CmConnection c, ConnectionParameters peer) {
            offer = peer;
            events.add("reply");
        }

        @Override
        public void onEstablished(CmConnection c, ConnectionParameters peer) {
            events.add("established");
        }

        @Override
        public void onRejected(CmConnection c, int reason, ConnectionParameters peer) {
            offer = peer;
            events.add("rejected " + reason);
        }

        @Override
        public void onUnreachable(CmConnection c) {
            events.add("unreachable");
        }

        @Override
        public void onDisconnected(CmConnection c) {
            events.add("disconnected");
        }

        @Override
        public void onTimewaitExit(CmConnection c) {
            events.add("timewait exit");
        }
    }

    private static InetAddress address(String text) {
        return InetAddress.ofLiteral(text);
    }

    static {
        assertNotNull(CmMad.class);
    }
}

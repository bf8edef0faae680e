package dev.verbs4j.softroce;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.softroce.transport.ForwardingLink;
import dev.verbs4j.softroce.transport.Link;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static dev.verbs4j.softroce.engine.Counters.PACKETS_IN;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A step stops receiving after a datagram its link says was the last one waiting
 * ({@link Link#lastWaiting}): the empty receive that would only find that out is spared.
 * A link that cannot tell costs the step that one more receive.
 */
class LastWaitingTest {

    @Test
    void aStepStopsAfterTheDatagramTheLinkSaysWasTheLastWaiting() {
        assertEquals(3, receivesOfAStepThatTakesThreeWrites(3), "three datagrams, no empty receive");
    }

    @Test
    void aLinkThatCannotTellCostsOneEmptyReceive() {
        assertEquals(4, receivesOfAStepThatTakesThreeWrites(-1), "three datagrams and the empty receive");
    }

    /** The receives of B's step that takes A's three WRITEs, on a link that says the {@code lastAt}th datagram was the last waiting. */
    private static int receivesOfAStepThatTakesThreeWrites(int lastAt) {
        CountingLink[] links = new CountingLink[2];
        int[] made = {0};
        SimulatedPair sim = new SimulatedPair(3, l -> links[made[0]++] = new CountingLink(l));
        try (RcPair pair = sim.connect(4096, 8, 14)) {
            CountingLink linkB = links[1];
            for (int i = 0; i < 3; i++) {
                pair.a.buf.set(ValueLayout.JAVA_LONG, 8L * i, 100 + i);
                pair.a.qp.postSend(new SendWorkRequest().wrId(i).buffer(pair.a.mr, 8L * i, 8).signaled(false)
                        .rdmaWrite(pair.b.mr.address() + 8L * i, pair.b.mr.rkey()));
            }
            sim.deviceA.engine().doWork(sim.nowNs);
            long packetsIn = sim.deviceB.engine().counters().get(PACKETS_IN);
            linkB.receives = 0;
            linkB.datagrams = 0;
            linkB.lastAt = lastAt;
            sim.deviceB.engine().doWork(sim.nowNs);
            assertEquals(packetsIn + 3, sim.deviceB.engine().counters().get(PACKETS_IN), "the step took all three");
            for (int i = 0; i < 3; i++) {
                assertEquals(100 + i, pair.b.buf.get(ValueLayout.JAVA_LONG, 8L * i), "WRITE " + i + " placed");
            }
            return linkB.receives;
        }
    }

    /** Counts receives, and says the {@code lastAt}th datagram since the count began was the last waiting. */
    private static final class CountingLink extends ForwardingLink {
        int receives;
        int datagrams;
        int lastAt = -1;

        CountingLink(Link inner) {
            super(inner);
        }

        @Override
        public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
            return inner.send(buffer, length, destination);
        }

        @Override
        public int receive(ByteBuffer buffer) {
            return counted(inner.receive(buffer));
        }

        @Override
        public int receiveInPlace(ByteBuffer buffer) {
            return counted(inner.receiveInPlace(buffer));
        }

        private int counted(int length) {
            receives++;
            if (length >= 0) {
                datagrams++;
            }
            return length;
        }

        @Override
        public boolean lastWaiting() {
            return datagrams == lastAt;
        }
    }
}

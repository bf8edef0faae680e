package dev.verbs4j.softroce;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.transport.ForwardingLink;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many queue pairs streaming at once keep no more packets unacknowledged, together, than a
 * receiving socket like the device's holds (three quarters of it): a peer's socket that
 * overflowed would drop the ends of their bursts, which only the ACK timeout finds. The
 * streams still all finish: the packet that fills the flight asks for an acknowledgement,
 * even in the middle of a message.
 */
class DeviceFlightTest {
    /** A buffer that holds 300 full packets of MTU 4096: a limit of 225. */
    private static final int BUFFER = 300 * 8448;
    private static final int PAIRS = 4;
    private static final int MESSAGES = 8;
    private static final int MESSAGE = 64 * 1024;

    @Test
    void manyStreamsKeepTheDeviceFlightWithinTheReceiveBuffer() {
        SimulatedPair sim = new SimulatedPair(3, link -> new ForwardingLink(link) {
            @Override
            public int receiveBufferBytes() {
                return BUFFER;
            }

            @Override
            public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
                return inner.send(buffer, length, destination);
            }
        });
        List<RcPair> pairs = new ArrayList<>();
        try {
            for (int i = 0; i < PAIRS; i++) {
                pairs.add(sim.connect(MESSAGES * (long) MESSAGE, MESSAGES, 14));
            }
            DeviceEngine engine = sim.deviceA.engine();
            assertEquals(225, engine.inFlightLimit());
            SendWorkRequest wr = new SendWorkRequest();
            for (RcPair p : pairs) {
                for (int m = 0; m < MESSAGES; m++) {
                    p.a.qp.postSend(wr.wrId(m).signaled(true).buffer(p.a.mr, (long) m * MESSAGE, MESSAGE)
                            .rdmaWrite(p.b.mr.address() + (long) m * MESSAGE, p.b.mr.rkey()));
                }
            }
            int[] completed = new int[1];
            int[] most = new int[1];
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
            boolean done = sim.runUntil(() -> {
                most[0] = Math.max(most[0], engine.packetsInFlight());
                for (RcPair p : pairs) {
                    int n = p.a.cq.poll(wcs, wcs.length);
                    for (int i = 0; i < n; i++) {
                        assertTrue(wcs[i].isSuccess(), wcs[i].toString());
                    }
                    completed[0] += n;
                }
                return completed[0] == PAIRS * MESSAGES;
            }, 200_000);
            assertTrue(done, "every WRITE completes; " + completed[0] + " did");
            assertTrue(most[0] <= engine.inFlightLimit(), "at most the limit in flight: " + most[0]);
            assertTrue(most[0] > engine.inFlightLimit() - 16, "the streams reached the limit: " + most[0]);
            assertEquals(0, engine.counters().get(dev.verbs4j.softroce.engine.Counters.TIMEOUTS), "no stream waited for a timeout");
        } finally {
            pairs.forEach(RcPair::close);
        }
    }
}

package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.QpEngine;
import dev.verbs4j.softroce.transport.InMemoryNetwork;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;

import static dev.verbs4j.softroce.engine.Counters.PACKETS_OUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With an engine thread, an application thread that polls an empty completion queue does a
 * step of the engine itself and says so, and the engine thread steps back; arming the queue
 * for an event (the application is about to block) hands the work back at once. Devices
 * driven by their caller (a test's fake clock) are never stepped by polls.
 */
class PollingHelpsTest {
    private static final long INSIDE_WINDOW = DeviceEngine.HELP_WINDOW_NS / 2;
    private static final long OUTSIDE_WINDOW = DeviceEngine.HELP_WINDOW_NS * 2;
    private final WorkCompletion[] wc = {new WorkCompletion()};

    @Test
    void emptyPollsHelpAndArmingHandsTheWorkBack() {
        SoftDevice device = loopbackDevice("helper", 27994);
        try (DeviceContext ctx = device.open();
             CompletionChannel channel = ctx.createCompletionChannel();
             CompletionQueue cq = ctx.createCq(8, channel, 0)) {
            assertTrue(device.hasEngineThread(), "a provider device has its engine thread");
            assertEquals(0, device.engine().helpedAtNs(), "no poll yet");

            long before = System.nanoTime();
            assertEquals(0, cq.poll(wc, 1));
            long helped = device.engine().helpedAtNs();
            assertTrue(helped >= before && helped <= System.nanoTime(), "the empty poll helped at " + helped);

            cq.requestNotify(false);
            assertEquals(0, device.engine().helpedAtNs(), "arming for an event ends the help");
        }
        assertTrue(!device.hasEngineThread(), "closed with its last context");
    }

    /**
     * A poll that finds a completion waiting still says that the application polls (and,
     * the last help being old, helps): a sender that reaps as fast as its completions come
     * keeps the engine thread stepped back, instead of the two sharing the cores.
     */
    @Test
    void aPollThatFindsACompletionKeepsTheEngineThreadSteppedBack() {
        SoftDevice device = loopbackDevice("still-polling", 27995);
        try (DeviceContext ctx = device.open();
             CompletionChannel channel = ctx.createCompletionChannel();
             CompletionQueue cq = ctx.createCq(8, channel, 0);
             ProtectionDomain pd = ctx.allocatePd();
             MemoryRegion mr = pd.registerMemory(Arena.ofAuto().allocate(64), Set.of(Access.LOCAL_WRITE));
             QueuePair qp = pd.createQp(new QpInitAttributes(QpType.RC, cq))) {
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).access(Set.of()));
            qp.postRecv(new ReceiveWorkRequest().wrId(7).buffer(mr, 0, 64));
            cq.requestNotify(false);
            qp.modify(new QpAttributes().state(QpState.ERR));
            assertTrue(channel.awaitEvent(Duration.ofSeconds(10)).isPresent(), "the flushed receive's event");
            assertEquals(0, device.engine().helpedAtNs(), "armed, then woken by the event: nobody polls yet");

            long before = System.nanoTime();
            assertEquals(1, cq.poll(wc, 1), "the flushed receive was waiting");
            assertEquals(WcStatus.WR_FLUSH_ERR, wc[0].status());
            long polled = device.engine().helpedAtNs();
            assertTrue(polled >= before && polled <= System.nanoTime(), "the poll that found it counts as polling: " + polled);
        }
    }

    /**
     * A send posted while a poll helps the device leaves at once, from the posting thread:
     * the helping thread may now be polling another device (one thread playing both ends of
     * a ping-pong), and the engine thread only ticks while it is helped.
     */
    @Test
    void aPostWhileHelpedIsSentByThePostingThread() {
        SimulatedPair sim = new SimulatedPair(1);
        try (RcPair pair = sim.connect(4096, 8, 14)) {
            DeviceEngine engine = sim.deviceA.engine();
            long sent = engine.counters().get(PACKETS_OUT);
            long helpedAt = sim.nowNs;
            engine.help(helpedAt);
            QpEngine qp = ((SoftQp) pair.a.qp).engine;

            pair.a.qp.postSend(new SendWorkRequest().wrId(1).buffer(pair.a.mr, 0, 8).rdmaWrite(pair.b.mr.address(), pair.b.mr.rkey()));
            assertEquals(sent + 1, engine.counters().get(PACKETS_OUT),
                    "a manual device's post runs on its driver's clock (the help's step): inside the window, sent at once");

            engine.stopHelping();
            pair.a.qp.postSend(new SendWorkRequest().wrId(2).buffer(pair.a.mr, 0, 8).rdmaWrite(pair.b.mr.address(), pair.b.mr.rkey()));
            assertEquals(sent + 1, engine.counters().get(PACKETS_OUT),
                    "with no helper the post leaves the work to the engine thread");
            engine.polledBy(Thread.currentThread(), helpedAt);
            engine.posted(qp, helpedAt + OUTSIDE_WINDOW);
            assertEquals(sent + 1, engine.counters().get(PACKETS_OUT),
                    "after the window the engine thread has taken over: the post does not step");
            engine.posted(qp, helpedAt + INSIDE_WINDOW);
            assertEquals(sent + 2, engine.counters().get(PACKETS_OUT),
                    "inside the help window the posting thread sends it");
        }
    }

    @Test
    void callerDrivenDevicesAreNotSteppedByPolls() {
        InMemoryNetwork network = new InMemoryNetwork(1);
        InetAddress ip = InetAddress.ofLiteral("10.78.0.1");
        SoftDeviceConfig config = SoftDeviceConfig.of("manual-helper", ip);
        SoftDevice device = SoftDevice.manual(config, network.attach(new InetSocketAddress(ip, config.port())));
        try (DeviceContext ctx = device.open(); CompletionQueue cq = ctx.createCq(8)) {
            assertEquals(0, cq.poll(wc, 1));
            assertTrue(!device.hasEngineThread());
            assertEquals(0, device.engine().helpedAtNs(), "a poll must not step an engine that runs on a fake clock");
        }
    }

    /** A provider device (with its engine thread) on 127.0.0.1 and {@code port}. */
    private static SoftDevice loopbackDevice(String name, int port) {
        return SoftProvider.addDevice(SoftDeviceConfig.of(name, InetAddress.ofLiteral("127.0.0.1")).withPorts(port, port));
    }
}

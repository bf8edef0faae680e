package dev.verbs4j.softroce.engine;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engines that have a thread of their own ({@link DeviceAgent}), so that a poll of any
 * of them also sends the acknowledgements the others hold back ({@link DeviceEngine#deferAck}).
 * <p>
 * A responder holds an acknowledgement back until the device's next step, so that the
 * application's answer to the request leaves first. While an application thread polls, that
 * thread is what steps the device, and it may now poll another device instead (one thread
 * playing both ends of a ping-pong, or an application that got its completion and moved
 * on); the device's own thread only ticks then. So every poll that helps a device first
 * sends what the others hold, when any do. That costs one read of a counter per poll when
 * none do, and no allocation.
 */
final class HeldAckSweep {
    private static final EngineList ENGINES = new EngineList();
    /** How many of the registered engines hold an acknowledgement back now. */
    private static final AtomicInteger HOLDING = new AtomicInteger();

    private HeldAckSweep() {
    }

    static void add(DeviceEngine engine) {
        ENGINES.add(engine);
    }

    static void remove(DeviceEngine engine) {
        ENGINES.remove(engine);
    }

    /** A registered engine began holding an acknowledgement back. */
    static void holding() {
        HOLDING.incrementAndGet();
    }

    /** A registered engine sent (or dropped) the last one it held. */
    static void released() {
        HOLDING.decrementAndGet();
    }

    /**
     * Whether {@code thread} helps a registered engine other than {@code engine} now: it was
     * the last to help it, within {@link DeviceEngine#HELP_WINDOW_NS} of {@code nowNs}.
     */
    static boolean helpsAnother(DeviceEngine engine, Thread thread, long nowNs) {
        for (DeviceEngine e : ENGINES.all()) {
            if (e != engine && e.helpedBy(thread, nowNs)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sends what the registered engines other than {@code polled} hold back, where that is
     * left to {@code thread} ({@link DeviceEngine#heldAcksLeftTo}: the thread polled them last,
     * or nobody polls them now), skipping any another thread is inside. An engine another
     * thread polls now is left to that thread, which sends its acknowledgements behind its
     * answers. Returns how many it sent.
     */
    static int sweep(DeviceEngine polled, Thread thread, long nowNs) {
        if (HOLDING.get() == 0) {
            return 0;
        }
        int sent = 0;
        DeviceEngine[] all = ENGINES.all();
        for (DeviceEngine e : all) {
            if (e != polled && e.heldAcksLeftTo(thread, nowNs)) {
                sent += e.trySendHeldAcks();
            }
        }
        return sent;
    }
}

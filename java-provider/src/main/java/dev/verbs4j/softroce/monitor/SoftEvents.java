package dev.verbs4j.softroce.monitor;

import jdk.jfr.EventType;

/**
 * The soft engine's rare events as JFR events, so JDK Mission Control and
 * {@code jcmd <pid> JFR.start} show them: {@value #PREFIX}{@code RetryExhausted},
 * {@code QueuePairError}, {@code EngineFault} and {@code EngineStall} (all enabled in the JDK's
 * default and profile settings unless turned off). Each method first asks whether its event
 * type is enabled (a field read) and builds nothing when it is not, so a process that
 * records nothing allocates nothing here.
 */
public final class SoftEvents {
    /** The name prefix of every soft-engine event. */
    public static final String PREFIX = "dev.verbs4j.soft.";
    /** The gap between two engine steps above which an {@code EngineStall} event is recorded. */
    public static final long STALL_THRESHOLD_NS = 50_000_000L;

    private static final EventType RETRY_EXHAUSTED = EventType.getEventType(RetryExhaustedEvent.class);
    private static final EventType QUEUE_PAIR_ERROR = EventType.getEventType(QueuePairErrorEvent.class);
    private static final EventType ENGINE_FAULT = EventType.getEventType(EngineFaultEvent.class);
    private static final EventType ENGINE_STALL = EventType.getEventType(EngineStallEvent.class);

    private SoftEvents() {
    }

    /** A queue pair's oldest request failed with {@code status} (its retries ran out). */
    public static void retryExhausted(String device, int qpn, Enum<?> status, int expectedPsn) {
        if (!RETRY_EXHAUSTED.isEnabled()) {
            return;
        }
        RetryExhaustedEvent e = new RetryExhaustedEvent();
        e.device = device;
        e.qpn = qpn;
        e.status = status.name();
        e.expectedPsn = expectedPsn;
        e.commit();
    }

    /** A queue pair entered the error state for {@code cause}. */
    public static void queuePairError(String device, int qpn, String cause) {
        if (!QUEUE_PAIR_ERROR.isEnabled()) {
            return;
        }
        QueuePairErrorEvent e = new QueuePairErrorEvent();
        e.device = device;
        e.qpn = qpn;
        e.cause = cause;
        e.commit();
    }

    /** The engine caught {@code fault}. */
    public static void engineFault(String device, Throwable fault) {
        if (!ENGINE_FAULT.isEnabled()) {
            return;
        }
        EngineFaultEvent e = new EngineFaultEvent();
        e.device = device;
        e.exception = fault.getClass().getName();
        e.message = fault.getMessage();
        e.commit();
    }

    /**
     * Records an {@code EngineStall} when {@code gapNs}, the time between two engine steps,
     * passes {@link #STALL_THRESHOLD_NS}.
     *
     * @return whether the gap was a stall
     */
    public static boolean engineStep(String device, long gapNs) {
        if (gapNs <= STALL_THRESHOLD_NS) {
            return false;
        }
        if (ENGINE_STALL.isEnabled()) {
            EngineStallEvent e = new EngineStallEvent();
            e.device = device;
            e.gapNs = gapNs;
            e.commit();
        }
        return true;
    }
}

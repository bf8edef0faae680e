package dev.verbs4j.softroce.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters of a device or queue pair: packets in and out, retransmissions, NAKs and drops
 * by reason. Written by the engine thread, readable from any thread.
 */
public final class Counters {
    public static final int PACKETS_IN = 0;
    public static final int PACKETS_OUT = 1;
    public static final int BYTES_IN = 2;
    public static final int BYTES_OUT = 3;
    public static final int RETRANSMITS = 4;
    public static final int TIMEOUTS = 5;
    public static final int NAKS_SENT = 6;
    public static final int NAKS_RECEIVED = 7;
    public static final int RNR_NAKS_SENT = 8;
    public static final int RNR_NAKS_RECEIVED = 9;
    public static final int DUPLICATES = 10;
    public static final int OUT_OF_SEQUENCE = 11;
    public static final int DROP_ICRC = 12;
    public static final int DROP_MALFORMED = 13;
    public static final int DROP_UNKNOWN_QP = 14;
    public static final int DROP_OPCODE_SEQUENCE = 15;
    public static final int DROP_LENGTH = 16;
    public static final int DROP_PKEY = 17;
    public static final int DROP_QKEY = 18;
    public static final int DROP_ADDRESS = 19;
    public static final int DROP_QP_STATE = 20;
    public static final int DROP_SEND_FAILED = 21;
    public static final int DROP_GHOST_RESPONSE = 22;
    public static final int ICRC_IPV4_ID_RECOVERED = 23;
    public static final int ENGINE_FAULTS = 24;
    public static final int ICRC_RXE_FLUSH_VARIANT = 25;
    public static final int DROP_ACCESS = 26;
    /** Datagrams to QP1 that are not a well-formed management datagram, or that no agent takes. */
    public static final int DROP_MAD = 27;
    public static final int MADS_IN = 28;
    public static final int MADS_OUT = 29;
    /** NAKs sent, by code ({@link #nakCode}): five counters from here, PSN sequence error first. */
    public static final int NAKS_SENT_BY_CODE = 30;
    /** NAKs received, by code ({@link #nakCode}): five counters from here. */
    public static final int NAKS_RECEIVED_BY_CODE = 35;
    /** Runs of two or more packets the link handed the kernel as one segmented send ({@code UDP_SEGMENT}). */
    public static final int SEGMENTED_RUNS = 40;

    private static final String[] NAMES = {
        "packets_in", "packets_out", "bytes_in", "bytes_out", "retransmits", "timeouts", "naks_sent",
        "naks_received", "rnr_naks_sent", "rnr_naks_received", "duplicates", "out_of_sequence", "drop_icrc",
        "drop_malformed", "drop_unknown_qp", "drop_opcode_sequence", "drop_length", "drop_pkey", "drop_qkey",
        "drop_address", "drop_qp_state", "drop_send_failed", "drop_ghost_response", "icrc_ipv4_id_recovered",
        "engine_faults", "icrc_rxe_flush_variant", "drop_access", "drop_mad", "mads_in", "mads_out",
        "naks_sent_psn_sequence_error", "naks_sent_invalid_request", "naks_sent_remote_access_error",
        "naks_sent_remote_operational_error", "naks_sent_invalid_rd_request",
        "naks_received_psn_sequence_error", "naks_received_invalid_request", "naks_received_remote_access_error",
        "naks_received_remote_operational_error", "naks_received_invalid_rd_request", "segmented_runs"
    };

    private final AtomicLongArray values = new AtomicLongArray(NAMES.length);

    public void increment(int counter) {
        values.lazySet(counter, values.get(counter) + 1);
    }

    public void add(int counter, long delta) {
        values.lazySet(counter, values.get(counter) + delta);
    }

    /**
     * The offset from {@link #NAKS_SENT_BY_CODE} or {@link #NAKS_RECEIVED_BY_CODE} for a NAK's
     * AETH syndrome: its code (0 PSN sequence error .. 4 invalid RD request); the reserved
     * codes count as 4, as a requester completes them (IBV_WC_REM_INV_RD_REQ_ERR).
     */
    public static int nakCode(int syndrome) {
        return Math.min(syndrome & 0x1F, 4);
    }

    /** How many counters there are; {@link #name} gives each one's name. */
    public static int count() {
        return NAMES.length;
    }

    /** The name of a counter, as {@link #snapshot} and the MBeans show it. */
    public static String name(int counter) {
        return NAMES[counter];
    }

    public long get(int counter) {
        return values.get(counter);
    }

    /** Sum of all drop counters. */
    public long drops() {
        long sum = 0;
        for (int i = DROP_ICRC; i <= DROP_GHOST_RESPONSE; i++) {
            sum += values.get(i);
        }
        return sum + values.get(DROP_ACCESS) + values.get(DROP_MAD);
    }

    /** Name → value, in a stable order (allocates; for reports). */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < NAMES.length; i++) {
            m.put(NAMES[i], values.get(i));
        }
        return m;
    }
}

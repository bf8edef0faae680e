package dev.verbs4j.softroce.cm;

/** Where one connection stands in the IB CM state machine (IBTA 12.9.6). */
enum CmState {
    IDLE,
    /** Active: REQ sent, waiting for REP (retransmitting REQ). */
    REQ_SENT,
    /** Active: the peer sent MRA for our REQ; waiting longer, without retransmitting. */
    MRA_REQ_RCVD,
    /** Active: REP arrived; the application (or the id) is bringing the QP up before RTU. */
    REP_RCVD,
    /** Passive: REQ arrived and was handed to the listener; waiting for accept or reject. */
    REQ_RCVD,
    /** Passive: REP sent, waiting for RTU (retransmitting REP). */
    REP_SENT,
    /** Passive: the peer sent MRA for our REP. */
    MRA_REP_RCVD,
    ESTABLISHED,
    /** DREQ sent, waiting for DREP. */
    DREQ_SENT,
    /** The peer sent DREQ; the DREP goes when this side's application disconnects too (IBTA 12.9.6.4). */
    DREQ_RCVD,
    /** Disconnected; old packets may still be in flight, so the QP is not reused yet. */
    TIMEWAIT
}

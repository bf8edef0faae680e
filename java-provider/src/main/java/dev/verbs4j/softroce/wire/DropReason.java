package dev.verbs4j.softroce.wire;

/**
 * Why a received packet was dropped. Malformed packets are counted and dropped silently, never
 * thrown and never NAKed, as the Linux rxe does in {@code rxe_rcv()}: the sender's retry
 * timer recovers. The ordinal is stable within a release and can index a counter array.
 *
 * <p>{@link PacketView} reports the first group; the engine reports the second after looking
 * up the queue pair, mirroring rxe's {@code hdr_check()}.
 */
public enum DropReason {
    /** Shorter than BTH plus ICRC, or than the opcode's headers plus ICRC. */
    TOO_SHORT,
    /** Opcode the engine does not speak (RD, XRC, CNP, reserved). */
    UNKNOWN_OPCODE,
    /** BTH transport version other than 0. */
    BAD_TVER,
    /** Pad count larger than the bytes after the headers, or payload plus pad not a multiple of 4. */
    BAD_PAD,
    /** An opcode without payload (ACK, READ REQUEST, atomics, FLUSH) followed by extra bytes. */
    BAD_LENGTH,
    /** ICRC mismatch (for IPv4, no Identification explains it either). */
    ICRC,

    /** Destination QP 0, or no queue pair with that number. */
    UNKNOWN_QP,
    /** Opcode transport (RC/UC/UD) differs from the queue pair's type. */
    WRONG_TRANSPORT,
    /** Queue pair not in a state that accepts this packet. */
    QP_STATE,
    /** P_Key does not match the queue pair's partition. */
    BAD_PKEY,
    /** UD Q_Key does not match the queue pair's Q_Key. */
    BAD_QKEY,
    /** Source or destination address differs from the connected queue pair's path (rxe {@code check_addr()}). */
    ADDRESS_MISMATCH
}

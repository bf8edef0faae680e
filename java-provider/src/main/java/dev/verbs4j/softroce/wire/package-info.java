/**
 * The RoCEv2 wire format, compatible with the Linux rxe driver: the opcode table
 * ({@link dev.verbs4j.softroce.wire.OpcodeTable}), big-endian header flyweights
 * ({@link dev.verbs4j.softroce.wire.Bth} and the extension headers), 24-bit PSN arithmetic
 * ({@link dev.verbs4j.softroce.wire.Psn}), the invariant CRC ({@link dev.verbs4j.softroce.wire.Icrc})
 * and the receive-side validation and send-side layout of whole packets
 * ({@link dev.verbs4j.softroce.wire.PacketView}, {@link dev.verbs4j.softroce.wire.PacketBuilder}).
 *
 * <p>Packets are the UDP payload of a RoCEv2 datagram, BTH first, held in
 * {@link java.lang.foreign.MemorySegment}s that the engine owns and reuses. Nothing here
 * allocates per packet: flyweights are re-wrapped, and the IP/UDP headers that the ICRC covers
 * are synthesized from a pre-encoded {@link dev.verbs4j.softroce.wire.UdpFlow}. Classes with
 * state are single-threaded; the tables are immutable (or, for the ICRC ID recovery, filled
 * idempotently) and shared.
 */
package dev.verbs4j.softroce.wire;

package dev.verbs4j.softroce.transport;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Where a soft device's packets go and come from: a UDP socket ({@link UdpLink}) or an
 * in-memory network for tests ({@link InMemoryNetwork}). Used by the engine thread only,
 * except {@link #wakeup()}.
 */
public interface Link extends AutoCloseable {
    /** The address packets to this device are sent to. */
    InetSocketAddress localAddress();

    /**
     * Sends {@code buffer[0, length)} to {@code destination}.
     *
     * @return false when the packet could not be handed to the network (counted by the caller)
     */
    boolean send(ByteBuffer buffer, int length, InetSocketAddress destination);

    /**
     * How many bytes of datagrams the socket may queue before it drops what comes (its
     * {@code SO_RCVBUF} as the kernel reports it, which counts each datagram with its buffer's
     * overhead); 0 when unknown or unbounded.
     */
    default int receiveBufferBytes() {
        return 0;
    }

    /**
     * The UDP source port packets of a flow will really leave from when {@code wanted} is
     * asked for: {@code wanted} when the link can send from it, else its own port. The ICRC
     * covers the source port, so a sender computes it with the port this returns.
     */
    default int sourcePort(int wanted) {
        return localAddress().getPort();
    }

    /**
     * The sender of a flow from address {@code from} and UDP port {@code wanted}, for a link
     * that owns several addresses ({@link NetdevLink}): a value whose low 16 bits are the port
     * the packets really leave from (as {@link #sourcePort(int)} returns it) and whose higher
     * bits say, to this link's sends, which address they leave from. By default the link's one
     * address, and the bits above the port are 0.
     */
    default int sourcePort(InetAddress from, int wanted) {
        return sourcePort(wanted);
    }

    /**
     * The address packets to {@code destination} leave from when their sender names no address
     * (a value of {@link #sourcePort(InetAddress, int)} with nothing above the port): by
     * default the link's one address.
     */
    default InetAddress sourceFor(InetSocketAddress destination) {
        return localAddress().getAddress();
    }

    /** The local address the datagram the last receive returned was sent to: by default the link's one address. */
    default InetAddress receivedAt() {
        return localAddress().getAddress();
    }

    /** Sends from {@code sourcePort} (one {@link #sourcePort} returned); see {@link #send}. */
    default boolean send(ByteBuffer buffer, int length, InetSocketAddress destination, int sourcePort) {
        return send(buffer, length, destination);
    }

    /**
     * Lets the link keep what is sent from now on and hand it to the network together, in
     * fewer system calls, at {@link #flushSends} (each {@link #send} then returns true for a
     * datagram it kept). A link that cannot sends each at once, as it does by default.
     */
    default void holdSends() {
    }

    /**
     * Sends what was kept since {@link #holdSends}, in the order it was sent, and sends at
     * once again.
     *
     * @return how many of the kept datagrams the network refused (dropped, as a refused {@link #send})
     */
    default int flushSends() {
        return 0;
    }

    /**
     * Where the next datagram may be built so that sending it copies nothing: while the link
     * holds its sends ({@link #holdSends}), its own room for the next one it keeps, which
     * stays that until the next send; else {@code null} (build it elsewhere and {@link #send}
     * it). A datagram built there leaves with {@link #sendFromSlot}.
     */
    default MemorySegment sendSlot() {
        return null;
    }

    /**
     * Sends the datagram built in {@link #sendSlot()}{@code [0, length)}, as
     * {@link #send(ByteBuffer, int, InetSocketAddress, int)} sends a buffer's.
     *
     * @throws IllegalStateException if the link gave no slot
     */
    default boolean sendFromSlot(int length, InetSocketAddress destination, int sourcePort) {
        throw new IllegalStateException("this link builds no datagram in place");
    }

    /**
     * Lets the link hand a run of datagrams it keeps ({@link #holdSends}), of one size and to
     * one destination, to the kernel as one send that the kernel (or the network card) cuts
     * back into them ({@code UDP_SEGMENT}), where the platform can; {@code stamp} says what
     * each datagram owes to the IPv4 Identification it then travels with. A link that cannot
     * sends each datagram alone, as it does by default.
     */
    default void segmentSends(Ipv4IdStamp stamp) {
    }

    /** How many runs of two or more datagrams went as one segmented send so far ({@link #segmentSends}). */
    default long segmentedRuns() {
        return 0;
    }

    /**
     * Receives one datagram into {@code buffer}, from position 0.
     *
     * @return its length, or -1 when none is waiting; its sender is then {@link #source()}
     */
    int receive(ByteBuffer buffer);

    /**
     * Receives one datagram as {@link #receive} does, except that a link holding what it
     * received in memory of its own (a batch of datagrams) may leave it there instead of
     * copying it into {@code buffer}: {@link #heldSegment()} then names where it lies, from
     * {@link #heldOffset()}, and it stays there, unchanged, until the next receive. A datagram
     * longer than {@code buffer} is cut to its capacity in either case. By default the
     * datagram is copied, as {@link #receive} does.
     */
    default int receiveInPlace(ByteBuffer buffer) {
        return receive(buffer);
    }

    /** Where the datagram the last {@link #receiveInPlace} returned lies; {@code null} when it was copied into the buffer. */
    default MemorySegment heldSegment() {
        return null;
    }

    /** Where in {@link #heldSegment()} that datagram starts. */
    default long heldOffset() {
        return 0;
    }

    /**
     * Whether the datagram the last receive returned was the last one waiting when the link
     * last asked the kernel, which had less than the link had room for: a receive now would
     * most likely find nothing, at the cost of a system call. False when the link cannot
     * tell, as by default.
     */
    default boolean lastWaiting() {
        return false;
    }

    /** The sender of the datagram the last {@link #receive} returned. */
    InetSocketAddress source();

    /** How many senders a link that numbers them ({@link #sourceSlot}) tells apart at once. */
    int SOURCE_SLOTS = 256;

    /**
     * A number below {@link #SOURCE_SLOTS} for the sender of the last datagram, the same for
     * every datagram of that sender (whose {@link #source()} is then the same object) until
     * the link has to forget it; or -1 when the link does not number its senders.
     */
    default int sourceSlot() {
        return -1;
    }

    /** Blocks until a datagram may be waiting, {@link #wakeup()} is called, or {@code timeoutNs} passes. */
    void await(long timeoutNs);

    /** Ends an {@link #await} early; callable from any thread. */
    void wakeup();

    @Override
    void close();
}

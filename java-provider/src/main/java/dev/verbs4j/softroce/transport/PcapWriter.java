package dev.verbs4j.softroce.transport;

import dev.verbs4j.softroce.wire.IpUdpHeaders;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes RoCEv2 packets to a classic pcap file that Wireshark and tshark decode as RoCEv2
 * (their "InfiniBand" dissector on UDP port 4791).
 *
 * <p>The engine only ever holds the UDP payload (BTH through ICRC), so each record gets a
 * synthesized IP and UDP header from the packet's {@link UdpFlow}, as the Linux rxe would have
 * sent it: IPv4 with TOS 0, TTL 64, Don't Fragment, the given Identification (0 for our own
 * packets) and a correct header checksum, UDP checksum 0 (legal for IPv4, and what rxe sends);
 * or IPv6 with traffic class 0, flow label 0, hop limit 64 and a computed UDP checksum
 * (mandatory for IPv6). The link type is {@link #LINKTYPE_RAW} (raw IP, version from the first
 * nibble), so IPv4 and IPv6 packets can share one file.
 *
 * <p>The file uses the nanosecond-resolution pcap magic {@code 0xA1B23C4D} in little-endian
 * byte order. Records are assembled in a preallocated direct buffer (1 MiB unless given) and
 * written through a {@link FileChannel} when it fills, on {@link #flush()} and on
 * {@link #close()}; nothing is allocated per packet. Not thread-safe: give each engine thread
 * its own writer and file, or serialize calls.
 */
public final class PcapWriter implements AutoCloseable {
    /** pcap link type for raw IPv4/IPv6 packets without a link-layer header. */
    public static final int LINKTYPE_RAW = 101;
    /** pcap magic for nanosecond timestamps, written in the file's (little-endian) byte order. */
    public static final int MAGIC_NANOSECONDS = 0xA1B2_3C4D;
    public static final int GLOBAL_HEADER_LENGTH = 24;
    public static final int RECORD_HEADER_LENGTH = 16;
    /** Largest record body: an IPv6 header plus a full UDP datagram. */
    public static final int MAX_RECORD_BODY = IpUdpHeaders.IPV6_HEADER_LENGTH + 0xFFFF;

    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int DEFAULT_BUFFER_BYTES = 1 << 20;
    private static final int TTL = 64;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final FileChannel channel;
    private final ByteBuffer buffer;
    private final MemorySegment segment;
    private int position;
    private boolean closed;

    private PcapWriter(FileChannel channel, int bufferBytes) throws IOException {
        this.channel = channel;
        this.buffer = ByteBuffer.allocateDirect(bufferBytes);
        this.segment = MemorySegment.ofBuffer(buffer);
        writeGlobalHeader();
    }

    /** Creates (or truncates) {@code file} and writes the pcap global header. */
    public static PcapWriter create(Path file) throws IOException {
        return create(file, DEFAULT_BUFFER_BYTES);
    }

    /**
     * As {@link #create(Path)} with a buffer of {@code bufferBytes}.
     *
     * @throws IllegalArgumentException if the buffer cannot hold one maximum-size record
     */
    public static PcapWriter create(Path file, int bufferBytes) throws IOException {
        if (bufferBytes < GLOBAL_HEADER_LENGTH + RECORD_HEADER_LENGTH + MAX_RECORD_BODY) {
            throw new IllegalArgumentException("buffer too small for a maximum-size record: " + bufferBytes);
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            return new PcapWriter(channel, bufferBytes);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Records a packet we sent (IPv4 Identification 0); see {@link #write(long, UdpFlow, int, MemorySegment, long, int)}. */
    public void write(long epochNanos, UdpFlow flow, MemorySegment packet, long offset, int length) throws IOException {
        write(epochNanos, flow, 0, packet, offset, length);
    }

    /**
     * Appends one record: the synthesized IP and UDP headers for {@code flow} followed by the
     * UDP payload {@code packet[offset, offset + length)} (BTH through ICRC).
     *
     * @param epochNanos nanoseconds since the Unix epoch; an engine whose clock is
     *                   {@code System.nanoTime()} adds an offset it captured once at start
     * @param ipv4Id     the IPv4 Identification to record, such as the one {@code Icrc.check}
     *                   recovered for a received packet (ignored for IPv6)
     * @throws IllegalArgumentException if {@code length} does not fit in a UDP datagram
     * @throws IllegalStateException if the writer is closed
     */
    public void write(long epochNanos, UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length)
            throws IOException {
        if (closed) {
            throw new IllegalStateException("pcap writer is closed");
        }
        if (length < 0 || length > 0xFFFF - IpUdpHeaders.UDP_HEADER_LENGTH) {
            throw new IllegalArgumentException("UDP payload length out of range: " + length);
        }
        int headers = IpUdpHeaders.length(flow);
        int body = headers + length;
        if (position + RECORD_HEADER_LENGTH + body > buffer.capacity()) {
            flush();
        }
        long record = position;
        segment.set(LE_INT, record, (int) Math.floorDiv(epochNanos, NANOS_PER_SECOND));
        segment.set(LE_INT, record + 4, (int) Math.floorMod(epochNanos, NANOS_PER_SECOND));
        segment.set(LE_INT, record + 8, body);
        segment.set(LE_INT, record + 12, body);
        long ip = record + RECORD_HEADER_LENGTH;
        IpUdpHeaders.write(segment, ip, flow, length, ipv4Id, 0, TTL);
        MemorySegment.copy(packet, offset, segment, ip + headers, length);
        if (flow.isIpv6()) {
            IpUdpHeaders.fillUdpChecksum(segment, ip);
        }
        position += RECORD_HEADER_LENGTH + body;
    }

    /** Writes the buffered records to the file. */
    public void flush() throws IOException {
        buffer.clear().limit(position);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        position = 0;
    }

    /** Flushes and closes the file. Closing twice does nothing. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            flush();
        } finally {
            channel.close();
        }
    }

    private void writeGlobalHeader() throws IOException {
        segment.set(LE_INT, 0, MAGIC_NANOSECONDS);
        segment.set(LE_SHORT, 4, (short) 2);   // version 2.4
        segment.set(LE_SHORT, 6, (short) 4);
        segment.set(LE_INT, 8, 0);             // thiszone: timestamps are UTC
        segment.set(LE_INT, 12, 0);            // sigfigs
        segment.set(LE_INT, 16, MAX_RECORD_BODY); // snaplen: records are never truncated
        segment.set(LE_INT, 20, LINKTYPE_RAW);
        position = GLOBAL_HEADER_LENGTH;
        flush();
    }
}

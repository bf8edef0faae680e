package dev.verbs4j.softroce.cm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The header the RDMA CM puts before an application's private data in a REQ sent to an IP
 * port space: version 0, the IP version in the upper nibble, the source port, then the
 * source and destination addresses, each in 16 bytes (IPv4 in the last four). 36 bytes, so
 * an application keeps 56 of the REQ's 92.
 */
final class CmaHeader {
    static final int LENGTH = 36;
    private static final int VERSION = 0;
    private static final int IP_VERSION = 1;
    private static final int PORT = 2;
    private static final int SOURCE = 4;
    private static final int DESTINATION = 20;

    private CmaHeader() {
    }

    /** Writes the header at {@code offset}. */
    static void write(MemorySegment mad, int offset, InetSocketAddress source, InetSocketAddress destination) {
        boolean v4 = source.getAddress() instanceof Inet4Address;
        CmMad.u8(mad, offset + VERSION, 0);
        CmMad.u8(mad, offset + IP_VERSION, (v4 ? 4 : 6) << 4);
        CmMad.u16(mad, offset + PORT, source.getPort());
        address(mad, offset + SOURCE, source.getAddress());
        address(mad, offset + DESTINATION, destination.getAddress());
    }

    private static void address(MemorySegment mad, int offset, InetAddress address) {
        byte[] raw = address.getAddress();
        MemorySegment.copy(raw, 0, mad, ValueLayout.JAVA_BYTE, offset + 16 - raw.length, raw.length);
    }

    /** Whether the header at {@code offset} is one this agent reads (version 0, IP version 4 or 6). */
    static boolean valid(MemorySegment mad, int offset) {
        int ipVersion = CmMad.u8(mad, offset + IP_VERSION) >>> 4;
        return CmMad.u8(mad, offset + VERSION) == 0 && (ipVersion == 4 || ipVersion == 6);
    }

    /** The sender's address and port. */
    static InetSocketAddress source(MemorySegment mad, int offset) {
        return new InetSocketAddress(read(mad, offset, offset + SOURCE), CmMad.u16(mad, offset + PORT));
    }

    /** The address the sender connects to (its port is the service id's). */
    static InetAddress destination(MemorySegment mad, int offset) {
        return read(mad, offset, offset + DESTINATION);
    }

    private static InetAddress read(MemorySegment mad, int header, int offset) {
        boolean v4 = CmMad.u8(mad, header + IP_VERSION) >>> 4 == 4;
        byte[] raw = new byte[v4 ? 4 : 16];
        MemorySegment.copy(mad, ValueLayout.JAVA_BYTE, offset + 16 - raw.length, raw, 0, raw.length);
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // the length is 4 or 16
        }
    }
}

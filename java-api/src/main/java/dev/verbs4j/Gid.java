package dev.verbs4j;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A 128-bit global identifier ({@code union ibv_gid}). For RoCEv2 it is the port's IP
 * address: an IPv6 address, or an IPv4 address in IPv4-mapped form ({@code ::ffff:a.b.c.d}).
 *
 * @param high the first 8 bytes, big-endian (the subnet prefix)
 * @param low  the last 8 bytes, big-endian (the interface id)
 */
public record Gid(long high, long low) {
    /** The all-zero GID, an empty table slot. */
    public static final Gid ZERO = new Gid(0, 0);

    /**
     * The GID of an IP address (IPv4 addresses become IPv4-mapped).
     *
     * @param address an IPv4 or IPv6 address
     * @return the GID
     */
    public static Gid of(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length == 4) {
            return new Gid(0, 0x0000ffff00000000L | (Integer.toUnsignedLong(
                    ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff))));
        }
        return fromBytes(b);
    }

    /**
     * The GID of 16 raw bytes in network order.
     *
     * @param raw 16 bytes, as {@code union ibv_gid.raw} holds them
     * @return the GID
     * @throws IllegalArgumentException if {@code raw} does not hold 16 bytes
     */
    public static Gid fromBytes(byte[] raw) {
        if (raw.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes, not " + raw.length);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (raw[i] & 0xff);
            lo = (lo << 8) | (raw[i + 8] & 0xff);
        }
        return new Gid(hi, lo);
    }

    /**
     * Parses a GID written as an IPv6 or IPv4 address.
     *
     * @param text an address literal, e.g. {@code 10.9.0.1} or {@code fe80::1}
     * @return the GID
     * @throws IllegalArgumentException if the text is not an address literal
     */
    public static Gid parse(String text) {
        try {
            return of(InetAddress.ofLiteral(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a GID: " + text, e);
        }
    }

    /**
     * The 16 bytes in network order.
     *
     * @return a new 16-byte array
     */
    public byte[] toBytes() {
        byte[] raw = new byte[16];
        for (int i = 0; i < 8; i++) {
            raw[i] = (byte) (high >>> (56 - 8 * i));
            raw[i + 8] = (byte) (low >>> (56 - 8 * i));
        }
        return raw;
    }

    /**
     * Whether this is an IPv4-mapped GID ({@code ::ffff:a.b.c.d}).
     *
     * @return true if the first 80 bits are 0 and the next 16 are 1
     */
    public boolean isIpv4Mapped() {
        return high == 0 && (low >>> 32) == 0xffffL;
    }

    /**
     * The IP address: an {@link Inet4Address} for IPv4-mapped GIDs, else an {@link Inet6Address}.
     *
     * @return the address
     */
    public InetAddress toInetAddress() {
        try {
            if (isIpv4Mapped()) {
                int v4 = (int) low;
                return InetAddress.getByAddress(new byte[] {(byte) (v4 >>> 24), (byte) (v4 >>> 16), (byte) (v4 >>> 8), (byte) v4});
            }
            return InetAddress.getByAddress(toBytes());
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** The textual form ibv_devinfo prints: eight groups of four hex digits. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(39);
        byte[] raw = toBytes();
        for (int i = 0; i < 16; i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x%02x", raw[i], raw[i + 1]));
        }
        return sb.toString();
    }
}

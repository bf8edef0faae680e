package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Gid;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What perftest's default (TCP) exchange tells the other side about one queue pair: its
 * {@code struct pingpong_dest}, written as colon-separated lower-case hex in a fixed-size,
 * NUL-terminated message (perftest_communication.c, {@code ethernet_write_keys}).
 * <pre>
 * with a GID (RoCE, 108 bytes including the NUL):
 *   LLLL:OOOO:QQQQQQ:PPPPPP:RRRRRRRR:VVVVVVVVVVVVVVVV:g0:g1:...:g15:SSSSSSSS:
 * without (InfiniBand without -x, 59 bytes):
 *   LLLL:OOOO:QQQQQQ:PPPPPP:RRRRRRRR:VVVVVVVVVVVVVVVV:SSSSSSSS
 * L LID, O outstanding reads the sender answers, Q QPN, P first PSN, R rkey,
 * V the address its peer targets, g the GID's bytes, S the SRQ number (XRC and DC only).
 * </pre>
 * Both sides must agree on the form: perftest uses the one with a GID whenever it has a GID
 * index, which on an Ethernet link layer is always.
 *
 * @param gid null for the form without a GID
 */
public record KeyMessage(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /** The size with a GID, NUL included ({@code KEY_MSG_SIZE_GID}). */
    public static final int SIZE_WITH_GID = 108;
    /** The size without a GID, NUL included ({@code KEY_MSG_SIZE}). */
    public static final int SIZE_WITHOUT_GID = 59;

    /** The message's size in bytes, NUL included. */
    public static int size(boolean withGid) {
        return withGid ? SIZE_WITH_GID : SIZE_WITHOUT_GID;
    }

    public byte[] encode() {
        StringBuilder text = new StringBuilder(SIZE_WITH_GID);
        text.append(String.format(Locale.ROOT, "%04x:%04x:%06x:%06x:%08x:%016x:", lid & 0xffff, outReads & 0xffff,
                qpn & 0xffffff, psn & 0xffffff, rkey, vaddr));
        if (gid != null) {
            for (byte b : gid.toBytes()) {
                text.append(String.format(Locale.ROOT, "%02x:", b & 0xff));
            }
            text.append(String.format(Locale.ROOT, "%08x:", srqn));
        } else {
            text.append(String.format(Locale.ROOT, "%08x", srqn));
        }
        byte[] ascii = text.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] message = Arrays.copyOf(ascii, size(gid != null));
        if (ascii.length != message.length - 1) {
            throw new IllegalStateException("key message of " + ascii.length + " characters: " + text);
        }
        return message;
    }

    /**
     * @param message the bytes received, of {@link #size(boolean)}
     * @throws IllegalArgumentException when the message is not of that form
     */
    public static KeyMessage decode(byte[] message, boolean withGid) {
        if (message.length != size(withGid)) {
            throw new IllegalArgumentException("a key message has " + size(withGid) + " bytes, not " + message.length);
        }
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII);
        String[] f = text.split(":", -1);
        int fields = withGid ? 6 + 16 + 1 : 7;
        if (f.length < fields) {
            throw new IllegalArgumentException("cannot parse the peer's key message <" + text + ">");
        }
        try {
            Gid gid = null;
            if (withGid) {
                byte[] raw = new byte[16];
                for (int i = 0; i < 16; i++) {
                    raw[i] = (byte) Integer.parseInt(f[6 + i], 16);
                }
                gid = Gid.fromBytes(raw);
            }
            return new KeyMessage(Integer.parseInt(f[0], 16), Integer.parseInt(f[1], 16), Integer.parseInt(f[2], 16),
                    Integer.parseInt(f[3], 16), Integer.parseUnsignedInt(f[4], 16), Long.parseUnsignedLong(f[5], 16), gid,
                    Integer.parseUnsignedInt(f[fields - 1], 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cannot parse the peer's key message <" + text + ">", e);
        }
    }
}

package dev.verbs4j.tools.compat;

import dev.verbs4j.Gid;

import java.nio.charset.StandardCharsets;

/**
 * One queue pair's address as rdma-core's {@code ibv_*_pingpong} programs exchange it: the
 * text {@code LLLL:QQQQQQ:PPPPPP:GGGG...} (LID, QPN and PSN in hex, then the GID's 16 bytes
 * as 32 hex digits) and a terminating NUL, 52 bytes in all, sent and read whole.
 */
record IbvDestination(int lid, int qpn, int psn, Gid gid) {
    /** The bytes of one message: {@code sizeof "0000:000000:000000:" + 32 GID digits} with its NUL. */
    static final int WIRE_BYTES = 52;
    /** What fills the slots of an exchange beyond the queue pairs in use. */
    static final IbvDestination NONE = new IbvDestination(0, 0, 0, Gid.ZERO);

    IbvDestination {
        if (lid < 0 || lid > 0xffff || qpn < 0 || qpn > 0xffffff || psn < 0 || psn > 0xffffff) {
            throw new IllegalArgumentException("LID, QPN or PSN out of range: " + lid + ", " + qpn + ", " + psn);
        }
    }

    /** The message, NUL included. */
    byte[] encode() {
        StringBuilder text = new StringBuilder(WIRE_BYTES - 1);
        hex(text, lid, 4).append(':');
        hex(text, qpn, 6).append(':');
        hex(text, psn, 6).append(':');
        for (byte b : gid.toBytes()) {
            hex(text, b & 0xff, 2);
        }
        byte[] wire = new byte[WIRE_BYTES];
        byte[] ascii = text.toString().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, wire, 0, ascii.length);
        return wire;
    }

    private static StringBuilder hex(StringBuilder to, int value, int digits) {
        String h = Integer.toHexString(value);
        for (int i = h.length(); i < digits; i++) {
            to.append('0');
        }
        return to.append(h);
    }

    /**
     * Reads one message. Unused slots of a multi-QP exchange may hold anything: a message
     * that does not parse reads as {@link #NONE}.
     */
    static IbvDestination decode(byte[] wire, int offset) {
        int end = offset;
        while (end < offset + WIRE_BYTES && wire[end] != 0) {
            end++;
        }
        String[] fields = new String(wire, offset, end - offset, StandardCharsets.US_ASCII).split(":", 4);
        if (fields.length != 4 || fields[3].length() < 32) {
            return NONE;
        }
        try {
            byte[] raw = new byte[16];
            for (int i = 0; i < 16; i++) {
                raw[i] = (byte) Integer.parseInt(fields[3].substring(2 * i, 2 * i + 2), 16);
            }
            return new IbvDestination((int) (Long.parseLong(fields[0], 16) & 0xffff), (int) (Long.parseLong(fields[1], 16) & 0xffffff),
                    (int) (Long.parseLong(fields[2], 16) & 0xffffff), Gid.fromBytes(raw));
        } catch (NumberFormatException e) {
            return NONE;
        }
    }
}

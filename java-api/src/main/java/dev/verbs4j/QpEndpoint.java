package dev.verbs4j;

/**
 * What one side of an RC connection tells the other (as {@code ibv_rc_pingpong} does over
 * TCP): its QP number, first PSN, GID and MTU, plus optionally one memory region the
 * peer may access remotely.
 *
 * @param qpn     queue pair number
 * @param psn     the first PSN this side sends
 * @param gid     this side's GID
 * @param mtu     the largest path MTU this side's port supports
 * @param lid     the port LID (0 on RoCE)
 * @param address remote address of the shared region, or 0
 * @param rkey    rkey of the shared region, or 0
 * @param length  length of the shared region, or 0
 */
public record QpEndpoint(int qpn, int psn, Gid gid, Mtu mtu, int lid, long address, int rkey, long length) {
    private static final String MAGIC = "verbs4j-rc/1";

    /**
     * The one-line text form sent on the wire.
     * It has no libibverbs counterpart: {@code ibv_rc_pingpong} sends its own text form.
     *
     * @return the line, without its newline
     */
    public String encode() {
        return MAGIC + " qpn=" + Integer.toHexString(qpn) + " psn=" + Integer.toHexString(psn) + " gid=" + gid
                + " mtu=" + mtu.bytes() + " lid=" + lid + " addr=" + Long.toHexString(address)
                + " rkey=" + Integer.toHexString(rkey) + " len=" + length;
    }

    /**
     * Parses {@link #encode()}'s form.
     *
     * @throws IllegalArgumentException for any other text
     * @param line what {@link #encode()} produced
     * @return the endpoint
     */
    public static QpEndpoint decode(String line) {
        String[] parts = line == null ? new String[0] : line.trim().split(" ");
        if (parts.length != 9 || !parts[0].equals(MAGIC)) {
            throw new IllegalArgumentException("not a verbs4j RC endpoint: " + line);
        }
        try {
            return new QpEndpoint(
                    Integer.parseUnsignedInt(value(parts[1], "qpn"), 16),
                    Integer.parseUnsignedInt(value(parts[2], "psn"), 16),
                    Gid.parse(value(parts[3], "gid")),
                    Mtu.ofBytes(Integer.parseInt(value(parts[4], "mtu"))),
                    Integer.parseInt(value(parts[5], "lid")),
                    Long.parseUnsignedLong(value(parts[6], "addr"), 16),
                    Integer.parseUnsignedInt(value(parts[7], "rkey"), 16),
                    Long.parseLong(value(parts[8], "len")));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed RC endpoint: " + line, e);
        }
    }

    private static String value(String field, String name) {
        if (!field.startsWith(name + "=")) {
            throw new IllegalArgumentException("expected " + name + "=..., got " + field);
        }
        return field.substring(name.length() + 1);
    }

}

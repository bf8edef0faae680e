package dev.verbs4j.tools.compat.perftest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * perftest's exchange between its two sides (perftest_communication.c): lock-step steps in
 * which the client sends first and the server answers, carried either by a TCP socket
 * ({@link SideChannel}, perftest's default) or by SENDs on a connection of their own made
 * with the connection manager ({@link CmSideChannel}, {@code -R}). The steps that are the
 * same bytes on both carriers are here.
 */
abstract class PerftestChannel implements AutoCloseable {
    /** The perftest version we present ourselves as (Debian's perftest 4.5-0.17 says 6.06). */
    static final String VERSION = "6.06";
    /** {@code MAX_VERSION}: the version travels as a NUL-padded string of this size. */
    static final int VERSION_BYTES = 16;
    /** perftest refuses peers older than this ({@code check_version_compatibility}). */
    static final double OLDEST_PEER = 5.70;

    /** Sends {@code mine} and returns the peer's message of the same size, in perftest's order. */
    abstract byte[] exchange(byte[] mine);

    /** {@code ctx_hand_shake}: one queue pair's keys each way. */
    abstract KeyMessage keys(KeyMessage mine);

    /** {@code ctx_close_connection}: the last exchange; then the channel closes. */
    abstract void finish(KeyMessage mine);

    @Override
    public abstract void close();

    /** {@code exchange_versions} and {@code check_version_compatibility}: returns the peer's version. */
    double versions() {
        byte[] mine = Arrays.copyOf(VERSION.getBytes(StandardCharsets.US_ASCII), VERSION_BYTES);
        double theirs = leadingNumber(cString(exchange(mine)));
        if (!(theirs >= OLDEST_PEER)) {
            throw new IllegalStateException("the peer is perftest " + theirs + "; perftest's exchange needs "
                    + OLDEST_PEER + " or later on both sides");
        }
        return theirs;
    }

    /**
     * {@code check_sys_data}: page size (the cycle buffer) and cache line size, each a 4-byte
     * big-endian int in an exchange of its own; both sides go on with the larger of each.
     *
     * @return {cycle buffer, cache line}
     */
    int[] sysData(int cycleBuffer, int cacheLine) {
        int theirCycle = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cycleBuffer).array())).getInt();
        int theirLine = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cacheLine).array())).getInt();
        return new int[] {Math.max(cycleBuffer, theirCycle), Math.max(cacheLine, theirLine)};
    }

    /**
     * {@code check_mtu}: the {@code enum ibv_mtu} value (1 for 256 .. 5 for 4096) as decimal
     * text in 2 bytes; both sides use the smaller of the two when the peer's is valid.
     */
    int mtu(int mineEnum) {
        byte[] mine = Arrays.copyOf(Integer.toString(mineEnum).getBytes(StandardCharsets.US_ASCII), 2);
        double theirs = leadingNumber(cString(exchange(mine)));
        int peer = (int) theirs;
        return peer >= 1 && peer <= 5 && peer < mineEnum ? peer : mineEnum;
    }

    /** {@code xchg_bw_reports}: returns the peer's report. */
    BwReport reports(BwReport mine) {
        byte[][] theirs = new byte[BwReport.FIELDS][];
        for (int i = 0; i < BwReport.FIELDS; i++) {
            theirs[i] = exchange(mine.field(i));
        }
        return BwReport.of(theirs);
    }

    /** The text before the first NUL. */
    static String cString(byte[] bytes) {
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }

    /** What C's {@code atof}/{@code strtol} make of a string: its leading number, or 0. */
    static double leadingNumber(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*[-+]?\\d*(\\.\\d*)?").matcher(text);
        if (!m.find() || m.group().isBlank() || m.group().strip().matches("[-+]?\\.?")) {
            return 0;
        }
        return Double.parseDouble(m.group().strip());
    }
}

package dev.verbs4j.ibverbs;

import java.nio.ByteOrder;

/**
 * Conversions between the big-endian fields libibverbs passes through unchanged
 * ({@code __be32 imm_data}, {@code __be64} GUIDs) and Java values. A Java {@code int} of
 * immediate data is the number the four wire bytes spell big-endian, as the soft provider
 * reads it from the ImmDt header; libibverbs wants those bytes in memory order.
 */
final class NetworkOrder {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private NetworkOrder() {
    }

    /** {@code htonl}: the {@code __be32} whose memory bytes are {@code value} big-endian. */
    static int toNetwork32(int value) {
        return LITTLE_ENDIAN ? Integer.reverseBytes(value) : value;
    }

    /** {@code ntohl}. */
    static int toHost32(int network) {
        return toNetwork32(network);
    }

    /** {@code be64toh}: a GUID as {@code ibv_devices} prints it. */
    static long toHost64(long network) {
        return LITTLE_ENDIAN ? Long.reverseBytes(network) : network;
    }
}

package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Gid;

import java.nio.ByteBuffer;

/**
 * What perftest's rdma_cm exchange ({@code -R}) tells the other side about one queue pair:
 * its {@code struct pingpong_dest} as the C compiler lays it out on x86-64, every number in
 * network byte order, sent as one SEND on the exchange's own connection
 * (perftest_communication.c, {@code rdma_write_keys}, {@code rdma_read_keys}):
 * <pre>
 *  0 lid   4 out_reads   8 qpn   12 psn   16 rkey   20 (padding)   24 vaddr (8)
 * 32 gid (16 bytes)   48 srqn   52 gid_index                        56 bytes in all
 * </pre>
 * The reader takes lid, out_reads, qpn, psn, rkey, vaddr and the GID; srqn and gid_index
 * travel but are not read.
 */
public final class KeyStruct {
    /** {@code sizeof(struct pingpong_dest)}: also the largest message the exchange carries. */
    public static final int BYTES = 56;

    private KeyStruct() {
    }

    public static byte[] encode(KeyMessage keys, int gidIndex) {
        ByteBuffer b = ByteBuffer.allocate(BYTES);
        b.putInt(keys.lid()).putInt(keys.outReads()).putInt(keys.qpn()).putInt(keys.psn()).putInt(keys.rkey()).putInt(0);
        b.putLong(keys.vaddr());
        b.put(keys.gid() == null ? new byte[16] : keys.gid().toBytes());
        b.putInt(keys.srqn()).putInt(gidIndex);
        return b.array();
    }

    /** @throws IllegalArgumentException when the message is not {@link #BYTES} long */
    public static KeyMessage decode(byte[] message) {
        if (message.length != BYTES) {
            throw new IllegalArgumentException("perftest's keys are " + BYTES + " bytes, not " + message.length);
        }
        ByteBuffer b = ByteBuffer.wrap(message);
        int lid = b.getInt();
        int outReads = b.getInt();
        int qpn = b.getInt();
        int psn = b.getInt();
        int rkey = b.getInt();
        b.getInt();
        long vaddr = b.getLong();
        byte[] gid = new byte[16];
        b.get(gid);
        int srqn = b.getInt();
        return new KeyMessage(lid, outReads, qpn, psn, rkey, vaddr, Gid.fromBytes(gid), srqn);
    }
}

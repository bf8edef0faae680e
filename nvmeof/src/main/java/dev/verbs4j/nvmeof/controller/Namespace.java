package dev.verbs4j.nvmeof.controller;

import java.io.IOException;
import java.util.UUID;

/**
 * What an NVMe namespace stores: {@link #blockCount()} logical blocks of
 * {@code 1 << blockShift()} bytes. The target has checked every range against the size before
 * it calls, so implementations see only ranges inside.
 */
public interface Namespace extends AutoCloseable {
    long blockCount();

    int blockShift();

    /**
     * The namespace's UUID, which the controller reports as its UUID descriptor and, in the
     * same 16 bytes, as its NGUID. A host matches a namespace to its paths and its earlier
     * connections by it, so it stays the same across restarts of the target.
     */
    UUID uuid();

    /** The 16-byte NGUID: the UUID's bytes as the UUID reads. */
    default byte[] nguid() {
        return Nguid.of(uuid());
    }

    /** Whether writes may sit in a volatile cache until {@link #flush()}. */
    boolean volatileCache();

    void read(long byteOffset, IoBuffer into, int bufferOffset, int length) throws IOException;

    void write(long byteOffset, IoBuffer from, int bufferOffset, int length) throws IOException;

    void writeZeroes(long byteOffset, long length) throws IOException;

    /** Makes every completed write durable. */
    void flush() throws IOException;

    @Override
    void close() throws IOException;

    /** The size in bytes. */
    default long byteCount() {
        return blockCount() << blockShift();
    }
}

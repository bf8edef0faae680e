package dev.verbs4j.nvmeof.controller;

import java.io.IOException;

/**
 * What an NVMe namespace stores: {@link #blockCount()} logical blocks of
 * {@code 1 << blockShift()} bytes. The target has checked every range against the size before
 * it calls, so implementations see only ranges inside.
 */
public interface Namespace extends AutoCloseable {
    long blockCount();

    int blockShift();

    /** A 16-byte globally unique identifier (the NGUID). */
    byte[] nguid();

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

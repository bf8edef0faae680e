package dev.verbs4j.nvmeof.controller;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.UUID;

/**
 * A namespace backed by a file of a fixed size: writes go to the page cache, Flush forces
 * them to the device ({@link FileChannel#force}), so the controller reports a volatile write
 * cache and the host sends Flush when it needs durability.
 */
public final class FileNamespace implements Namespace {
    private static final int ZERO_CHUNK = 64 * 1024;

    private final FileChannel channel;
    private final long blocks;
    private final int blockShift;
    private final UUID uuid;
    private final Arena arena = Arena.ofShared();
    private final ByteBuffer zeroes;

    /**
     * Opens {@code path}, creating it, and sets its length to {@code bytes}; its UUID is one
     * made from the file's absolute path.
     */
    public FileNamespace(Path path, long bytes, int blockShift) throws IOException {
        this(path, bytes, blockShift,
                UUID.nameUUIDFromBytes(path.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8)));
    }

    /** Opens {@code path}, creating it, and sets its length to {@code bytes}. */
    public FileNamespace(Path path, long bytes, int blockShift, UUID uuid) throws IOException {
        if (bytes <= 0 || (bytes & ((1L << blockShift) - 1)) != 0) {
            throw new IllegalArgumentException("size " + bytes + " is not a positive multiple of " + (1 << blockShift));
        }
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        if (channel.size() != bytes) {
            if (channel.size() > bytes) {
                channel.truncate(bytes);
            } else {
                channel.write(ByteBuffer.allocate(1), bytes - 1);
            }
        }
        this.blocks = bytes >>> blockShift;
        this.blockShift = blockShift;
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        MemorySegment zero = arena.allocate(ZERO_CHUNK, 4096);
        this.zeroes = zero.asByteBuffer();
    }

    @Override
    public long blockCount() {
        return blocks;
    }

    @Override
    public int blockShift() {
        return blockShift;
    }

    @Override
    public UUID uuid() {
        return uuid;
    }

    @Override
    public boolean volatileCache() {
        return true;
    }

    @Override
    public void read(long byteOffset, IoBuffer into, int bufferOffset, int length) throws IOException {
        ByteBuffer window = into.window(bufferOffset, length);
        long position = byteOffset;
        while (window.hasRemaining()) {
            int n = channel.read(window, position);
            if (n < 0) {
                throw new IOException("end of file at " + position);
            }
            position += n;
        }
    }

    @Override
    public void write(long byteOffset, IoBuffer from, int bufferOffset, int length) throws IOException {
        ByteBuffer window = from.window(bufferOffset, length);
        long position = byteOffset;
        while (window.hasRemaining()) {
            position += channel.write(window, position);
        }
    }

    @Override
    public void writeZeroes(long byteOffset, long length) throws IOException {
        long position = byteOffset;
        long end = byteOffset + length;
        while (position < end) {
            int chunk = (int) Math.min(ZERO_CHUNK, end - position);
            zeroes.limit(chunk).position(0);
            while (zeroes.hasRemaining()) {
                position += channel.write(zeroes, position);
            }
        }
    }

    @Override
    public void flush() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
        arena.close();
    }
}

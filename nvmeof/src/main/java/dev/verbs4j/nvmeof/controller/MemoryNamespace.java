package dev.verbs4j.nvmeof.controller;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.UUID;

/** A namespace held in memory: nothing to flush, gone with the process. */
public final class MemoryNamespace implements Namespace {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment blocks;
    private final int blockShift;
    private final UUID uuid;

    /** A namespace of {@code bytes}, zeroed, with a random UUID. */
    public MemoryNamespace(long bytes, int blockShift) {
        this(bytes, blockShift, UUID.randomUUID());
    }

    public MemoryNamespace(long bytes, int blockShift, UUID uuid) {
        if (bytes <= 0 || (bytes & ((1L << blockShift) - 1)) != 0) {
            throw new IllegalArgumentException("size " + bytes + " is not a positive multiple of " + (1 << blockShift));
        }
        this.blocks = arena.allocate(bytes, 4096);
        this.blockShift = blockShift;
        this.uuid = Objects.requireNonNull(uuid, "uuid");
    }

    @Override
    public long blockCount() {
        return blocks.byteSize() >>> blockShift;
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
        return false;
    }

    @Override
    public void read(long byteOffset, IoBuffer into, int bufferOffset, int length) {
        MemorySegment.copy(blocks, byteOffset, into.segment(), bufferOffset, length);
    }

    @Override
    public void write(long byteOffset, IoBuffer from, int bufferOffset, int length) {
        MemorySegment.copy(from.segment(), bufferOffset, blocks, byteOffset, length);
    }

    @Override
    public void writeZeroes(long byteOffset, long length) {
        blocks.asSlice(byteOffset, length).fill((byte) 0);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        arena.close();
    }
}

package dev.verbs4j.nvmeof.controller;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A registered data buffer with a {@link ByteBuffer} view made once, so that file channels
 * read into and write from it without a view made per command.
 */
public final class IoBuffer {
    private final MemorySegment segment;
    private final ByteBuffer view;

    public IoBuffer(MemorySegment segment) {
        this.segment = segment;
        this.view = segment.asByteBuffer();
    }

    public MemorySegment segment() {
        return segment;
    }

    /** The view over {@code [offset, offset + length)}. */
    public ByteBuffer window(int offset, int length) {
        view.limit(offset + length).position(offset);
        return view;
    }
}

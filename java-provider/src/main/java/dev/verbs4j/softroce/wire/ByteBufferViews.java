package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * An identity cache of {@link ByteBuffer} views of segments, so that
 * {@link java.util.zip.CRC32#update(ByteBuffer)} (an intrinsic) can read a packet without
 * allocating a view per packet. Engines reuse a bounded set of long-lived packet buffers, so
 * after warm-up every lookup hits; a miss costs one {@code asByteBuffer()}.
 *
 * <p>Open addressing over {@value #SLOTS} slots, probing at most {@value #MAX_PROBES} of them;
 * when all probed slots are taken the home slot is overwritten. Several hundred distinct packet
 * segments therefore stay cached (the allocation test cycles through 256); a caller that slices a new segment per packet gets one small
 * allocation per packet (still correct). The cache holds strong references to the segments it
 * has seen. Not thread-safe.
 */
final class ByteBufferViews {
    static final int SLOTS = 2048;
    static final int MAX_PROBES = 16;

    private final MemorySegment[] segments = new MemorySegment[SLOTS];
    private final ByteBuffer[] buffers = new ByteBuffer[SLOTS];

    /** A buffer whose remaining bytes are {@code segment[offset, offset + length)}. */
    ByteBuffer view(MemorySegment segment, long offset, int length) {
        if (segment.byteSize() > Integer.MAX_VALUE) {
            return segment.asSlice(offset, length).asByteBuffer();
        }
        ByteBuffer buffer = lookup(segment);
        buffer.clear().position((int) offset).limit((int) offset + length);
        return buffer;
    }

    private ByteBuffer lookup(MemorySegment segment) {
        int home = System.identityHashCode(segment) & (SLOTS - 1);
        int free = -1;
        for (int probe = 0; probe < MAX_PROBES; probe++) {
            int slot = (home + probe) & (SLOTS - 1);
            MemorySegment cached = segments[slot];
            if (cached == segment) {
                return buffers[slot];
            }
            if (cached == null && free < 0) {
                free = slot;
            }
        }
        int slot = free >= 0 ? free : home;
        ByteBuffer buffer = segment.asByteBuffer();
        segments[slot] = segment;
        buffers[slot] = buffer;
        return buffer;
    }
}

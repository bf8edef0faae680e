package dev.verbs4j.conformance.agent;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Optional;

/**
 * How a piece of shared memory is named on the control channel: the file behind it, how
 * it is mapped, where and how long the whole mapping is in the process that made it, and
 * the offset and length of the piece.
 *
 * @param path   the file both processes map
 * @param kind   how it is mapped
 * @param base   the mapping's address in the owner's process (the agent maps {@link Kind#AT_SAME_ADDRESS} files there too)
 * @param size   the mapping's length
 * @param offset where the piece starts in the mapping
 * @param length the piece's length
 */
record SharedMapping(String path, Kind kind, long base, long size, long offset, long length) {
    enum Kind {
        /** Plain memory: mapped at the same address in both processes, so any address in it means the same bytes. */
        AT_SAME_ADDRESS,
        /** A file mapped through {@code FileChannel.map} in each process (persistent memory), at addresses of its own. */
        MAPPED_FILE
    }

    /** A whole mapping as one process holds it. */
    interface Held {
        Kind kind();

        MemorySegment whole();
    }

    /** How {@code segment} is named, if it lies in one of {@code mappings} (by path); else empty. */
    static Optional<SharedMapping> find(MemorySegment segment, Map<String, ? extends Held> mappings) {
        long address = segment.address();
        for (Map.Entry<String, ? extends Held> e : mappings.entrySet()) {
            MemorySegment whole = e.getValue().whole();
            long offset = address - whole.address();
            if (offset >= 0 && offset + segment.byteSize() <= whole.byteSize()) {
                return Optional.of(new SharedMapping(e.getKey(), e.getValue().kind(), whole.address(), whole.byteSize(),
                        offset, segment.byteSize()));
            }
        }
        return Optional.empty();
    }

    /** How the whole of {@code held} is named: from offset 0, its full length. */
    static SharedMapping whole(String path, Held held) {
        MemorySegment w = held.whole();
        return new SharedMapping(path, held.kind(), w.address(), w.byteSize(), 0, w.byteSize());
    }

    void write(DataOutputStream out) throws IOException {
        out.writeUTF(path);
        out.writeByte(kind.ordinal());
        out.writeLong(base);
        out.writeLong(size);
        out.writeLong(offset);
        out.writeLong(length);
    }

    static SharedMapping read(DataInputStream in) throws IOException {
        return new SharedMapping(in.readUTF(), Kind.values()[in.readByte()], in.readLong(), in.readLong(), in.readLong(),
                in.readLong());
    }

    /** The piece of {@code whole} (this process's view of the mapping) that this names. */
    MemorySegment slice(MemorySegment whole) {
        if (offset < 0 || length < 0 || offset + length > whole.byteSize()) {
            throw new IllegalArgumentException("bytes " + offset + "+" + length + " lie outside the mapping of " + path);
        }
        return whole.asSlice(offset, length);
    }
}

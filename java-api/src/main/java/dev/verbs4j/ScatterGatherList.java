package dev.verbs4j;

import java.lang.foreign.MemorySegment;

/**
 * A reusable list of scatter/gather entries ({@code struct ibv_sge[]}): each entry is a
 * local address, a length and the lkey of the region that holds it. The capacity is
 * fixed at construction; filling and clearing the list allocates nothing.
 *
 * <p>An entry added with {@link #add(MemorySegment, long, int)} also keeps its segment, so a
 * provider can check that the bytes are still mapped before it reads them. That is how
 * inline data ({@link SendFlag#INLINE}) from memory outside any registered region is given:
 * a provider reads inline data only through the entry's segment or through the registered
 * region its lkey names, and refuses any other address with {@code EINVAL}.
 */
public final class ScatterGatherList {
    private final long[] addresses;
    private final int[] lengths;
    private final int[] lkeys;
    private final MemorySegment[] segments;
    private int count;

    /**
     * A list with room for {@code capacity} entries.
     *
     * @param capacity the most entries the list holds, at least 1 (a post fails with {@code EINVAL}
     *        when the entries in use exceed the queue's {@code max_send_sge} or {@code max_recv_sge})
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public ScatterGatherList(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        addresses = new long[capacity];
        lengths = new int[capacity];
        lkeys = new int[capacity];
        segments = new MemorySegment[capacity];
    }

    /**
     * Removes all entries.
     *
     * @return this list
     */
    public ScatterGatherList clear() {
        java.util.Arrays.fill(segments, 0, count, null);
        count = 0;
        return this;
    }

    /**
     * Appends an entry.
     * The entry is an {@code ibv_sge}: {@code addr}, {@code length}, {@code lkey}.
     *
     * @throws IllegalStateException when the list is full
     * @param address the first byte's virtual address, inside the region that {@code lkey} names
     * @param length bytes, 0 or more
     * @param lkey the local key of the region holding the bytes
     * @return this list
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public ScatterGatherList add(long address, int length, int lkey) {
        if (count == addresses.length) {
            throw new IllegalStateException("scatter/gather list is full (" + addresses.length + " entries)");
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        addresses[count] = address;
        lengths[count] = length;
        lkeys[count] = lkey;
        segments[count] = null;
        count++;
        return this;
    }

    /**
     * Appends {@code length} bytes of native memory starting {@code offset} bytes into
     * {@code memory}, with lkey 0, keeping the segment: the form for inline data from memory
     * that no region registers. The provider reads the bytes through the segment at post
     * time; once its arena is closed, a post naming the entry fails with {@code EINVAL}.
     *
     * @param memory native memory, open now
     * @param offset bytes from the segment's start
     * @param length bytes, 0 or more, within the segment
     * @return this list
     * @throws IllegalStateException when the list is full, or the segment's arena is closed
     * @throws IllegalArgumentException if the segment is not native
     * @throws IndexOutOfBoundsException if the bytes do not lie within the segment
     */
    public ScatterGatherList add(MemorySegment memory, long offset, int length) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("a scatter/gather entry needs native memory, not a heap segment");
        }
        if (!memory.scope().isAlive()) {
            throw new IllegalStateException("the segment's arena is closed");
        }
        if (length < 0 || offset < 0 || offset > memory.byteSize() - length) {
            throw new IndexOutOfBoundsException("bytes [" + offset + ", " + offset + " + " + length + ") of a segment of "
                    + memory.byteSize());
        }
        add(memory.address() + offset, length, 0);
        segments[count - 1] = memory;
        return this;
    }

    /**
     * Appends all of {@code memory}, as {@link #add(MemorySegment, long, int)} does.
     *
     * @param memory native memory of at most {@link Integer#MAX_VALUE} bytes, open now
     * @return this list
     * @throws IllegalStateException when the list is full, or the segment's arena is closed
     * @throws IllegalArgumentException if the segment is not native or is too long for one entry
     */
    public ScatterGatherList add(MemorySegment memory) {
        if (memory.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a segment of " + memory.byteSize() + " bytes is too long for one entry");
        }
        return add(memory, 0, (int) memory.byteSize());
    }

    /**
     * Appends {@code length} bytes of a region starting {@code offset} bytes into it.
     *
     * @param region the registered memory
     * @param offset bytes from the region's start
     * @param length bytes, 0 or more
     * @return this list
     * @throws IllegalStateException when the list is full
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public ScatterGatherList add(MemoryRegion region, long offset, int length) {
        return add(region.localAddress() + offset, length, region.lkey());
    }

    /**
     * Clears the list and adds one entry.
     *
     * @param region the registered memory
     * @param offset bytes from the region's start
     * @param length bytes, 0 or more
     * @return this list
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public ScatterGatherList set(MemoryRegion region, long offset, int length) {
        return clear().add(region, offset, length);
    }

    /**
     * The number of entries.
     *
     * @return 0 to {@link #capacity()}; a request's {@code num_sge}
     */
    public int count() {
        return count;
    }

    /**
     * The entry capacity.
     *
     * @return the capacity given at construction
     */
    public int capacity() {
        return addresses.length;
    }

    /**
     * The address of entry {@code i}.
     *
     * @param i the entry, below {@link #count()}
     * @return the virtual address ({@code addr})
     * @throws IndexOutOfBoundsException if {@code i} is not below {@link #count()}
     */
    public long address(int i) {
        return addresses[check(i)];
    }

    /**
     * The length of entry {@code i}.
     *
     * @param i the entry, below {@link #count()}
     * @return bytes ({@code length})
     * @throws IndexOutOfBoundsException if {@code i} is not below {@link #count()}
     */
    public int length(int i) {
        return lengths[check(i)];
    }

    /**
     * The lkey of entry {@code i}.
     *
     * @param i the entry, below {@link #count()}
     * @return the local key ({@code lkey})
     * @throws IndexOutOfBoundsException if {@code i} is not below {@link #count()}
     */
    public int lkey(int i) {
        return lkeys[check(i)];
    }

    /**
     * The segment entry {@code i} was added with.
     *
     * @param i the entry, below {@link #count()}
     * @return the segment given to {@link #add(MemorySegment, long, int)}, or null for an entry
     *         given by address; the entry's bytes lie within it
     * @throws IndexOutOfBoundsException if {@code i} is not below {@link #count()}
     */
    public MemorySegment segment(int i) {
        return segments[check(i)];
    }

    /**
     * The sum of all entry lengths.
     *
     * @return the bytes the list covers
     */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += lengths[i];
        }
        return total;
    }

    /**
     * Copies another list's entries into this one.
     *
     * @param other the list to copy, unchanged
     * @return this list
     * @throws IllegalArgumentException if {@code other} has more entries than this list's capacity
     */
    public ScatterGatherList copyFrom(ScatterGatherList other) {
        if (other.count > addresses.length) {
            throw new IllegalArgumentException("source has " + other.count + " entries, capacity is " + addresses.length);
        }
        System.arraycopy(other.addresses, 0, addresses, 0, other.count);
        System.arraycopy(other.lengths, 0, lengths, 0, other.count);
        System.arraycopy(other.lkeys, 0, lkeys, 0, other.count);
        System.arraycopy(other.segments, 0, segments, 0, other.count);
        count = other.count;
        return this;
    }

    private int check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("entry " + i + " of " + count);
        }
        return i;
    }
}

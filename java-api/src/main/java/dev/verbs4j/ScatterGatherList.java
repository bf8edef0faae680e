package dev.verbs4j;

/**
 * A reusable list of scatter/gather entries ({@code struct ibv_sge[]}): each entry is a
 * local address, a length and the lkey of the region that holds it. The capacity is
 * fixed at construction; filling and clearing the list allocates nothing.
 */
public final class ScatterGatherList {
    private final long[] addresses;
    private final int[] lengths;
    private final int[] lkeys;
    private int count;

    /** A list with room for {@code capacity} entries. */
    public ScatterGatherList(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        addresses = new long[capacity];
        lengths = new int[capacity];
        lkeys = new int[capacity];
    }

    /** Removes all entries. */
    public ScatterGatherList clear() {
        count = 0;
        return this;
    }

    /**
     * Appends an entry.
     *
     * @throws IllegalStateException when the list is full
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
        count++;
        return this;
    }

    /** Appends {@code length} bytes of a region starting {@code offset} bytes into it. */
    public ScatterGatherList add(MemoryRegion region, long offset, int length) {
        return add(region.localAddress() + offset, length, region.lkey());
    }

    /** Clears the list and adds one entry. */
    public ScatterGatherList set(MemoryRegion region, long offset, int length) {
        return clear().add(region, offset, length);
    }

    /** The number of entries. */
    public int count() {
        return count;
    }

    /** The entry capacity. */
    public int capacity() {
        return addresses.length;
    }

    /** The address of entry {@code i}. */
    public long address(int i) {
        return addresses[check(i)];
    }

    /** The length of entry {@code i}. */
    public int length(int i) {
        return lengths[check(i)];
    }

    /** The lkey of entry {@code i}. */
    public int lkey(int i) {
        return lkeys[check(i)];
    }

    /** The sum of all entry lengths. */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += lengths[i];
        }
        return total;
    }

    /** Copies another list's entries into this one. */
    public ScatterGatherList copyFrom(ScatterGatherList other) {
        if (other.count > addresses.length) {
            throw new IllegalArgumentException("source has " + other.count + " entries, capacity is " + addresses.length);
        }
        System.arraycopy(other.addresses, 0, addresses, 0, other.count);
        System.arraycopy(other.lengths, 0, lengths, 0, other.count);
        System.arraycopy(other.lkeys, 0, lkeys, 0, other.count);
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

package dev.verbs4j.nvmeof.host;

import dev.verbs4j.MemoryRegion;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RegisteredArena;

import java.lang.foreign.MemorySegment;

/**
 * Keys of the registered regions themselves, for devices with neither fast registration
 * nor type 2 windows: the controller may reach the whole region the buffer lies in for as
 * long as it is registered, so nothing is invalidated, and a host that cannot trust its
 * controller should not use these.
 */
final class RegionKeys implements BufferKeys {
    private final RegisteredArena arena;
    private final long[] addresses;

    RegionKeys(RegisteredArena arena, int slots) {
        this.arena = arena;
        this.addresses = new long[slots];
    }

    @Override
    public int grant(int slot, MemorySegment buffer, int length, boolean remoteWrite, QueuePair qp) {
        MemoryRegion region = arena.regionOf(buffer);
        if (region == null) {
            throw new IllegalArgumentException("the buffer is not in the host's registered memory");
        }
        addresses[slot] = region.address() + (buffer.address() - region.memory().address());
        return region.rkey();
    }

    @Override
    public long address(int slot) {
        return addresses[slot];
    }

    @Override
    public boolean invalidates() {
        return false;
    }

    @Override
    public void close() {
    }
}

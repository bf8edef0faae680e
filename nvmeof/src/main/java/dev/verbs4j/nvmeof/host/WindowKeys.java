package dev.verbs4j.nvmeof.host;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RegisteredArena;
import dev.verbs4j.SendWorkRequest;

import java.lang.foreign.MemorySegment;

/**
 * Keys by type 2 memory windows, where libibverbs offers no fast registration: one window
 * per slot, bound over the buffer by a BIND_MW work request under a fresh key, invalidated
 * like a fast-registered key. The buffers' region must allow window binding.
 */
final class WindowKeys implements BufferKeys {
    private final RegisteredArena arena;
    private final MemoryWindow[] windows;
    private final int[] keys;
    private final long[] addresses;
    private final SendWorkRequest[] binds;

    WindowKeys(ProtectionDomain pd, RegisteredArena arena, int slots) {
        this.arena = arena;
        windows = new MemoryWindow[slots];
        keys = new int[slots];
        addresses = new long[slots];
        binds = new SendWorkRequest[slots];
        try {
            for (int i = 0; i < slots; i++) {
                windows[i] = pd.allocateMw(MwType.TYPE_2);
                keys[i] = windows[i].rkey();
                binds[i] = new SendWorkRequest(1).signaled(false);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public int grant(int slot, MemorySegment buffer, int length, boolean remoteWrite, QueuePair qp) {
        MemoryRegion region = arena.regionOf(buffer);
        if (region == null) {
            throw new IllegalArgumentException("the buffer is not in the host's registered memory");
        }
        long address = region.address() + (buffer.address() - region.memory().address());
        int key = MemoryWindow.incrementRkey(keys[slot]);
        keys[slot] = key;
        addresses[slot] = address;
        int access = remoteWrite ? Access.REMOTE_WRITE.value() | Access.LOCAL_WRITE.value() : Access.REMOTE_READ.value();
        binds[slot].wrId(slot).bindMw(windows[slot], key, region, address, length, access);
        qp.postSend(binds[slot]);
        return key;
    }

    @Override
    public long address(int slot) {
        return addresses[slot];
    }

    @Override
    public boolean invalidates() {
        return true;
    }

    @Override
    public void close() {
        for (MemoryWindow w : windows) {
            if (w != null) {
                w.close();
            }
        }
    }
}

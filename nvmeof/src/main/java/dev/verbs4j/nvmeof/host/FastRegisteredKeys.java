package dev.verbs4j.nvmeof.host;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SendWorkRequest;

import java.lang.foreign.MemorySegment;

/**
 * Keys by fast registration, as the Linux host makes them: one fast-register region per
 * slot, mapped over the buffer's pages by a REG_MR work request under a fresh key (the low
 * byte counts up), so that the controller reaches exactly the buffer and only until the
 * command ends. The buffers must lie in memory registered in the same protection domain.
 */
final class FastRegisteredKeys implements BufferKeys {
    private static final int PAGE_SHIFT = 12;
    private static final long PAGE = 1L << PAGE_SHIFT;

    private final MemoryRegion[] regions;
    private final int[] keys;
    private final long[] addresses;
    private final long[][] pages;
    private final SendWorkRequest[] registrations;

    FastRegisteredKeys(ProtectionDomain pd, int slots, int maxTransferBytes) {
        int maxPages = (int) (maxTransferBytes / PAGE) + 1;
        regions = new MemoryRegion[slots];
        keys = new int[slots];
        addresses = new long[slots];
        pages = new long[slots][maxPages];
        registrations = new SendWorkRequest[slots];
        try {
            for (int i = 0; i < slots; i++) {
                regions[i] = pd.allocateFastRegMr(maxPages);
                keys[i] = regions[i].rkey();
                registrations[i] = new SendWorkRequest(1).signaled(false);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public int grant(int slot, MemorySegment buffer, int length, boolean remoteWrite, QueuePair qp) {
        long address = buffer.address();
        long first = address & ~(PAGE - 1);
        int count = (int) ((address + length - first + PAGE - 1) >>> PAGE_SHIFT);
        long[] list = pages[slot];
        if (count > list.length) {
            throw new IllegalArgumentException(length + " bytes need " + count + " pages, more than " + list.length);
        }
        for (int i = 0; i < count; i++) {
            list[i] = first + i * PAGE;
        }
        int key = MemoryWindow.incrementRkey(keys[slot]);
        keys[slot] = key;
        addresses[slot] = address;
        int access = remoteWrite ? Access.LOCAL_WRITE.value() | Access.REMOTE_WRITE.value() : Access.REMOTE_READ.value();
        registrations[slot].wrId(slot).registerMr(regions[slot], key, list, count, PAGE_SHIFT, address, length, access);
        qp.postSend(registrations[slot]);
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
        for (MemoryRegion r : regions) {
            if (r != null) {
                r.close();
            }
        }
    }
}

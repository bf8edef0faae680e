package dev.verbs4j.softroce;

import dev.verbs4j.Errno;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.memory.MemoryTable;
import dev.verbs4j.softroce.memory.Region;

/**
 * The post-time check for memory freed while registered: a work request whose entry names
 * such a region is refused ({@code EFAULT}), the region is invalidated (a peer's request
 * through its keys gets REM_ACCESS_ERR from then on) and counted. Inline data would
 * otherwise be copied out of freed memory at post time. Allocates nothing unless it refuses.
 */
final class FreedMemory {
    private FreedMemory() {
    }

    static void refuse(DeviceEngine device, SoftPd pd, ScatterGatherList sges) {
        MemoryTable memory = device.memory();
        for (int i = 0; i < sges.count(); i++) {
            Region freed = memory.freedRegionNamed(sges.lkey(i), pd.handle);
            if (freed != null) {
                device.lock().lock();
                try {
                    memory.foundFreed(freed);
                } finally {
                    device.lock().unlock();
                }
                throw new VerbsException(Errno.EFAULT, message(i, sges.lkey(i)));
            }
        }
    }

    static String message(int entry, int lkey) {
        return "entry " + entry + " names the region with lkey 0x" + Integer.toHexString(lkey) + ", whose memory was freed"
                + " while it was registered; the region is invalid now (keep an arena open until its regions are closed,"
                + " or allocate from a RegisteredArena)";
    }
}

package dev.verbs4j.conformance.fuzz;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.Gid;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ScatterGatherList;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;

/**
 * Random arguments, valid and invalid in the ways a careless caller gets them wrong: keys of
 * live, closed or made-up objects, addresses around a region's edges, lengths of zero or too
 * many. A destination address is never one a peer could not be (a route goes to this
 * host's own GIDs or to none), which keeps the runs honest rather than destructive. Inline
 * data, which a provider copies at post time, comes from a live segment, from a region's
 * range (live or closed, inside or past its end), or from a made-up address that no segment
 * bounds: the providers must refuse the last kinds with {@code EINVAL}, never fault.
 */
final class Args {
    private static final Access[] ACCESS = Access.values();

    private final Random random;
    private final World world;
    private final FuzzMain.Routes routes;

    Args(Random random, World world, FuzzMain.Routes routes) {
        this.random = random;
        this.world = world;
        this.routes = routes;
    }

    Random random() {
        return random;
    }

    int below(int bound) {
        return random.nextInt(bound);
    }

    boolean chance(int oneIn) {
        return random.nextInt(oneIn) == 0;
    }

    <T> T oneOf(T[] values) {
        return values[random.nextInt(values.length)];
    }

    /** Mostly small counts, sometimes the edges: 0, 1, a typical size, a large one, negative. */
    int count() {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> 1 << 20;
            default -> 1 + random.nextInt(64);
        };
    }

    /** A set of access flags: usually a common one, sometimes anything. */
    Set<Access> access() {
        EnumSet<Access> set = EnumSet.noneOf(Access.class);
        if (chance(2)) {
            set.add(Access.LOCAL_WRITE);
            if (chance(2)) {
                set.add(Access.REMOTE_WRITE);
            }
            if (chance(2)) {
                set.add(Access.REMOTE_READ);
            }
            if (chance(3)) {
                set.add(Access.REMOTE_ATOMIC);
            }
            if (chance(3)) {
                set.add(Access.MW_BIND);
            }
            return set;
        }
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            set.add(oneOf(ACCESS));
        }
        return set;
    }

    int accessMask() {
        return chance(8) ? random.nextInt() : Access.toMask(access());
    }

    /** The rkey a LOCAL_INV or SEND_WITH_INV names: as {@link #rkey}, but no window's where the device may not take it. */
    int invalidatedKey() {
        int key = rkey();
        if (!routes.invalidatesWindows()) {
            while (namesALiveWindow(key)) {
                key = random.nextInt();
            }
        }
        return key;
    }

    /** Whether the key's index (all but its low byte) is a live window's: the kernel finds windows by index. */
    private boolean namesALiveWindow(int key) {
        for (MemoryWindow w : world.windows.live()) {
            if (w.rkey() >>> 8 == key >>> 8) {
                return true;
            }
        }
        return false;
    }

    /** An rkey: of a live or closed region or window, a stepped one, or made up. */
    int rkey() {
        switch (random.nextInt(4)) {
            case 0 -> {
                MemoryRegion r = world.regions.pick(random);
                if (r != null) {
                    return r.rkey();
                }
            }
            case 1 -> {
                MemoryWindow w = world.windows.pick(random);
                if (w != null) {
                    return chance(2) ? w.rkey() : MemoryWindow.incrementRkey(w.rkey());
                }
            }
            default -> {
            }
        }
        return random.nextInt();
    }

    /** An address at a region's start, inside, around its end, or made up. */
    long remoteAddress() {
        MemoryRegion r = world.regions.pick(random);
        if (r == null || chance(6)) {
            return random.nextLong();
        }
        long length = Math.max(r.length(), 1);
        return switch (random.nextInt(4)) {
            case 0 -> r.address();
            case 1 -> r.address() + (random.nextLong(length) & ~7L);
            case 2 -> r.address() + length - random.nextInt(16);
            default -> r.address() - 8;
        };
    }

    /** A length: small, a whole page, larger than regions here, or zero. */
    int length() {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> 4096;
            case 2 -> 1 << 17;
            default -> 1 + random.nextInt(512);
        };
    }

    /**
     * Scatter/gather entries into {@code list} (cleared first). The lkey is a region's (live or
     * closed) or made up, and the device checks the range against it; inline entries are also
     * given as a live segment, or as an address no segment bounds.
     */
    void sges(ScatterGatherList list, boolean inline) {
        list.clear();
        int n = random.nextInt(Math.min(list.capacity(), 3) + 1);
        for (int i = 0; i < n; i++) {
            MemoryRegion r = world.regions.pick(random);
            if (inline && (r == null || !chance(3))) {
                MemorySegment s = world.liveSegment(random);
                int len = random.nextInt(65);
                if (s == null || chance(4)) {
                    // No segment bounds it and no region holds it: the provider must refuse it.
                    list.add(random.nextLong(), len, random.nextInt());
                } else {
                    list.add(s, random.nextLong(s.byteSize() - len), len);
                }
                continue;
            }
            if (r == null || chance(8)) {
                list.add(random.nextLong(), length(), random.nextInt());
            } else {
                long offset = chance(6) ? r.length() - 8 : random.nextLong(Math.max(r.length(), 1));
                list.add(r.localAddress() + offset, length(), chance(10) ? r.rkey() + 0x100 : r.lkey());
            }
        }
    }

    Gid gid() {
        return routes.gids().get(random.nextInt(routes.gids().size()));
    }

    /** Half the time a route to this device from its chosen GID; else any mix of GIDs, indices and ports. */
    AddressHandleAttributes route() {
        if (chance(2)) {
            return ownRoute();
        }
        return new AddressHandleAttributes(gid(), random.nextInt(3), chance(8) ? 2 : 1, random.nextInt(256),
                random.nextInt(256), random.nextInt(1 << 20), random.nextInt(16));
    }

    /** A route to this device, which a queue pair here can answer. */
    AddressHandleAttributes ownRoute() {
        return new AddressHandleAttributes(routes.gids().getFirst(), routes.ownIndex(), 1, 64, 0, 0, 0);
    }

    /** A queue pair number: of a live queue pair, or made up. */
    int qpn() {
        QueuePair qp = world.qps.pick(random);
        return qp == null || chance(6) ? random.nextInt(1 << 24) : qp.qpn();
    }
}

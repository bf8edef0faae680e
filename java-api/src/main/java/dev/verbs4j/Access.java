package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * Memory access rights of a region, window or queue pair ({@code enum ibv_access_flags}).
 */
public enum Access {
    LOCAL_WRITE(1),
    REMOTE_WRITE(1 << 1),
    REMOTE_READ(1 << 2),
    REMOTE_ATOMIC(1 << 3),
    MW_BIND(1 << 4),
    ZERO_BASED(1 << 5),
    ON_DEMAND(1 << 6),
    HUGETLB(1 << 7),
    /** Allows RDMA FLUSH with global-visibility placement (rdma-core 45+). */
    FLUSH_GLOBAL(1 << 8),
    /** Allows RDMA FLUSH with persistence placement (rdma-core 45+). */
    FLUSH_PERSISTENT(1 << 9),
    /** {@code IBV_ACCESS_RELAXED_ORDERING}, the first optional flag ({@code IBV_ACCESS_OPTIONAL_FIRST}). */
    RELAXED_ORDERING(1 << 20);

    private final int value;

    Access(int value) {
        this.value = value;
    }

    /** The {@code IBV_ACCESS_*} bit. */
    public int value() {
        return value;
    }

    /** The libibverbs bit mask of a set of rights. */
    public static int toMask(Set<Access> access) {
        int mask = 0;
        for (Access a : access) {
            mask |= a.value;
        }
        return mask;
    }

    /** The rights named by a libibverbs mask; unknown bits are ignored. */
    public static EnumSet<Access> fromMask(int mask) {
        EnumSet<Access> set = EnumSet.noneOf(Access.class);
        for (Access a : values()) {
            if ((mask & a.value) != 0) {
                set.add(a);
            }
        }
        return set;
    }
}

package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * Memory access rights of a region, window or queue pair ({@code enum ibv_access_flags}).
 */
public enum Access {
    /**
     * {@code IBV_ACCESS_LOCAL_WRITE}: the device may write the memory for this side's own receives,
     * reads and atomics; required with any remote write or atomic right.
     */
    LOCAL_WRITE(1),

    /** {@code IBV_ACCESS_REMOTE_WRITE}: peers may RDMA WRITE into the memory. */
    REMOTE_WRITE(1 << 1),

    /** {@code IBV_ACCESS_REMOTE_READ}: peers may RDMA READ the memory. */
    REMOTE_READ(1 << 2),

    /** {@code IBV_ACCESS_REMOTE_ATOMIC}: peers may run atomic operations on the memory. */
    REMOTE_ATOMIC(1 << 3),

    /** {@code IBV_ACCESS_MW_BIND}: memory windows may be bound to the region. */
    MW_BIND(1 << 4),

    /** {@code IBV_ACCESS_ZERO_BASED}: remote addresses count from 0 at the region's first byte. */
    ZERO_BASED(1 << 5),

    /**
     * {@code IBV_ACCESS_ON_DEMAND}: On-Demand Paging; pages are neither pinned nor touched at
     * registration.
     */
    ON_DEMAND(1 << 6),

    /** {@code IBV_ACCESS_HUGETLB}: the memory is backed by huge pages (a hint for ODP). */
    HUGETLB(1 << 7),

    /**
     * {@code IBV_ACCESS_FLUSH_GLOBAL}: allows RDMA FLUSH with global-visibility placement (rdma-core
     * 45+).
     */
    FLUSH_GLOBAL(1 << 8),

    /**
     * {@code IBV_ACCESS_FLUSH_PERSISTENT}: allows RDMA FLUSH with persistence placement (rdma-core
     * 45+).
     */
    FLUSH_PERSISTENT(1 << 9),

    /** {@code IBV_ACCESS_RELAXED_ORDERING}, the first optional flag ({@code IBV_ACCESS_OPTIONAL_FIRST}). */
    RELAXED_ORDERING(1 << 20);


    private final int value;

    Access(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_ACCESS_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The libibverbs bit mask of a set of rights.
     *
     * @param access the rights
     * @return the OR of their {@code IBV_ACCESS_*} bits, as {@code ibv_reg_mr} takes them
     */
    public static int toMask(Set<Access> access) {
        int mask = 0;
        for (Access a : access) {
            mask |= a.value;
        }
        return mask;
    }

    /**
     * The rights named by a libibverbs mask; unknown bits are ignored.
     *
     * @param mask an {@code access} word, e.g. {@code ibv_qp_attr.qp_access_flags}
     * @return a new set
     */
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

package dev.verbs4j;

import java.util.Set;

/**
 * A memory window ({@code struct ibv_mw}): remote access to part of a region, granted
 * and revoked without re-registering. Closing it deallocates it ({@code ibv_dealloc_mw}),
 * which also invalidates it.
 */
public interface MemoryWindow extends AutoCloseable {
    /** The window's type. */
    MwType type();

    /** The current rkey (its low 8 bits step on every bind). */
    int rkey();

    /**
     * Binds a type 1 window ({@code ibv_bind_mw}): posts a BIND_MW work request on
     * {@code qp}, completing with {@link WcOpcode#BIND_MW} when {@code signaled}. A
     * zero-length bind invalidates the window.
     *
     * @return the new rkey
     * @throws VerbsException {@code EINVAL} for a type 2 window or a missing region,
     *         {@code EPERM} for a region of another PD; a region without
     *         {@link Access#MW_BIND}, rights it cannot grant or a range outside it complete
     *         the bind with {@code MW_BIND_ERR}, as the kernel rxe reports them
     */
    int bind(QueuePair qp, long wrId, boolean signaled, MemoryRegion region, long address, long length, Set<Access> access);

    /** Deallocates the window. */
    @Override
    void close();

    /** The next rkey for a window or region bind: the low 8 bits step by one ({@code ibv_inc_rkey}). */
    static int incrementRkey(int rkey) {
        return (rkey & 0xffffff00) | ((rkey + 1) & 0xff);
    }
}

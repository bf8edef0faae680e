package dev.verbs4j;

import java.util.Set;

/**
 * A memory window ({@code struct ibv_mw}): remote access to part of a region, granted
 * and revoked without re-registering. Closing it deallocates it ({@code ibv_dealloc_mw}),
 * which also invalidates it.
 */
public interface MemoryWindow extends AutoCloseable {
    /**
     * The window's type.
     *
     * @return type 1 or type 2 ({@code ibv_mw.type})
     */
    MwType type();

    /**
     * The current rkey (its low 8 bits step on every bind).
     * It is {@code ibv_mw.rkey}.
     *
     * @return the key a peer uses to reach the bound memory
     */
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
     * @param qp a queue pair of the window's protection domain, in RTS
     * @param wrId the id of the bind's completion
     * @param signaled whether a successful bind produces a completion
     * @param region the region to expose
     * @param address the first byte of the range, inside the region
     * @param length bytes in the range; 0 invalidates the window
     * @param access the remote rights the window grants
     */
    int bind(QueuePair qp, long wrId, boolean signaled, MemoryRegion region, long address, long length, Set<Access> access);

    /**
     * Deallocates the window.
     *
     * @throws VerbsException with the errno {@code ibv_dealloc_mw} gives
     */
    @Override
    void close();

    /**
     * The next rkey for a window or region bind: the low 8 bits step by one ({@code ibv_inc_rkey}).
     *
     * @param rkey the current key
     * @return the key with its low byte incremented (wrapping from 0xff to 0)
     */
    static int incrementRkey(int rkey) {
        return (rkey & 0xffffff00) | ((rkey + 1) & 0xff);
    }
}

package dev.verbs4j.spi;

/**
 * What a provider's memory region offers {@link dev.verbs4j.RegisteredArena}: taking away
 * every key that reaches the region's memory ({@code ibv_dealloc_mw}, {@code IBV_WR_LOCAL_INV},
 * {@code ibv_dereg_mr}), so the memory can be freed.
 */
public interface RevocableRegion {
    /**
     * Deregisters the region after deallocating every memory window bound to it (closing
     * their {@link dev.verbs4j.MemoryWindow} objects) and, on a provider with fast
     * registration, invalidating every fast-registered region over its memory. When it
     * returns, no local or remote request reaches the memory through any key. A closed
     * region is left as it is.
     *
     * @throws dev.verbs4j.VerbsException when the provider refuses to deregister; the region
     *         then stays registered
     */
    void revoke();
}

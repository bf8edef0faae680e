package dev.verbs4j.conformance.access;

/** The ways a key stops naming memory. */
enum Revocation {
    /** A LOCAL_INV work request on the owner's queue pair. */
    LOCAL_INVALIDATE("revokedByLocalInvalidate", "revoked by LOCAL_INV"),
    /** The object bound or registered again under a new key; the old key is stale. */
    REBIND("revokedByRebind", "stale after a new bind or registration"),
    /** The window deallocated ({@code ibv_dealloc_mw}). */
    DEALLOC("revokedByDealloc", "of a deallocated window"),
    /** The region deregistered ({@code ibv_dereg_mr}). */
    DEREG("revokedByDereg", "of a deregistered region");

    private final String id;
    private final String description;

    Revocation(String id, String description) {
        this.id = id;
        this.description = description;
    }

    String id() {
        return id;
    }

    String description() {
        return description;
    }
}

package dev.verbs4j.softroce.memory;

/**
 * A keyed object of the memory table: a region or a window. The key is
 * {@code index << 8 | variant}: the index selects the table slot, the low 8 bits are the
 * consumer-visible part that steps on every re-bind, so a stale key never matches.
 */
public abstract sealed class MemoryObject permits Region, Window {
    /** Valid: may be accessed. */
    public static final int VALID = 0;
    /** Allocated but not usable: an unbound window, or an unregistered fast-register region. */
    public static final int FREE = 1;
    /** Invalidated by LOCAL_INV or SEND_WITH_INV; a new bind or registration makes it valid. */
    public static final int INVALID = 2;

    private final int index;
    private final int pdHandle;
    int key;
    int state;

    MemoryObject(int index, int pdHandle, int key, int state) {
        this.index = index;
        this.pdHandle = pdHandle;
        this.key = key;
        this.state = state;
    }

    public final int index() {
        return index;
    }

    /** The handle of the protection domain that owns it. */
    public final int pdHandle() {
        return pdHandle;
    }

    /** The current key (rkey, and for regions also lkey). */
    public final int key() {
        return key;
    }

    public final int state() {
        return state;
    }

    /** Makes the object unusable until it is bound or registered again. */
    public final void invalidate() {
        state = INVALID;
    }
}

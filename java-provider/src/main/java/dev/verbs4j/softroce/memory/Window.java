package dev.verbs4j.softroce.memory;

/**
 * A memory window: remote access to part of a region, granted by a bind and revoked by
 * invalidation or a zero-length bind. A type 2 window answers only through the QP it was
 * bound with (IBTA 10.6.7.2.1).
 */
public final class Window extends MemoryObject {
    private final int type;
    private Region region;
    private long address;
    private long length;
    private int access;
    private int boundQpn = -1;

    Window(int index, int pdHandle, int key, int type) {
        super(index, pdHandle, key, FREE);
        this.type = type;
    }

    /** 1 or 2. */
    public int type() {
        return type;
    }

    public Region region() {
        return region;
    }

    /** First remote address covered (in the region's address space). */
    public long address() {
        return address;
    }

    public long length() {
        return length;
    }

    public int access() {
        return access;
    }

    /** The QP a type 2 window is bound to, or -1. */
    public int boundQpn() {
        return boundQpn;
    }

    void bind(Region target, long addr, long len, int rights, int newKey, int qpn) {
        unbind();
        region = target;
        address = addr;
        length = len;
        access = rights;
        key = newKey;
        boundQpn = type == 2 ? qpn : -1;
        state = VALID;
        target.windowBound();
    }

    /** Drops the binding (invalidate, dealloc, zero-length bind). */
    void unbind() {
        if (region != null) {
            region.windowUnbound();
            region = null;
        }
        length = 0;
        boundQpn = -1;
    }
}

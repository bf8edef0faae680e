package dev.verbs4j;

import java.util.Objects;

/**
 * A send work request ({@code struct ibv_send_wr}, or one {@code ibv_wr_*} call of the
 * extended post API). Reusable and caller-owned: posting copies it into the queue, so
 * the same object may be refilled and posted again at once; nothing is allocated.
 *
 * <p>Each operation method sets the opcode and the fields that operation reads, and
 * leaves the others alone (as the union in {@code ibv_send_wr} does); the scatter/gather
 * list, the id and the flags are set separately:
 * <pre>{@code
 * wr.wrId(7).signaled(true).buffer(mr, 0, 4096).rdmaWrite(remoteAddr, rkey);
 * qp.postSend(wr);
 * }</pre>
 */
public final class SendWorkRequest {
    private final ScatterGatherList sges;
    private long wrId;
    private WrOpcode opcode = WrOpcode.SEND;
    private int flags;
    private int immData;
    private int invalidateRkey;
    private long remoteAddress;
    private int rkey;
    private long compareAdd;
    private long swap;
    private long remoteLength;
    private int flushType;
    private FlushLevel flushLevel = FlushLevel.RANGE;
    private AddressHandle ah;
    private int remoteQpn;
    private int remoteQkey;
    private MemoryWindow mw;
    private MemoryRegion region;
    private int newKey;
    private int accessMask;
    private long bindAddress;
    private long bindLength;
    private long[] pages;
    private int pageCount;
    private int pageShift;

    /** A request with room for {@code maxSge} gather entries. */
    public SendWorkRequest(int maxSge) {
        sges = new ScatterGatherList(maxSge);
    }

    /** A request with one gather entry. */
    public SendWorkRequest() {
        this(1);
    }

    // ---- id, flags, gather list -------------------------------------------------------

    public long wrId() {
        return wrId;
    }

    /** Sets the caller's id, returned in the completion. */
    public SendWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    public WrOpcode opcode() {
        return opcode;
    }

    /** The {@link SendFlag} bits. */
    public int flags() {
        return flags;
    }

    /** Sets all {@link SendFlag} bits at once. */
    public SendWorkRequest flags(int sendFlags) {
        this.flags = sendFlags;
        return this;
    }

    /** Whether a completion is generated even when the QP does not signal all requests. */
    public SendWorkRequest signaled(boolean on) {
        return flag(SendFlag.SIGNALED, on);
    }

    /** Whether the request waits for prior RDMA READs and atomics to complete. */
    public SendWorkRequest fence(boolean on) {
        return flag(SendFlag.FENCE, on);
    }

    /** Whether the receiver's solicited-only notification fires for this message. */
    public SendWorkRequest solicited(boolean on) {
        return flag(SendFlag.SOLICITED, on);
    }

    /**
     * Whether the data is copied at post time (up to the QP's max inline size); lkeys are then
     * not checked, as in libibverbs, and the memory may be reused as soon as the post returns.
     */
    public SendWorkRequest inline(boolean on) {
        return flag(SendFlag.INLINE, on);
    }

    public boolean isSignaled() {
        return SendFlag.SIGNALED.isSet(flags);
    }

    private SendWorkRequest flag(SendFlag flag, boolean on) {
        flags = on ? flags | flag.value() : flags & ~flag.value();
        return this;
    }

    /** The gather list (local data for sends and writes; local destination for reads and atomics). */
    public ScatterGatherList sges() {
        return sges;
    }

    /** Sets one gather entry: {@code length} bytes of {@code region} at {@code offset}. */
    public SendWorkRequest buffer(MemoryRegion region, long offset, int length) {
        sges.set(region, offset, length);
        return this;
    }

    // ---- operations ------------------------------------------------------------------

    /** SEND: the data lands in the peer's next receive. */
    public SendWorkRequest send() {
        opcode = WrOpcode.SEND;
        return this;
    }

    /** SEND with 32 bits of immediate data, reported in the peer's receive completion. */
    public SendWorkRequest sendWithImm(int imm) {
        opcode = WrOpcode.SEND_WITH_IMM;
        immData = imm;
        return this;
    }

    /** SEND that also invalidates {@code rkey} (a window or fast-registered region) at the peer. */
    public SendWorkRequest sendWithInv(int rkeyToInvalidate) {
        opcode = WrOpcode.SEND_WITH_INV;
        invalidateRkey = rkeyToInvalidate;
        return this;
    }

    /** RDMA WRITE of the gather list to {@code remoteAddress} under {@code rkey}. */
    public SendWorkRequest rdmaWrite(long remoteAddress, int rkey) {
        return remote(WrOpcode.RDMA_WRITE, remoteAddress, rkey);
    }

    /** RDMA WRITE that also consumes a peer receive, reporting {@code imm}. */
    public SendWorkRequest rdmaWriteWithImm(long remoteAddress, int rkey, int imm) {
        immData = imm;
        return remote(WrOpcode.RDMA_WRITE_WITH_IMM, remoteAddress, rkey);
    }

    /** RDMA READ from {@code remoteAddress} into the scatter list. */
    public SendWorkRequest rdmaRead(long remoteAddress, int rkey) {
        return remote(WrOpcode.RDMA_READ, remoteAddress, rkey);
    }

    /** 64-bit compare-and-swap at an 8-byte aligned address; the original value lands in the first entry. */
    public SendWorkRequest compareAndSwap(long remoteAddress, int rkey, long compare, long swapValue) {
        compareAdd = compare;
        swap = swapValue;
        return remote(WrOpcode.ATOMIC_CMP_AND_SWP, remoteAddress, rkey);
    }

    /** 64-bit fetch-and-add at an 8-byte aligned address; the original value lands in the first entry. */
    public SendWorkRequest fetchAndAdd(long remoteAddress, int rkey, long add) {
        compareAdd = add;
        return remote(WrOpcode.ATOMIC_FETCH_AND_ADD, remoteAddress, rkey);
    }

    /**
     * RDMA ATOMIC WRITE: stores 8 bytes at an 8-byte aligned address as one atomic store.
     * The value is laid out in native byte order, so the responder reads it back with
     * an ordinary native-order {@code long} load.
     */
    public SendWorkRequest atomicWrite(long remoteAddress, int rkey, long value) {
        swap = value;
        return remote(WrOpcode.ATOMIC_WRITE, remoteAddress, rkey);
    }

    /**
     * RDMA FLUSH: makes the preceding writes of this QP to the range (or the whole region
     * for {@link FlushLevel#MR}) globally visible and/or persistent.
     *
     * @param typeMask {@link FlushType} bits; one or both
     */
    public SendWorkRequest flush(long remoteAddress, int rkey, long length, int typeMask, FlushLevel level) {
        remoteLength = length;
        flushType = typeMask;
        flushLevel = level;
        return remote(WrOpcode.FLUSH, remoteAddress, rkey);
    }

    /** RDMA FLUSH with one placement type. */
    public SendWorkRequest flush(long remoteAddress, int rkey, long length, FlushType type, FlushLevel level) {
        return flush(remoteAddress, rkey, length, type.value(), level);
    }

    /** LOCAL_INV: invalidates a local type 2 window or fast-registered region. */
    public SendWorkRequest localInvalidate(int rkeyOrLkey) {
        opcode = WrOpcode.LOCAL_INV;
        invalidateRkey = rkeyOrLkey;
        return this;
    }

    /**
     * BIND_MW: binds a type 2 window to {@code length} bytes of {@code region} at
     * {@code address}, under the rkey {@code newRkey} (whose low 8 bits the caller
     * chooses, usually {@link MemoryWindow#incrementRkey}).
     */
    public SendWorkRequest bindMw(MemoryWindow window, int newRkey, MemoryRegion region, long address, long length, int accessMask) {
        opcode = WrOpcode.BIND_MW;
        mw = window;
        newKey = newRkey;
        this.region = region;
        bindAddress = address;
        bindLength = length;
        this.accessMask = accessMask;
        return this;
    }

    /**
     * REG_MR: fast-registers {@code region} (from {@link ProtectionDomain#allocateFastRegMr})
     * over {@code pageCount} pages of {@code 1 << pageShift} bytes, so that remote and
     * local requests address it from {@code iova} for {@code length} bytes, the first
     * byte being {@code iova - (iova & ~pageMask)} bytes into the first page. The key
     * becomes {@code newKey}. The page array is read when the request is posted. The soft
     * provider needs each page to lie in memory already registered in the same protection
     * domain (a Java process reaches native memory through its segments).
     *
     * @throws NullPointerException     if {@code pageAddresses} is null
     * @throws IllegalArgumentException if {@code pageCount} is negative or exceeds the array
     */
    public SendWorkRequest registerMr(MemoryRegion region, int newKey, long[] pageAddresses, int pageCount,
                                      int pageShift, long iova, long length, int accessMask) {
        Objects.requireNonNull(pageAddresses, "pageAddresses");
        if (pageCount < 0 || pageCount > pageAddresses.length) {
            throw new IllegalArgumentException("page count " + pageCount + " outside the array of " + pageAddresses.length);
        }
        opcode = WrOpcode.REG_MR;
        this.region = region;
        this.newKey = newKey;
        pages = pageAddresses;
        this.pageCount = pageCount;
        this.pageShift = pageShift;
        bindAddress = iova;
        bindLength = length;
        this.accessMask = accessMask;
        return this;
    }

    /** UD addressing: the destination of a datagram send. */
    public SendWorkRequest ud(AddressHandle addressHandle, int remoteQpn, int remoteQkey) {
        ah = addressHandle;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
        return this;
    }

    private SendWorkRequest remote(WrOpcode op, long address, int key) {
        opcode = op;
        remoteAddress = address;
        rkey = key;
        return this;
    }

    // ---- fields read by providers ----------------------------------------------------

    public int immData() {
        return immData;
    }

    /** The rkey a SEND_WITH_INV or LOCAL_INV invalidates. */
    public int invalidateRkey() {
        return invalidateRkey;
    }

    public long remoteAddress() {
        return remoteAddress;
    }

    public int rkey() {
        return rkey;
    }

    /** The compare operand of CAS, or the addend of FAA. */
    public long compareAdd() {
        return compareAdd;
    }

    /** The swap operand of CAS, or the value of ATOMIC WRITE. */
    public long swap() {
        return swap;
    }

    /** The remote length of a FLUSH. */
    public long remoteLength() {
        return remoteLength;
    }

    /** The {@link FlushType} bits of a FLUSH. */
    public int flushType() {
        return flushType;
    }

    public FlushLevel flushLevel() {
        return flushLevel;
    }

    public AddressHandle ah() {
        return ah;
    }

    public int remoteQpn() {
        return remoteQpn;
    }

    public int remoteQkey() {
        return remoteQkey;
    }

    /** The window of a BIND_MW. */
    public MemoryWindow mw() {
        return mw;
    }

    /** The region of a BIND_MW or REG_MR. */
    public MemoryRegion region() {
        return region;
    }

    /** The new rkey of a BIND_MW, or the new key of a REG_MR. */
    public int newKey() {
        return newKey;
    }

    /** The {@link Access} bits granted by a BIND_MW or REG_MR. */
    public int accessMask() {
        return accessMask;
    }

    /** The bound address of a BIND_MW, or the I/O virtual address of a REG_MR. */
    public long bindAddress() {
        return bindAddress;
    }

    /** The bound length of a BIND_MW or REG_MR. */
    public long bindLength() {
        return bindLength;
    }

    /** The page addresses of a REG_MR. */
    public long[] pages() {
        return pages;
    }

    public int pageCount() {
        return pageCount;
    }

    public int pageShift() {
        return pageShift;
    }
}

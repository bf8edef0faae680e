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

    /**
     * A request with room for {@code maxSge} gather entries.
     *
     * @param maxSge the gather list's capacity, at least 1; a post fails with {@code EINVAL} when
     *        the entries in use exceed the queue pair's {@code max_send_sge}
     * @throws IllegalArgumentException if {@code maxSge} is less than 1
     */
    public SendWorkRequest(int maxSge) {
        sges = new ScatterGatherList(maxSge);
    }

    /** A request with one gather entry. */
    public SendWorkRequest() {
        this(1);
    }

    // ---- id, flags, gather list -------------------------------------------------------

    /**
     * The caller's id ({@code wr_id}), returned unchanged in this request's work completion.
     *
     * @return the id last set, 0 for a new request
     */
    public long wrId() {
        return wrId;
    }

    /**
     * Sets the caller's id, returned in the completion.
     *
     * @param id any 64-bit value; the provider never reads it
     * @return this request
     */
    public SendWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    /**
     * The operation ({@code opcode}) that the last operation method chose; {@link WrOpcode#SEND}
     * for a new request.
     *
     * @return the opcode
     */
    public WrOpcode opcode() {
        return opcode;
    }

    /**
     * The {@link SendFlag} bits.
     * Together they are {@code send_flags}.
     *
     * @return the {@link SendFlag#value()} bits set
     */
    public int flags() {
        return flags;
    }

    /**
     * Sets all {@link SendFlag} bits at once.
     *
     * @param sendFlags an OR of {@link SendFlag#value()} bits; unknown bits make the post fail
     *        with {@code EINVAL} in providers that check them
     * @return this request
     */
    public SendWorkRequest flags(int sendFlags) {
        this.flags = sendFlags;
        return this;
    }

    /**
     * Whether a completion is generated even when the QP does not signal all requests.
     * In libibverbs: {@code IBV_SEND_SIGNALED}. A queue pair created with {@code sq_sig_all} signals every request
     * whatever this says.
     *
     * @param on true to set the flag, false to clear it
     * @return this request
     */
    public SendWorkRequest signaled(boolean on) {
        return flag(SendFlag.SIGNALED, on);
    }

    /**
     * Whether the request waits for prior RDMA READs and atomics to complete.
     * In libibverbs: {@code IBV_SEND_FENCE}.
     *
     * @param on true to set the flag, false to clear it
     * @return this request
     */
    public SendWorkRequest fence(boolean on) {
        return flag(SendFlag.FENCE, on);
    }

    /**
     * Whether the receiver's solicited-only notification fires for this message.
     * In libibverbs: {@code IBV_SEND_SOLICITED}. A peer that armed its completion queue with
     * {@code solicited_only} gets its completion event for this message.
     *
     * @param on true to set the flag, false to clear it
     * @return this request
     */
    public SendWorkRequest solicited(boolean on) {
        return flag(SendFlag.SOLICITED, on);
    }

    /**
     * Whether the data is copied at post time (up to the QP's max inline size); the memory may be
     * reused as soon as the post returns. In libibverbs: {@code IBV_SEND_INLINE}. A post whose
     * gather list exceeds the queue pair's {@code max_inline_data} fails with {@code EINVAL}.
     * Unlike libibverbs, which reads whatever address an entry holds, both providers read inline
     * data only from memory they can bound-check: an entry added with a segment
     * ({@link ScatterGatherList#add(java.lang.foreign.MemorySegment, long, int)}), whose arena
     * must still be open, or an entry inside the registered region of this domain that its lkey
     * names. Any other entry fails the post with {@code EINVAL}, so no address can crash the JVM.
     *
     * @param on true to set the flag, false to clear it
     * @return this request
     */
    public SendWorkRequest inline(boolean on) {
        return flag(SendFlag.INLINE, on);
    }

    /**
     * Whether {@link SendFlag#SIGNALED} is set: the request asks for a completion.
     *
     * @return true if {@code IBV_SEND_SIGNALED} is among the flags
     */
    public boolean isSignaled() {
        return SendFlag.SIGNALED.isSet(flags);
    }

    private SendWorkRequest flag(SendFlag flag, boolean on) {
        flags = on ? flags | flag.value() : flags & ~flag.value();
        return this;
    }

    /**
     * The gather list (local data for sends and writes; local destination for reads and atomics).
     * It is {@code sg_list} and {@code num_sge}; fill it directly for several entries.
     *
     * @return the request's own list, never null
     */
    public ScatterGatherList sges() {
        return sges;
    }

    /**
     * Sets one gather entry: {@code length} bytes of {@code region} at {@code offset}.
     * The list then holds that one entry.
     *
     * @param region the registered memory that holds the data; its lkey goes into the entry
     * @param offset bytes from the start of the region
     * @param length bytes to send, write or read into; 0 is allowed
     * @return this request
     */
    public SendWorkRequest buffer(MemoryRegion region, long offset, int length) {
        sges.set(region, offset, length);
        return this;
    }

    // ---- operations ------------------------------------------------------------------

    /**
     * SEND: the data lands in the peer's next receive.
     * In libibverbs: {@code IBV_WR_SEND}. A receive that is too short completes at the peer with
     * {@link WcStatus#LOC_LEN_ERR}.
     *
     * @return this request
     */
    public SendWorkRequest send() {
        opcode = WrOpcode.SEND;
        return this;
    }

    /**
     * SEND with 32 bits of immediate data, reported in the peer's receive completion.
     * In libibverbs: {@code IBV_WR_SEND_WITH_IMM}.
     *
     * @param imm the immediate value in host order; providers put it on the wire in network
     *        order, as {@code imm_data} is, and the peer's completion gives it back in host order
     * @return this request
     */
    public SendWorkRequest sendWithImm(int imm) {
        opcode = WrOpcode.SEND_WITH_IMM;
        immData = imm;
        return this;
    }

    /**
     * SEND that also invalidates {@code rkey} (a window or fast-registered region) at the peer.
     * In libibverbs: {@code IBV_WR_SEND_WITH_INV}, {@code invalidate_rkey}. RC and XRC only.
     *
     * @param rkeyToInvalidate the peer's rkey to invalidate
     * @return this request
     */
    public SendWorkRequest sendWithInv(int rkeyToInvalidate) {
        opcode = WrOpcode.SEND_WITH_INV;
        invalidateRkey = rkeyToInvalidate;
        return this;
    }

    /**
     * RDMA WRITE of the gather list to {@code remoteAddress} under {@code rkey}.
     * In libibverbs: {@code IBV_WR_RDMA_WRITE}, {@code wr.rdma}. The peer's region needs
     * {@link Access#REMOTE_WRITE}, else the request completes with {@link WcStatus#REM_ACCESS_ERR}.
     *
     * @param remoteAddress the virtual address in the peer's region (its {@code addr} plus an offset)
     * @param rkey the peer region's or window's rkey
     * @return this request
     */
    public SendWorkRequest rdmaWrite(long remoteAddress, int rkey) {
        return remote(WrOpcode.RDMA_WRITE, remoteAddress, rkey);
    }

    /**
     * RDMA WRITE that also consumes a peer receive, reporting {@code imm}.
     * In libibverbs: {@code IBV_WR_RDMA_WRITE_WITH_IMM}.
     *
     * @param remoteAddress the virtual address in the peer's region
     * @param rkey the peer region's or window's rkey
     * @param imm the immediate value in host order, carried in network order as {@code imm_data}
     * @return this request
     */
    public SendWorkRequest rdmaWriteWithImm(long remoteAddress, int rkey, int imm) {
        immData = imm;
        return remote(WrOpcode.RDMA_WRITE_WITH_IMM, remoteAddress, rkey);
    }

    /**
     * RDMA READ from {@code remoteAddress} into the scatter list.
     * In libibverbs: {@code IBV_WR_RDMA_READ}. The local entries need regions with {@link Access#LOCAL_WRITE},
     * the peer's region {@link Access#REMOTE_READ}.
     *
     * @param remoteAddress the virtual address in the peer's region
     * @param rkey the peer region's or window's rkey
     * @return this request
     */
    public SendWorkRequest rdmaRead(long remoteAddress, int rkey) {
        return remote(WrOpcode.RDMA_READ, remoteAddress, rkey);
    }

    /**
     * 64-bit compare-and-swap at an 8-byte aligned address; the original value lands in the first entry.
     * In libibverbs: {@code IBV_WR_ATOMIC_CMP_AND_SWP}, {@code wr.atomic}. The peer's region needs
     * {@link Access#REMOTE_ATOMIC}.
     *
     * @param remoteAddress the peer's 8-byte aligned address
     * @param rkey the peer region's or window's rkey
     * @param compare the value expected there ({@code compare_add})
     * @param swapValue the value stored when it matches ({@code swap})
     * @return this request
     */
    public SendWorkRequest compareAndSwap(long remoteAddress, int rkey, long compare, long swapValue) {
        compareAdd = compare;
        swap = swapValue;
        return remote(WrOpcode.ATOMIC_CMP_AND_SWP, remoteAddress, rkey);
    }

    /**
     * 64-bit fetch-and-add at an 8-byte aligned address; the original value lands in the first entry.
     * In libibverbs: {@code IBV_WR_ATOMIC_FETCH_AND_ADD}. The peer's region needs {@link Access#REMOTE_ATOMIC}.
     *
     * @param remoteAddress the peer's 8-byte aligned address
     * @param rkey the peer region's or window's rkey
     * @param add the addend ({@code compare_add}); the sum wraps modulo 2^64
     * @return this request
     */
    public SendWorkRequest fetchAndAdd(long remoteAddress, int rkey, long add) {
        compareAdd = add;
        return remote(WrOpcode.ATOMIC_FETCH_AND_ADD, remoteAddress, rkey);
    }

    /**
     * RDMA ATOMIC WRITE: stores 8 bytes at an 8-byte aligned address as one atomic store.
     * The value is laid out in native byte order, so the responder reads it back with
     * an ordinary native-order {@code long} load.
     * libibverbs posts it with {@code ibv_wr_atomic_write}; the queue pair must allow
     * {@link WrOpcode#ATOMIC_WRITE}.
     *
     * @param remoteAddress the peer's 8-byte aligned address
     * @param rkey the peer region's or window's rkey
     * @param value the 8 bytes to store
     * @return this request
     */
    public SendWorkRequest atomicWrite(long remoteAddress, int rkey, long value) {
        swap = value;
        return remote(WrOpcode.ATOMIC_WRITE, remoteAddress, rkey);
    }

    /**
     * RDMA FLUSH: makes the preceding writes of this QP to the range (or the whole region
     * for {@link FlushLevel#MR}) globally visible and/or persistent.
     * libibverbs posts it with {@code ibv_wr_flush}; the queue pair must allow {@link WrOpcode#FLUSH}.
     *
     * @param typeMask {@link FlushType} bits; one or both
     * @param remoteAddress the start of the range in the peer's region
     * @param rkey the peer region's rkey; the region needs the matching {@code FLUSH_*} access
     * @param length bytes in the range (ignored for {@link FlushLevel#MR})
     * @param level the range or the whole region
     * @return this request
     */
    public SendWorkRequest flush(long remoteAddress, int rkey, long length, int typeMask, FlushLevel level) {
        remoteLength = length;
        flushType = typeMask;
        flushLevel = level;
        return remote(WrOpcode.FLUSH, remoteAddress, rkey);
    }

    /**
     * RDMA FLUSH with one placement type.
     *
     * @param remoteAddress the start of the range in the peer's region
     * @param rkey the peer region's rkey
     * @param length bytes in the range (ignored for {@link FlushLevel#MR})
     * @param type global visibility or persistence
     * @param level the range or the whole region
     * @return this request
     */
    public SendWorkRequest flush(long remoteAddress, int rkey, long length, FlushType type, FlushLevel level) {
        return flush(remoteAddress, rkey, length, type.value(), level);
    }

    /**
     * LOCAL_INV: invalidates a local type 2 window or fast-registered region.
     * In libibverbs: {@code IBV_WR_LOCAL_INV}.
     *
     * @param rkeyOrLkey the key to invalidate; later use of it fails with an access error
     * @return this request
     */
    public SendWorkRequest localInvalidate(int rkeyOrLkey) {
        opcode = WrOpcode.LOCAL_INV;
        invalidateRkey = rkeyOrLkey;
        return this;
    }

    /**
     * BIND_MW: binds a type 2 window to {@code length} bytes of {@code region} at
     * {@code address}, under the rkey {@code newRkey} (whose low 8 bits the caller
     * chooses, usually {@link MemoryWindow#incrementRkey}).
     * In libibverbs: {@code IBV_WR_BIND_MW}, {@code bind_mw}.
     *
     * @param window a type 2 window of this queue pair's protection domain
     * @param newRkey the rkey the window takes
     * @param region the region the window exposes; it needs {@link Access#MW_BIND}
     * @param address the first bound byte, inside the region
     * @param length bytes bound
     * @param accessMask the {@link Access} bits the window grants, remote ones only
     * @return this request
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
     * The request is the kernel's {@code IB_WR_REG_MR}, which libibverbs does not offer in user
     * space; this API carries it for the soft provider.
     *
     * @throws NullPointerException     if {@code pageAddresses} is null
     * @throws IllegalArgumentException if {@code pageCount} is negative or exceeds the array
     * @param region a fast-registration region
     * @param newKey the lkey and rkey the region takes
     * @param pageAddresses the pages' addresses; the first {@code pageCount} are read
     * @param pageCount how many pages the mapping covers
     * @param pageShift log2 of the page size in bytes
     * @param iova the I/O virtual address of the first mapped byte
     * @param length bytes mapped
     * @param accessMask the {@link Access} bits the registration grants
     * @return this request
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

    /**
     * UD addressing: the destination of a datagram send.
     * It is {@code wr.ud}; libibverbs' extended API sets it with {@code ibv_wr_set_ud_addr}.
     *
     * @param addressHandle the route to the destination port
     * @param remoteQpn the destination queue pair number (24 bits)
     * @param remoteQkey the destination's Q_Key; a mismatch drops the datagram silently
     * @return this request
     */
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

    /**
     * The immediate value of a SEND_WITH_IMM or RDMA_WRITE_WITH_IMM ({@code imm_data}).
     *
     * @return the value in host order
     */
    public int immData() {
        return immData;
    }

    /**
     * The rkey a SEND_WITH_INV or LOCAL_INV invalidates.
     *
     * @return the key ({@code invalidate_rkey})
     */
    public int invalidateRkey() {
        return invalidateRkey;
    }

    /**
     * The remote address of an RDMA or atomic request ({@code wr.rdma.remote_addr} or
     * {@code wr.atomic.remote_addr}).
     *
     * @return the address in the peer's region
     */
    public long remoteAddress() {
        return remoteAddress;
    }

    /**
     * The peer's rkey of an RDMA or atomic request ({@code wr.rdma.rkey}, {@code wr.atomic.rkey}).
     *
     * @return the rkey
     */
    public int rkey() {
        return rkey;
    }

    /**
     * The compare operand of CAS, or the addend of FAA.
     *
     * @return {@code wr.atomic.compare_add}
     */
    public long compareAdd() {
        return compareAdd;
    }

    /**
     * The swap operand of CAS, or the value of ATOMIC WRITE.
     *
     * @return {@code wr.atomic.swap}, or the ATOMIC WRITE value
     */
    public long swap() {
        return swap;
    }

    /**
     * The remote length of a FLUSH.
     *
     * @return the range's length in bytes
     */
    public long remoteLength() {
        return remoteLength;
    }

    /**
     * The {@link FlushType} bits of a FLUSH.
     *
     * @return {@code IBV_FLUSH_GLOBAL} and/or {@code IBV_FLUSH_PERSISTENT} bits
     */
    public int flushType() {
        return flushType;
    }

    /**
     * The placement level of a FLUSH ({@code IBV_FLUSH_RANGE} or {@code IBV_FLUSH_MR}).
     *
     * @return the level; {@link FlushLevel#RANGE} for a new request
     */
    public FlushLevel flushLevel() {
        return flushLevel;
    }

    /**
     * The address handle of a UD send ({@code wr.ud.ah}).
     *
     * @return the handle, or null before {@link #ud} is called
     */
    public AddressHandle ah() {
        return ah;
    }

    /**
     * The destination queue pair number of a UD send ({@code wr.ud.remote_qpn}).
     *
     * @return the number
     */
    public int remoteQpn() {
        return remoteQpn;
    }

    /**
     * The destination Q_Key of a UD send ({@code wr.ud.remote_qkey}).
     *
     * @return the key
     */
    public int remoteQkey() {
        return remoteQkey;
    }

    /**
     * The window of a BIND_MW.
     *
     * @return the window, or null
     */
    public MemoryWindow mw() {
        return mw;
    }

    /**
     * The region of a BIND_MW or REG_MR.
     *
     * @return the region, or null
     */
    public MemoryRegion region() {
        return region;
    }

    /**
     * The new rkey of a BIND_MW, or the new key of a REG_MR.
     *
     * @return the key
     */
    public int newKey() {
        return newKey;
    }

    /**
     * The {@link Access} bits granted by a BIND_MW or REG_MR.
     *
     * @return the bits
     */
    public int accessMask() {
        return accessMask;
    }

    /**
     * The bound address of a BIND_MW, or the I/O virtual address of a REG_MR.
     *
     * @return the address
     */
    public long bindAddress() {
        return bindAddress;
    }

    /**
     * The bound length of a BIND_MW or REG_MR.
     *
     * @return the length in bytes
     */
    public long bindLength() {
        return bindLength;
    }

    /**
     * The page addresses of a REG_MR.
     *
     * @return the caller's array itself, not a copy
     */
    public long[] pages() {
        return pages;
    }

    /**
     * How many pages of {@link #pages()} a REG_MR maps.
     *
     * @return the count
     */
    public int pageCount() {
        return pageCount;
    }

    /**
     * The page size of a REG_MR as log2 of its bytes (12 for 4 KiB pages).
     *
     * @return the shift
     */
    public int pageShift() {
        return pageShift;
    }
}

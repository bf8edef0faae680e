package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendFlag;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.PostSendVerbs;
import dev.verbs4j.ibverbs.binding.QueuePairVerbs;
import dev.verbs4j.ibverbs.binding.ibv_mw_bind_info;
import dev.verbs4j.ibverbs.binding.ibv_qp;
import dev.verbs4j.ibverbs.binding.ibv_qp_ex;
import dev.verbs4j.ibverbs.binding.ibv_send_wr;
import dev.verbs4j.ibverbs.binding.ibv_sge;
import dev.verbs4j.spi.Resource;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One send work request as one {@code ibv_wr_start} / {@code ibv_wr_<op>} /
 * data / {@code ibv_wr_complete} batch on an extended queue pair, or as one
 * {@code ibv_send_wr} through {@code ibv_post_send} where the provider has no extended queue
 * pairs (siw's, for one). The request is checked before it reaches the provider (an
 * operation the queue pair was not created for would call a function pointer the provider
 * left NULL). The native objects it posts from (gather array, request, bind info, ATOMIC
 * WRITE operand, inline staging) are allocated once, so a post allocates nothing. Not
 * thread-safe: the queue pair serializes posts.
 */
final class SendPoster {
    /** All of user space as one segment, for copying inline pieces between native addresses. */
    private static final MemorySegment ADDRESS_SPACE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** The extended queue pair, or null where the provider has none and {@link #plain} posts. */
    private final ibv_qp_ex qp;
    private final ibv_qp plain;
    /** The request {@code ibv_post_send} takes, its first refused one, and an inline entry. */
    private final ibv_send_wr request;
    private final ibv_send_wr refusedRequest;
    private final ibv_sge inlineEntry;
    private final long sendOpsFlags;
    private final boolean datagram;
    private final int maxSge;
    private final int maxInline;
    private final ibv_sge sges;
    private final ibv_mw_bind_info bindInfo = new ibv_mw_bind_info();
    private final LongPointer atomicOperand = new LongPointer(1);
    private final BytePointer inlineStaging;
    /** The domain's regions, to refuse entries naming freed memory; null when not checked. */
    private final RegionKeys regions;
    /** The context whose type 2 windows a LOCAL_INV may name; null when not checked. */
    private final IbverbsContext windows;
    /** The list {@link #post} posts its one request as (no allocation per post). */
    private final SendWorkRequest[] single = new SendWorkRequest[1];
    /**
     * The address handles, windows and regions the requests being posted name, held open
     * while libibverbs reads their pointers; grown when a list needs more, else reused.
     */
    private Resource[] held = new Resource[4];
    private int heldCount;

    /**
     * @param sendOpsFlags the {@code IBV_QP_EX_WITH_*} operations the queue pair was created with
     * @param datagram     whether it is a UD queue pair (every send names an address handle)
     */
    SendPoster(ibv_qp_ex qp, long sendOpsFlags, boolean datagram, int maxSge, int maxInline) {
        this(qp, null, sendOpsFlags, datagram, maxSge, maxInline, null, null);
    }

    /**
     * @param qp      the extended queue pair, or null to post through {@code ibv_post_send} on {@code plain}
     * @param plain   the queue pair itself; may be null when {@code qp} is not
     * @param regions the domain's regions: an entry naming one whose memory was freed is refused ({@code EFAULT})
     * @param windows the context: a LOCAL_INV of one of its type 2 windows that is not bound is refused ({@code EINVAL})
     */
    SendPoster(ibv_qp_ex qp, ibv_qp plain, long sendOpsFlags, boolean datagram, int maxSge, int maxInline,
               RegionKeys regions, IbverbsContext windows) {
        if (qp == null && plain == null) {
            throw new IllegalArgumentException("a queue pair to post on");
        }
        this.regions = regions;
        this.windows = windows;
        this.qp = qp;
        this.plain = plain;
        this.request = qp == null ? new ibv_send_wr() : null;
        this.refusedRequest = qp == null ? new ibv_send_wr((org.bytedeco.javacpp.Pointer) null) : null;
        this.inlineEntry = qp == null ? new ibv_sge() : null;
        this.sendOpsFlags = sendOpsFlags;
        this.datagram = datagram;
        this.maxSge = maxSge;
        this.maxInline = maxInline;
        this.sges = new ibv_sge(Math.max(1, maxSge));
        this.inlineStaging = new BytePointer(Math.max(1, maxInline));
    }

    /**
     * Posts {@code wr}.
     *
     * @throws VerbsException {@code EINVAL} for an operation the queue pair was not created
     *         for, too many entries, inline data longer than the queue pair's limit, or a UD
     *         send without an address handle; {@code EFAULT} for an entry naming a region whose
     *         memory was freed while registered; {@code EOPNOTSUPP} for REG_MR; otherwise the
     *         error {@code ibv_wr_complete} returns (nothing of the request was posted)
     */
    void post(SendWorkRequest wr) {
        try {
            check(wr);
            single[0] = wr;
            postBatch(single, 1);
        } finally {
            releaseHeld();
        }
    }

    /**
     * Posts {@code wrs[0, count)} as one batch (one {@code ibv_wr_start} and one
     * {@code ibv_wr_complete}, as {@code ibv_post_send} with a chained list). A request that
     * fails its checks ends the list: the requests before it are posted, then its error is
     * thrown, as {@code ibv_post_send} stops at its {@code bad_wr}.
     *
     * @return {@code count}
     */
    int postList(SendWorkRequest[] wrs, int count) {
        try {
            return postChecked(wrs, count);
        } finally {
            releaseHeld();
        }
    }

    private int postChecked(SendWorkRequest[] wrs, int count) {
        int valid = 0;
        VerbsException refused = null;
        while (valid < count) {
            try {
                check(wrs[valid]);
            } catch (VerbsException e) {
                refused = e;
                break;
            }
            valid++;
        }
        if (valid > 0) {
            postBatch(wrs, valid);
        }
        if (refused != null) {
            throw refused;
        }
        return count;
    }

    /**
     * Refuses what must not reach the provider: checked before the batch opens. The objects
     * the request names are held until the post returns; a closed one is refused.
     */
    private void check(SendWorkRequest wr) {
        WrOpcode op = wr.opcode();
        checkOperation(op);
        checkData(wr.sges(), op, carriesPayload(op) && SendFlag.INLINE.isSet(wr.flags()));
        if (regions != null && usesGatherList(op)) {
            // Inline data too: it would be copied out of freed memory right here.
            regions.refuseFreed(wr.sges());
        }
        if (datagram) {
            hold(addressHandle(wr), "address handle");
        }
        if (op == WrOpcode.BIND_MW) {
            hold(window(wr), "window");
            hold(boundRegion(wr), "region");
        }
        if (op == WrOpcode.LOCAL_INV && windows != null) {
            refuseUnboundWindow(wr.invalidateRkey());
        }
    }

    /**
     * Refuses a LOCAL_INV of a type 2 window of this device that is not bound, by what this
     * process posted ({@link IbverbsMw#mayBeInvalidated}), whichever of its contexts allocated
     * it: the kernel's rxe would fault on it.
     */
    private void refuseUnboundWindow(int rkey) {
        IbverbsMw window = windows.type2WindowOfDevice(rkey);
        if (window != null && !window.mayBeInvalidated()) {
            throw new VerbsException(Errno.EINVAL, "LOCAL_INV of the type 2 window with rkey 0x" + Integer.toHexString(rkey)
                    + ", which is not bound: no bind with a length was posted for it since it was allocated or last"
                    + " invalidated (rxe faults on invalidating such a window)");
        }
    }

    /**
     * Keeps {@code object} open until the post returns: its pointer goes to libibverbs, so
     * closing it now must fail ({@code EBUSY}) rather than free it under the post.
     *
     * @throws VerbsException {@code EINVAL} when it is closed already
     */
    private void hold(Resource object, String what) {
        if (!object.tryRetain()) {
            throw new VerbsException(Errno.EINVAL, "the request names a closed " + what);
        }
        if (heldCount == held.length) {
            held = Arrays.copyOf(held, held.length * 2);
        }
        held[heldCount++] = object;
    }

    private void releaseHeld() {
        for (int i = 0; i < heldCount; i++) {
            held[i].release();
            held[i] = null;
        }
        heldCount = 0;
    }

    /**
     * One batch of checked requests; a failing {@code ibv_wr_complete} posts none of them.
     * Without an extended queue pair each goes through {@code ibv_post_send} on its own, and
     * the first one refused ends the batch, the ones before it posted.
     */
    private void postBatch(SendWorkRequest[] wrs, int count) {
        if (qp == null) {
            for (int i = 0; i < count; i++) {
                postPlain(wrs[i]);
                posted(wrs[i]);
            }
            return;
        }
        PostSendVerbs.ibv_wr_start(qp);
        boolean ended = false;
        try {
            for (int i = 0; i < count; i++) {
                add(wrs[i]);
            }
            int rc = PostSendVerbs.ibv_wr_complete(qp);
            ended = true;
            if (rc != 0) {
                throw NativeErrors.failure(completeErrno(rc), "ibv_wr_complete (" + wrs[0].opcode()
                        + (count > 1 ? " and " + (count - 1) + " more" : "") + ")");
            }
        } finally {
            if (!ended) {
                PostSendVerbs.ibv_wr_abort(qp);
            }
        }
        for (int i = 0; i < count; i++) {
            posted(wrs[i]);
        }
    }

    /** What a posted request changes of the windows it names. */
    private void posted(SendWorkRequest wr) {
        if (wr.opcode() == WrOpcode.BIND_MW) {
            window(wr).bindPosted(wr.newKey(), boundRegion(wr), wr.bindLength());
        } else if (wr.opcode() == WrOpcode.LOCAL_INV && windows != null) {
            windows.invalidated(wr.invalidateRkey());
        }
    }

    /** One checked request as an {@code ibv_send_wr} through {@code ibv_post_send}. */
    private void postPlain(SendWorkRequest wr) {
        WrOpcode op = wr.opcode();
        boolean inline = carriesPayload(op) && SendFlag.INLINE.isSet(wr.flags());
        request.wr_id(wr.wrId()).next(null).opcode(plainOpcode(op))
                .send_flags(inline ? wr.flags() : wr.flags() & ~SendFlag.INLINE.value());
        if (inline) {
            // The provider copies inline data during the call, from the staging buffer.
            long used = stageInline(wr.sges());
            inlineEntry.addr(inlineStaging.address()).length((int) used).lkey(0);
            request.sg_list(inlineEntry).num_sge(used == 0 ? 0 : 1);
        } else if (usesGatherList(op)) {
            int count = gatherCount(wr.sges());
            request.sg_list(sgeArray(wr.sges(), count)).num_sge(count);
        } else {
            request.sg_list(null).num_sge(0);
        }
        plainOperands(wr, op);
        if (datagram) {
            request.wr_ud_ah(requireHeld(addressHandle(wr)).handle).wr_ud_remote_qpn(wr.remoteQpn()).wr_ud_remote_qkey(wr.remoteQkey());
        }
        int rc = QueuePairVerbs.ibv_post_send(plain, request, refusedRequest);
        if (rc != 0) {
            throw NativeErrors.failure(completeErrno(rc), "ibv_post_send (" + op + ")");
        }
    }

    /** The operands of an {@code ibv_send_wr}, in the unions its opcode reads. */
    private void plainOperands(SendWorkRequest wr, WrOpcode op) {
        switch (op) {
            case SEND_WITH_IMM, RDMA_WRITE_WITH_IMM -> request.imm_data(NetworkOrder.toNetwork32(wr.immData()));
            case SEND_WITH_INV, LOCAL_INV -> request.invalidate_rkey(wr.invalidateRkey());
            default -> {
            }
        }
        switch (op) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ ->
                    request.wr_rdma_remote_addr(wr.remoteAddress()).wr_rdma_rkey(wr.rkey());
            // The key to invalidate is invalidate_rkey, which every provider reads but rdma-core's
            // siw one: it puts wr.rdma.rkey on the wire for every opcode. No provider reads that
            // field for a send, so it carries the same key.
            case SEND_WITH_INV -> request.wr_rdma_remote_addr(0).wr_rdma_rkey(wr.invalidateRkey());
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> request.wr_atomic_remote_addr(wr.remoteAddress())
                    .wr_atomic_rkey(wr.rkey()).wr_atomic_compare_add(wr.compareAdd()).wr_atomic_swap(wr.swap());
            case BIND_MW -> {
                request.bind_mw_mw(window(wr).handle).bind_mw_rkey(wr.newKey());
                request.bind_mw_bind_info().mr(boundRegion(wr).handle).addr(wr.bindAddress()).length(wr.bindLength())
                        .mw_access_flags(wr.accessMask());
            }
            default -> {
            }
        }
    }

    /**
     * The {@code IBV_WR_*} opcode of an operation {@code ibv_post_send} can carry. FLUSH and
     * ATOMIC WRITE have operands only the extended API passes: QpFactory creates no queue pair
     * for them without it, so {@link #checkOperation} refuses them first.
     */
    static int plainOpcode(WrOpcode op) {
        return switch (op) {
            case RDMA_WRITE -> IbverbsConstants.IBV_WR_RDMA_WRITE;
            case RDMA_WRITE_WITH_IMM -> IbverbsConstants.IBV_WR_RDMA_WRITE_WITH_IMM;
            case SEND -> IbverbsConstants.IBV_WR_SEND;
            case SEND_WITH_IMM -> IbverbsConstants.IBV_WR_SEND_WITH_IMM;
            case RDMA_READ -> IbverbsConstants.IBV_WR_RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> IbverbsConstants.IBV_WR_ATOMIC_CMP_AND_SWP;
            case ATOMIC_FETCH_AND_ADD -> IbverbsConstants.IBV_WR_ATOMIC_FETCH_AND_ADD;
            case LOCAL_INV -> IbverbsConstants.IBV_WR_LOCAL_INV;
            case BIND_MW -> IbverbsConstants.IBV_WR_BIND_MW;
            case SEND_WITH_INV -> IbverbsConstants.IBV_WR_SEND_WITH_INV;
            case FLUSH, ATOMIC_WRITE, REG_MR -> throw new VerbsException(Errno.EOPNOTSUPP,
                    op + " cannot be posted through ibv_post_send");
        };
    }

    /**
     * The errno of a failed {@code ibv_wr_complete}. rxe's {@code ibv_wr_*} functions report a
     * full send queue as {@code ENOSPC} (also too long inline data and too many entries, which
     * {@link #check} refused already), where {@code ibv_post_send} reports {@code ENOMEM}: the
     * API promises the latter, as the soft provider gives it.
     */
    static int completeErrno(int rc) {
        int errno = rc < 0 ? -rc : rc;
        return errno == Errno.ENOSPC.number() ? Errno.ENOMEM.number() : errno;
    }

    /** One checked request into the open batch: its id and flags, operation, data and address. */
    private void add(SendWorkRequest wr) {
        WrOpcode op = wr.opcode();
        // What is read again here was checked before the batch opened; another thread may
        // have changed the request since, so what reaches native memory is checked again.
        checkOperation(op);
        boolean inline = carriesPayload(op) && SendFlag.INLINE.isSet(wr.flags());
        // INLINE only where the data is set inline: rxe's kernel side reads the request's
        // data from the inline area whenever the flag is set.
        qp.wr_id(wr.wrId()).wr_flags(inline ? wr.flags() : wr.flags() & ~SendFlag.INLINE.value());
        IbverbsMw window = op == WrOpcode.BIND_MW ? requireHeld(window(wr)) : null;
        IbverbsMr region = op == WrOpcode.BIND_MW ? requireHeld(boundRegion(wr)) : null;
        operation(wr, op, window, region);
        if (inline) {
            inlineData(wr.sges());
        } else if (usesGatherList(op)) {
            gatherList(wr.sges());
        }
        if (datagram) {
            IbverbsAh ah = requireHeld(addressHandle(wr));
            PostSendVerbs.ibv_wr_set_ud_addr(qp, ah.handle, wr.remoteQpn(), wr.remoteQkey());
        }
    }

    private void checkOperation(WrOpcode op) {
        if (op == WrOpcode.REG_MR) {
            throw new VerbsException(Errno.EOPNOTSUPP, "libibverbs has no user-space fast registration");
        }
        if ((sendOpsFlags & QpFactory.sendOpsFlag(op)) == 0) {
            throw new VerbsException(Errno.EINVAL, "the queue pair was not created for " + op
                    + " (QpInitAttributes.allow)");
        }
    }

    private void checkData(ScatterGatherList list, WrOpcode op, boolean inline) {
        if (inline) {
            long total = list.totalLength();
            if (total > maxInline) {
                throw new VerbsException(Errno.EINVAL, "inline data of " + total + " bytes exceeds the queue pair's "
                        + maxInline);
            }
            for (int i = 0; i < list.count(); i++) {
                if (list.length(i) > 0) {
                    inlineMemory(list, i);
                }
            }
        } else if (usesGatherList(op) && list.count() > maxSge) {
            throw new VerbsException(Errno.EINVAL, list.count() + " gather entries exceed the queue pair's " + maxSge);
        }
    }

    /** Operations whose data may be inline: sends and writes. */
    private static boolean carriesPayload(WrOpcode op) {
        return op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.SEND_WITH_INV
                || op == WrOpcode.RDMA_WRITE || op == WrOpcode.RDMA_WRITE_WITH_IMM;
    }

    /** Operations with a local gather (or, for reads and atomics, scatter) list. */
    private static boolean usesGatherList(WrOpcode op) {
        return carriesPayload(op) || op == WrOpcode.RDMA_READ || op == WrOpcode.ATOMIC_CMP_AND_SWP
                || op == WrOpcode.ATOMIC_FETCH_AND_ADD;
    }

    private static IbverbsAh addressHandle(SendWorkRequest wr) {
        if (!(wr.ah() instanceof IbverbsAh ah)) {
            throw new VerbsException(Errno.EINVAL, wr.ah() == null ? "a UD send needs an address handle"
                    : "the address handle belongs to another provider");
        }
        return ah;
    }

    private static IbverbsMw window(SendWorkRequest wr) {
        if (!(wr.mw() instanceof IbverbsMw mw)) {
            throw new VerbsException(Errno.EINVAL, "BIND_MW needs a window of this provider");
        }
        return mw;
    }

    /** The region of a BIND_MW, required even for a zero-length bind: rxe reads its lkey. */
    private static IbverbsMr boundRegion(SendWorkRequest wr) {
        if (!(wr.region() instanceof IbverbsMr mr)) {
            throw new VerbsException(Errno.EINVAL, "BIND_MW needs a region of this provider");
        }
        return mr;
    }

    /**
     * The operation call. Immediate data is passed as {@code __be32}; the ATOMIC WRITE value
     * as 8 bytes in native order, which the responder stores as they are.
     */
    private void operation(SendWorkRequest wr, WrOpcode op, IbverbsMw window, IbverbsMr region) {
        switch (op) {
            case SEND -> PostSendVerbs.ibv_wr_send(qp);
            case SEND_WITH_IMM -> PostSendVerbs.ibv_wr_send_imm(qp, NetworkOrder.toNetwork32(wr.immData()));
            case SEND_WITH_INV -> PostSendVerbs.ibv_wr_send_inv(qp, wr.invalidateRkey());
            case RDMA_WRITE -> PostSendVerbs.ibv_wr_rdma_write(qp, wr.rkey(), wr.remoteAddress());
            case RDMA_WRITE_WITH_IMM -> PostSendVerbs.ibv_wr_rdma_write_imm(qp, wr.rkey(), wr.remoteAddress(),
                    NetworkOrder.toNetwork32(wr.immData()));
            case RDMA_READ -> PostSendVerbs.ibv_wr_rdma_read(qp, wr.rkey(), wr.remoteAddress());
            case ATOMIC_CMP_AND_SWP -> PostSendVerbs.ibv_wr_atomic_cmp_swp(qp, wr.rkey(), wr.remoteAddress(),
                    wr.compareAdd(), wr.swap());
            case ATOMIC_FETCH_AND_ADD -> PostSendVerbs.ibv_wr_atomic_fetch_add(qp, wr.rkey(), wr.remoteAddress(),
                    wr.compareAdd());
            case ATOMIC_WRITE -> {
                atomicOperand.put(wr.swap());
                PostSendVerbs.ibv_wr_atomic_write(qp, wr.rkey(), wr.remoteAddress(), atomicOperand);
            }
            case FLUSH -> PostSendVerbs.ibv_wr_flush(qp, wr.rkey(), wr.remoteAddress(), wr.remoteLength(),
                    wr.flushType(), wr.flushLevel().value());
            case LOCAL_INV -> PostSendVerbs.ibv_wr_local_inv(qp, wr.invalidateRkey());
            case BIND_MW -> {
                bindInfo.mr(region.handle).addr(wr.bindAddress()).length(wr.bindLength())
                        .mw_access_flags(wr.accessMask());
                PostSendVerbs.ibv_wr_bind_mw(qp, window.handle, wr.newKey(), bindInfo);
            }
            case REG_MR -> throw new IllegalStateException("REG_MR is refused before the batch opens");
        }
    }

    private void gatherList(ScatterGatherList list) {
        int count = gatherCount(list);
        if (count == 1) {
            PostSendVerbs.ibv_wr_set_sge(qp, list.lkey(0), list.address(0), list.length(0));
            return;
        }
        PostSendVerbs.ibv_wr_set_sge_list(qp, count, sgeArray(list, count));
    }

    /** The number of entries, read once, within the native gather array's {@code maxSge}. */
    private int gatherCount(ScatterGatherList list) {
        int count = list.count();
        if (count > maxSge) {
            throw new VerbsException(Errno.EINVAL, "the gather list grew to " + count + " entries during the post, past the"
                    + " queue pair's " + maxSge);
        }
        return count;
    }

    /** The first {@code count} entries of {@code list} in the native gather array, which is returned at its first entry. */
    private ibv_sge sgeArray(ScatterGatherList list, int count) {
        for (int i = 0; i < count; i++) {
            sges.position(i).addr(list.address(i)).length(list.length(i)).lkey(list.lkey(i));
        }
        return sges.position(0);
    }

    /**
     * {@code object}, which the checks before the post held open; one the request names only
     * now (another thread changed it) is refused: it is not held, and could be freed under the post.
     */
    private <T extends Resource> T requireHeld(T object) {
        for (int i = 0; i < heldCount; i++) {
            if (held[i] == object) {
                return object;
            }
        }
        throw new VerbsException(Errno.EINVAL, "the request's " + object + " changed during the post");
    }

    /**
     * Inline data, gathered into the staging buffer and passed from there, also when it is one
     * piece: each piece is read through a segment ({@link #inlineMemory}), so an address that
     * is not mapped fails the post instead of faulting in the provider's copy. One buffer also
     * because {@code ibv_wr_set_inline_data_list} of rdma-core's rxe provider leaves the
     * request's length at zero.
     */
    private void inlineData(ScatterGatherList list) {
        PostSendVerbs.ibv_wr_set_inline_data(qp, inlineStaging.address(), stageInline(list));
    }

    /** Gathers inline data into the staging buffer; returns its length. */
    private long stageInline(ScatterGatherList list) {
        long staging = inlineStaging.address();
        long used = 0;
        for (int i = 0; i < list.count(); i++) {
            int length = list.length(i);
            if (length == 0) {
                continue;
            }
            if (length < 0 || length > maxInline - used) {
                throw new VerbsException(Errno.EINVAL, "the inline data grew past the queue pair's " + maxInline
                        + " bytes during the post");
            }
            MemorySegment from = inlineMemory(list, i);
            try {
                MemorySegment.copy(from, list.address(i) - from.address(), ADDRESS_SPACE, staging + used, length);
            } catch (IllegalStateException closed) {
                throw new VerbsException(Errno.EINVAL, "inline entry " + i + ": its memory was freed during the post");
            }
            used += length;
        }
        return used;
    }

    /**
     * The memory inline entry {@code i} is read through: the segment it was added with, or the
     * memory of the live region of this domain that its lkey names, when the entry lies in it.
     *
     * @throws VerbsException {@code EINVAL} for any other entry, or a segment whose arena is closed
     */
    private MemorySegment inlineMemory(ScatterGatherList list, int i) {
        MemorySegment segment = list.segment(i);
        if (segment != null) {
            if (!segment.scope().isAlive()) {
                throw new VerbsException(Errno.EINVAL, "inline entry " + i + ": its segment's arena is closed");
            }
            return segment;
        }
        IbverbsMr region = regions == null ? null : regions.lookup(list.lkey(i));
        if (region != null && !region.isClosed() && region.memoryAlive()) {
            MemorySegment memory = region.memory();
            long offset = list.address(i) - memory.address();
            if (offset >= 0 && offset <= memory.byteSize() - list.length(i)) {
                return memory;
            }
        }
        throw new VerbsException(Errno.EINVAL, "inline entry " + i + " (" + list.length(i) + " bytes at 0x"
                + Long.toHexString(list.address(i)) + ", lkey 0x" + Integer.toHexString(list.lkey(i)) + ") lies in no"
                + " registered region its lkey names; give memory outside regions with"
                + " ScatterGatherList.add(MemorySegment, offset, length)");
    }

    void free() {
        if (request != null) {
            request.close();
            inlineEntry.close();
        }
        sges.close();
        bindInfo.close();
        atomicOperand.close();
        inlineStaging.close();
    }
}

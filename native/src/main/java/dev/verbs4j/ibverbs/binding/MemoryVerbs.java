package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * Protection domains, memory regions (including ODP prefetch) and memory
 * windows.
 *
 * <p>Return conventions are libibverbs' own. "errno in
 * {@link Errno#lastErrno()}" marks calls that report failure only through
 * errno; it is captured inside the call.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class MemoryVerbs {
    static {
        Loader.load();
    }

    private MemoryVerbs() {
    }

    /** {@code ibv_alloc_pd}: a protection domain, or null with errno in {@link Errno#lastErrno()}. */
    @Name("verbs4j::keep_errno<ibv_alloc_pd>")
    public static native ibv_pd ibv_alloc_pd(ibv_context context);

    /** {@code ibv_dealloc_pd}: 0 or an errno value (EBUSY while objects use the PD). */
    public static native int ibv_dealloc_pd(ibv_pd pd);

    /**
     * {@code ibv_reg_mr} (the verbs.h macro, which registers through
     * {@code ibv_reg_mr_iova2} with iova = addr): an MR, or null with errno
     * in {@link Errno#lastErrno()}.
     *
     * @param addr start of the range; any address for an implicit ODP MR
     *     ({@code IBV_ACCESS_ON_DEMAND}, addr null, length {@code SIZE_MAX})
     * @param access {@code IBV_ACCESS_*} bits
     */
    @Name("verbs4j::keep_errno<verbs4j::reg_mr>")
    public static native ibv_mr ibv_reg_mr(ibv_pd pd, Pointer addr, @Cast("size_t") long length, int access);

    /**
     * {@link #ibv_reg_mr} with the start as a plain address (e.g. {@code MemorySegment.address()}),
     * so callers need no {@link Pointer} object; 0 is NULL.
     */
    @Name("verbs4j::keep_errno<verbs4j::reg_mr>")
    public static native ibv_mr ibv_reg_mr(ibv_pd pd, @Cast("void*") long addr, @Cast("size_t") long length, int access);

    /**
     * {@code ibv_reg_mr_iova2}: like {@link #ibv_reg_mr} but remote peers
     * address the region from {@code iova} instead of its virtual address.
     */
    @Name("verbs4j::keep_errno<ibv_reg_mr_iova2>")
    public static native ibv_mr ibv_reg_mr_iova2(ibv_pd pd, Pointer addr, @Cast("size_t") long length,
            @Cast("uint64_t") long iova, @Cast("unsigned int") int access);

    /** {@link #ibv_reg_mr_iova2} with the start as a plain address. */
    @Name("verbs4j::keep_errno<ibv_reg_mr_iova2>")
    public static native ibv_mr ibv_reg_mr_iova2(ibv_pd pd, @Cast("void*") long addr, @Cast("size_t") long length,
            @Cast("uint64_t") long iova, @Cast("unsigned int") int access);

    /**
     * {@code ibv_rereg_mr}: 0, or an {@code IBV_REREG_MR_ERR_*} code with
     * errno in {@link Errno#lastErrno()}. Codes -1..-3 leave the MR valid;
     * -4 and -5 leave it unusable except for {@link #ibv_dereg_mr}.
     *
     * @param flags {@code IBV_REREG_MR_CHANGE_*} bits naming what changes
     */
    @Name("verbs4j::keep_errno<ibv_rereg_mr>")
    public static native int ibv_rereg_mr(ibv_mr mr, int flags, ibv_pd pd, Pointer addr,
            @Cast("size_t") long length, int access);

    /** {@link #ibv_rereg_mr} with the new start as a plain address (0 when the translation does not change). */
    @Name("verbs4j::keep_errno<ibv_rereg_mr>")
    public static native int ibv_rereg_mr(ibv_mr mr, int flags, ibv_pd pd, @Cast("void*") long addr,
            @Cast("size_t") long length, int access);

    /** {@code ibv_dereg_mr}: 0 or an errno value (EBUSY while windows are bound to it). */
    public static native int ibv_dereg_mr(ibv_mr mr);

    /**
     * {@code ibv_advise_mr}: 0 or an errno value (EOPNOTSUPP when the
     * provider cannot prefetch).
     *
     * @param advice an {@code IBV_ADVISE_MR_ADVICE_*} value
     * @param flags {@code IBV_ADVISE_MR_FLAG_FLUSH} makes the prefetch synchronous
     * @param sg_list ranges of ODP MRs of this PD
     */
    public static native int ibv_advise_mr(ibv_pd pd, @Cast("ibv_advise_mr_advice") int advice,
            @Cast("uint32_t") int flags, ibv_sge sg_list, @Cast("uint32_t") int num_sge);

    /**
     * {@code ibv_alloc_mw}: a memory window, or null with errno in
     * {@link Errno#lastErrno()} (EOPNOTSUPP when the provider has no
     * windows).
     *
     * @param type {@code IBV_MW_TYPE_1} or {@code IBV_MW_TYPE_2}
     */
    @Name("verbs4j::keep_errno<ibv_alloc_mw>")
    public static native ibv_mw ibv_alloc_mw(ibv_pd pd, @Cast("ibv_mw_type") int type);

    /** {@code ibv_dealloc_mw}: 0 or an errno value. */
    public static native int ibv_dealloc_mw(ibv_mw mw);

    /**
     * {@code ibv_bind_mw}: posts a bind of a type-1 window on {@code qp}'s
     * send queue; 0 or an errno value (EINVAL for a type-2 window, EPERM
     * when MR and window are in different PDs). On success mw.rkey is the
     * new key; the bind completes on the send CQ. Type-2 windows are bound
     * with {@link PostSendVerbs#ibv_wr_bind_mw}.
     */
    public static native int ibv_bind_mw(ibv_qp qp, ibv_mw mw, ibv_mw_bind mw_bind);

    /** {@code ibv_inc_rkey}: the rkey with its low 8 bits (the key tag) incremented, wrapping. */
    public static native @Cast("uint32_t") int ibv_inc_rkey(@Cast("uint32_t") int rkey);
}

package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_cq_init_attr_ex}: input of {@code ibv_create_cq_ex}. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_cq_init_attr_ex extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_cq_init_attr_ex}, freed by {@link #close()} or once unreachable. */
    public ibv_cq_init_attr_ex() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_cq_init_attr_ex(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_cq_init_attr_ex}. */
    public ibv_cq_init_attr_ex(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_cq_init_attr_ex position(long position) {
        return (ibv_cq_init_attr_ex) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_cq_init_attr_ex getPointer(long i) {
        return new ibv_cq_init_attr_ex((Pointer) this).offsetAddress(i);
    }

    /** Minimum capacity. */
    public native @Cast("uint32_t") int cqe();

    public native ibv_cq_init_attr_ex cqe(@Cast("uint32_t") int setter);

    public native Pointer cq_context();

    public native ibv_cq_init_attr_ex cq_context(Pointer setter);

    /** Null when completion events are not used. */
    public native ibv_comp_channel channel();

    public native ibv_cq_init_attr_ex channel(ibv_comp_channel setter);

    /** Below {@code ibv_context.num_comp_vectors}. */
    public native @Cast("uint32_t") int comp_vector();

    public native ibv_cq_init_attr_ex comp_vector(@Cast("uint32_t") int setter);

    /** {@code IBV_WC_EX_WITH_*} fields the completions must carry. */
    public native @Cast("uint64_t") long wc_flags();

    public native ibv_cq_init_attr_ex wc_flags(@Cast("uint64_t") long setter);

    /** {@code IBV_CQ_INIT_ATTR_MASK_*} bits. */
    public native @Cast("uint32_t") int comp_mask();

    public native ibv_cq_init_attr_ex comp_mask(@Cast("uint32_t") int setter);

    /** {@code IBV_CREATE_CQ_ATTR_*} bits. */
    public native @Cast("uint32_t") int flags();

    public native ibv_cq_init_attr_ex flags(@Cast("uint32_t") int setter);

    public native ibv_pd parent_domain();

    public native ibv_cq_init_attr_ex parent_domain(ibv_pd setter);
}

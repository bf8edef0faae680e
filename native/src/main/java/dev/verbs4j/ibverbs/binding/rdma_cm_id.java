package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct rdma_cm_id}: a connection-manager identifier. Owned by librdmacm; the
 * fields read here are the ones librdmacm fills as the id is bound and resolved.
 */
@Properties(inherit = RdmacmLibrary.class)
public final class rdma_cm_id extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code rdma_cm_id}. */
    public rdma_cm_id(Pointer pointer) {
        super(pointer);
    }

    /**
     * librdmacm's own context on the id's device, or null before the id is bound or its
     * address resolved. Not the application's context: queue pairs are made on that.
     */
    @MemberGetter
    public native ibv_context verbs();

    /** The device port, 0 before binding or resolution. */
    @MemberGetter
    public native @Cast("uint8_t") int port_num();

    /** An {@code RDMA_PS_*} value. */
    @MemberGetter
    public native @Cast("int") int ps();

    /** An {@code IBV_QPT_*} value: the type of queue pair the id connects. */
    @MemberGetter
    public native @Cast("int") int qp_type();
}

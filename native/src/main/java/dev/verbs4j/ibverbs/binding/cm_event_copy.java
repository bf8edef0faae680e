package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * A connection-manager event as {@link CmVerbs#nextEvent} copies it out of
 * {@code struct rdma_cm_event} before acknowledging it: the ids, type and status, the
 * connection parameters ({@code param.conn}, or {@code param.ud} for a UD id) and the
 * private data. Owned by the caller and reused from event to event.
 */
@Name("verbs4j::cm::cm_event_copy")
@Properties(inherit = RdmacmLibrary.class)
public final class cm_event_copy extends Pointer {
    static {
        Loader.load();
    }

    /** The most private data an event carries (the size of librdmacm's buffer). */
    public static final int PRIVATE_DATA_CAPACITY = 256;

    /** Allocates one zeroed copy, freed by {@link #close()} or once unreachable. */
    public cm_event_copy() {
        super((Pointer) null);
        allocate();
    }

    private native void allocate();

    @MemberGetter
    public native rdma_cm_id id();

    /** For a connect request, the listening id; else null. */
    @MemberGetter
    public native rdma_cm_id listen_id();

    /** An {@code RDMA_CM_EVENT_*} value. */
    @MemberGetter
    public native int type();

    @MemberGetter
    public native int status();

    @MemberGetter
    public native int responder_resources();

    @MemberGetter
    public native int initiator_depth();

    @MemberGetter
    public native int flow_control();

    @MemberGetter
    public native int retry_count();

    @MemberGetter
    public native int rnr_retry_count();

    @MemberGetter
    public native int srq();

    @MemberGetter
    public native @Cast("uint32_t") int qp_num();

    /** For a UD id, the peer's Q_Key. */
    @MemberGetter
    public native @Cast("uint32_t") int qkey();

    @MemberGetter
    public native int private_data_len();

    /** The first {@link #private_data_len()} bytes are the event's private data. */
    @MemberGetter
    public native @Cast("uint8_t*") BytePointer private_data();
}

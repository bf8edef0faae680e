package dev.verbs4j.ibverbs;

import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.ibverbs.binding.cm_event_copy;
import org.bytedeco.javacpp.BytePointer;

/** The peer's connection parameters of an event, read out of the native copy. */
final class CmEventCopies {
    private static final int THREE_BITS = 7;
    private static final int BYTE = 0xff;

    private CmEventCopies() {
    }

    /**
     * The parameters of {@code copy}, its private data included: as many bytes as the
     * kernel reported, which for a connect request, reply or reject is the whole private
     * data field of the message (the sender's bytes, then zeros).
     */
    static ConnectionParameters parameters(cm_event_copy copy) {
        int length = Math.min(Math.max(copy.private_data_len(), 0), cm_event_copy.PRIVATE_DATA_CAPACITY);
        byte[] data = new byte[length];
        if (length > 0) {
            try (BytePointer bytes = copy.private_data()) {
                bytes.get(data, 0, length);
            }
        }
        return new ConnectionParameters()
                .privateData(data)
                .responderResources(copy.responder_resources() & BYTE)
                .initiatorDepth(copy.initiator_depth() & BYTE)
                .flowControl(copy.flow_control() != 0)
                .retryCount(copy.retry_count() & THREE_BITS)
                .rnrRetryCount(copy.rnr_retry_count() & THREE_BITS)
                .srq(copy.srq() != 0)
                .qpNumber(copy.qp_num());
    }
}

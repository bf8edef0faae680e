package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.ibv_recv_wr;
import dev.verbs4j.ibverbs.binding.ibv_sge;
import org.bytedeco.javacpp.Pointer;

/**
 * The native receive request ({@code struct ibv_recv_wr} and its scatter array) a queue
 * pair or SRQ posts from, allocated once and refilled for every post. Not thread-safe:
 * its owner serializes posts.
 */
final class ReceivePoster {
    private final int maxSge;
    private final ibv_sge sges;
    private final ibv_recv_wr request = new ibv_recv_wr();
    private final ibv_recv_wr rejected = new ibv_recv_wr((Pointer) null);

    ReceivePoster(int maxSge) {
        this.maxSge = maxSge;
        this.sges = new ibv_sge(Math.max(1, maxSge));
        request.sg_list(sges).next(null);
    }

    /**
     * The native request for {@code wr}.
     *
     * @throws VerbsException {@code EINVAL} when it has more entries than the queue allows
     */
    ibv_recv_wr fill(ReceiveWorkRequest wr) {
        ScatterGatherList list = wr.sges();
        int count = list.count();
        if (count > maxSge) {
            throw new VerbsException(Errno.EINVAL, count + " scatter entries exceed the queue's " + maxSge);
        }
        for (int i = 0; i < count; i++) {
            sges.position(i).addr(list.address(i)).length(list.length(i)).lkey(list.lkey(i));
        }
        sges.position(0);
        return request.wr_id(wr.wrId()).num_sge(count);
    }

    /** Where libibverbs reports the request it refused ({@code bad_wr}). */
    ibv_recv_wr rejected() {
        return rejected;
    }

    void free() {
        request.close();
        sges.close();
    }
}

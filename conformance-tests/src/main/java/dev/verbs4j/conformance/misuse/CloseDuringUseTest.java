package dev.verbs4j.conformance.misuse;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * An object closed while another thread calls it: the call either completes or is refused
 * as a call on a closed object ({@link IllegalStateException}, or {@code EINVAL} for a post
 * naming a closed address handle); the close either succeeds or is refused with
 * {@code EBUSY} while the other thread holds the object, and succeeds once it lets go. No
 * interleaving frees an object under its user. Each case runs a fixed number of rounds.
 */
@ConformanceSuite
class CloseDuringUseTest {
    private static final int ROUNDS = 40;
    private static final Duration SHORT_WAIT = Duration.ofMillis(1);

    @Test
    void closingCompletionQueueWhileAnotherThreadPolls(Testbed bed) throws Exception {
        DeviceContext ctx = bed.local().context();
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS; round++) {
                CompletionQueue cq = bed.track(ctx.createCq(16));
                race.round(() -> {
                    try {
                        while (true) {
                            cq.poll(wcs);
                        }
                    } catch (IllegalStateException closed) {
                        // the end of the round
                    }
                }, cq, "poll_cq racing destroy_cq, round " + round);
            }
        }
    }

    @Test
    void closingQueuePairWhileAnotherThreadPostsReceives(Testbed bed) throws Exception {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 64);
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(7).buffer(region, 0, 64);
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS; round++) {
                QueuePair qp = Objects.rcInInit(bed, pd, cq);
                race.round(() -> postUntilClosed(() -> qp.postRecv(recv)), qp, "post_recv racing destroy_qp, round " + round);
            }
        }
    }

    @Test
    void closingQueuePairWhileAnotherThreadPostsSends(Testbed bed) throws Exception {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 256);
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        AddressHandle ah = Objects.addressHandle(bed, pd);
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS; round++) {
                QueuePair qp = Objects.udAtRts(bed, pd, cq);
                SendWorkRequest send = Objects.datagram(region, ah, qp.qpn());
                race.round(() -> postUntilClosed(() -> {
                    qp.postSend(send);
                    cq.poll(wcs);
                }), qp, "post_send racing destroy_qp, round " + round);
                while (cq.poll(wcs) > 0) {
                    // what the destroyed queue pair left behind
                }
            }
        }
    }

    @Test
    void closingAddressHandleWhileAnotherThreadSendsThroughIt(Testbed bed) throws Exception {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 64);
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        QueuePair qp = Objects.udAtRts(bed, pd, cq);
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS; round++) {
                AddressHandle ah = Objects.addressHandle(bed, pd);
                SendWorkRequest send = Objects.datagram(region, ah, qp.qpn());
                race.round(() -> {
                    while (true) {
                        try {
                            qp.postSend(send);
                        } catch (VerbsException e) {
                            if (e.errno() == Errno.EINVAL.number()) {
                                return; // the handle is closed
                            }
                            if (e.errno() != Errno.ENOMEM.number()) {
                                throw e;
                            }
                        }
                        cq.poll(wcs);
                    }
                }, ah, "UD post_send racing destroy_ah, round " + round);
            }
            while (cq.poll(wcs) > 0) {
                // drained, so the queue pair closes with nothing in flight
            }
        }
    }

    @Test
    void closingSharedReceiveQueueWhileAnotherThreadPostsToIt(Testbed bed) throws Exception {
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(7).buffer(region, 0, 64);
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS; round++) {
                SharedReceiveQueue srq = bed.track(pd.createSrq(16, 1, 0));
                race.round(() -> postUntilClosed(() -> srq.postRecv(recv)), srq,
                        "post_srq_recv racing destroy_srq, round " + round);
            }
        }
    }

    @Test
    void closingChannelWhileAnotherThreadWaitsOnIt(Testbed bed) throws Exception {
        DeviceContext ctx = bed.local().context();
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS; round++) {
                CompletionChannel channel = bed.track(ctx.createCompletionChannel());
                race.round(() -> {
                    try {
                        while (true) {
                            channel.awaitEvent(SHORT_WAIT);
                        }
                    } catch (IllegalStateException closed) {
                        // the end of the round
                    }
                }, channel, "get_cq_event racing destroy_comp_channel, round " + round);
            }
        }
    }

    @Test
    void closingContextWhileAnotherThreadWaitsForAsyncEvents(Testbed bed) throws Exception {
        try (Race race = new Race()) {
            for (int round = 0; round < ROUNDS / 4; round++) {
                DeviceContext ctx = bed.track(bed.local().context().device().open());
                race.round(() -> {
                    try {
                        while (true) {
                            ctx.nextAsyncEvent(SHORT_WAIT);
                        }
                    } catch (IllegalStateException closed) {
                        // the end of the round
                    }
                }, ctx, "get_async_event racing close_device, round " + round);
            }
        }
    }

    /** A post loop that ends when the object is closed; a full queue ({@code ENOMEM}) is allowed on the way. */
    private static void postUntilClosed(Race.User post) throws Exception {
        while (true) {
            try {
                post.useUntilClosed();
            } catch (IllegalStateException closed) {
                return;
            } catch (VerbsException e) {
                if (e.errno() != Errno.ENOMEM.number()) {
                    throw e;
                }
            }
        }
    }
}

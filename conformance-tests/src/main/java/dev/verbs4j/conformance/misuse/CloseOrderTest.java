package dev.verbs4j.conformance.misuse;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * Closing a parent before its child fails with {@code EBUSY} and leaves both usable, as
 * libibverbs refuses {@code ibv_close_device}, {@code ibv_dealloc_pd},
 * {@code ibv_destroy_comp_channel} and {@code ibv_destroy_srq} while something uses them;
 * once the child is gone the parent closes. (Domains with regions or queue pairs, and
 * completion queues with queue pairs: {@code errors/ResourceLifetimeTest}.)
 */
@ConformanceSuite
class CloseOrderTest {

    @Test
    void contextWithLiveDomainQueueAndChannelRefusesToClose(Testbed bed) {
        DeviceContext ctx = bed.track(bed.local().context().device().open());
        ProtectionDomain pd = bed.track(ctx.allocatePd());
        CompletionChannel channel = bed.track(ctx.createCompletionChannel());
        CompletionQueue cq = bed.track(ctx.createCq(16));

        Expect.errno(Errno.EBUSY, ctx::close, "close_device with a domain, a channel and a CQ");
        pd.close();
        Expect.errno(Errno.EBUSY, ctx::close, "close_device with a channel and a CQ");
        channel.close();
        Expect.errno(Errno.EBUSY, ctx::close, "close_device with a CQ");
        assertDoesNotThrow(() -> ctx.queryPort(1), "the context stays usable after a refused close");
        cq.close();
        assertDoesNotThrow(ctx::close, "close_device once its children are gone");
    }

    @Test
    void domainWithLiveWindowRefusesToClose(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.MEM_WINDOW);
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryWindow window = bed.track(pd.allocateMw(MwType.TYPE_1));

        Expect.errno(Errno.EBUSY, pd::close, "dealloc_pd with a window");
        window.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once the window is deallocated");
    }

    @Test
    void domainWithLiveSharedReceiveQueueRefusesToClose(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        SharedReceiveQueue srq = bed.track(pd.createSrq(16, 1, 0));

        Expect.errno(Errno.EBUSY, pd::close, "dealloc_pd with an SRQ");
        srq.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once the SRQ is destroyed");
    }

    @Test
    void domainWithLiveAddressHandleRefusesToClose(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        AddressHandle ah = Objects.addressHandle(bed, pd);

        Expect.errno(Errno.EBUSY, pd::close, "dealloc_pd with an address handle");
        ah.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once the address handle is destroyed");
    }

    @Test
    void channelWithLiveQueueRefusesToClose(Testbed bed) {
        CompletionChannel channel = bed.channel(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 16, channel);

        Expect.errno(Errno.EBUSY, channel::close, "destroy_comp_channel with a CQ");
        assertDoesNotThrow(() -> cq.requestNotify(false), "the CQ stays armed on its channel");
        cq.close();
        assertDoesNotThrow(channel::close, "destroy_comp_channel once the CQ is destroyed");
    }

    @Test
    void sharedReceiveQueueWithLiveQueuePairRefusesToClose(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        SharedReceiveQueue srq = bed.track(pd.createSrq(16, 1, 0));
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, bed.cq(bed.local(), 16)).srq(srq)));

        Expect.errno(Errno.EBUSY, srq::close, "destroy_srq with a queue pair");
        qp.close();
        assertDoesNotThrow(srq::close, "destroy_srq once the queue pair is destroyed");
    }

    @Test
    void receiveQueueOfAQueuePairRefusesToClose(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue sendCq = bed.cq(bed.local(), 16);
        CompletionQueue recvCq = bed.cq(bed.local(), 16);
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, sendCq, recvCq)));

        Expect.errno(Errno.EBUSY, recvCq::close, "destroy_cq of a queue pair's receive CQ");
        Expect.errno(Errno.EBUSY, sendCq::close, "destroy_cq of a queue pair's send CQ");
        qp.close();
        assertDoesNotThrow(recvCq::close, "destroy_cq once the queue pair is destroyed");
        assertDoesNotThrow(sendCq::close, "destroy_cq once the queue pair is destroyed");
    }
}

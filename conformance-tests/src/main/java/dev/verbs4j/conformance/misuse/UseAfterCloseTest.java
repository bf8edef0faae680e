package dev.verbs4j.conformance.misuse;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MrAdvice;
import dev.verbs4j.MwType;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * Every call on a closed object is refused with {@link IllegalStateException} before the
 * provider touches what the object held (for the ibverbs provider, a freed libibverbs
 * pointer); a work request naming a closed object is refused at post time with
 * {@code EINVAL}; a second close does nothing.
 */
@ConformanceSuite
class UseAfterCloseTest {
    private static final Duration NO_WAIT = Duration.ZERO;

    @Test
    void closedContextRefusesEveryCall(Testbed bed) {
        DeviceContext ctx = bed.track(bed.local().context().device().open());
        ctx.close();

        Closed.refuses(ctx::queryDevice, "query_device");
        Closed.refuses(() -> ctx.queryPort(DeviceSide.PORT), "query_port");
        Closed.refuses(() -> ctx.queryGid(DeviceSide.PORT, 0), "query_gid");
        Closed.refuses(ctx::completionVectorCount, "num_comp_vectors");
        Closed.refuses(ctx::allocatePd, "alloc_pd");
        Closed.refuses(ctx::createCompletionChannel, "create_comp_channel");
        Closed.refuses(() -> ctx.createCq(16), "create_cq");
        Closed.refuses(() -> ctx.nextAsyncEvent(NO_WAIT), "get_async_event");
        assertDoesNotThrow(ctx::close, "a second close_device");
    }

    @Test
    void closedDomainRefusesEveryCall(Testbed bed) {
        CompletionQueue cq = bed.cq(bed.local(), 16);
        MemorySegment memory = bed.memory(Testbed.PAGE);
        ProtectionDomain pd = bed.pd(bed.local());
        pd.close();

        Closed.refuses(() -> pd.registerMemory(memory, EnumSet.of(Access.LOCAL_WRITE)), "reg_mr");
        Closed.refuses(() -> pd.registerMemory(memory, 0, EnumSet.of(Access.LOCAL_WRITE)), "reg_mr_iova2");
        Closed.refuses(() -> pd.registerImplicitOnDemand(EnumSet.of(Access.LOCAL_WRITE)), "implicit ODP reg_mr");
        Closed.refuses(() -> pd.allocateFastRegMr(1), "alloc_mr");
        Closed.refuses(() -> pd.adviseMr(MrAdvice.PREFETCH, 0, new ScatterGatherList(1).add(memory.address(), 64, 0)),
                "advise_mr");
        Closed.refuses(() -> pd.allocateMw(MwType.TYPE_1), "alloc_mw");
        Closed.refuses(() -> pd.createQp(new QpInitAttributes(QpType.RC, cq)), "create_qp");
        Closed.refuses(() -> pd.createSrq(16, 1, 0), "create_srq");
        Closed.refuses(() -> pd.createAh(Objects.toSelf(bed.local())), "create_ah");
        assertDoesNotThrow(pd::close, "a second dealloc_pd");
    }

    @Test
    void closedRegionRefusesReregistration(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        region.close();

        Closed.refuses(() -> region.reregister(null, EnumSet.of(Access.LOCAL_WRITE)), "rereg_mr");
        assertDoesNotThrow(region::close, "a second dereg_mr");
    }

    @Test
    void closedWindowRefusesBinding(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.MEM_WINDOW);
        ProtectionDomain pd = bed.pd(bed.local());
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, bed.cq(bed.local(), 16))));
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE, Access.MW_BIND);
        MemoryWindow window = bed.track(pd.allocateMw(MwType.TYPE_1));
        window.close();

        Closed.refuses(() -> window.bind(qp, 1, true, region, region.address(), 64, EnumSet.of(Access.REMOTE_READ)),
                "bind_mw of a closed window");
        assertDoesNotThrow(window::close, "a second dealloc_mw");
    }

    @Test
    void bindNamingClosedRegionIsRefusedWithEinval(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.MEM_WINDOW);
        ProtectionDomain pd = bed.pd(bed.local());
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, bed.cq(bed.local(), 16))));
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE, Access.MW_BIND);
        MemoryWindow window = bed.track(pd.allocateMw(MwType.TYPE_1));
        region.close();

        Expect.errno(Errno.EINVAL, () -> window.bind(qp, 1, true, region, region.address(), 64,
                EnumSet.of(Access.REMOTE_READ)), "bind_mw onto a deregistered region");
    }

    @Test
    void bindRequestNamingClosedWindowIsRefusedWithEinval(Testbed bed) {
        Require.anyCapability(bed, DeviceCapability.MEM_WINDOW_TYPE_2A, DeviceCapability.MEM_WINDOW_TYPE_2B);
        ProtectionDomain pd = bed.pd(bed.local());
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, bed.cq(bed.local(), 16))));
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE, Access.MW_BIND);
        MemoryWindow window = bed.track(pd.allocateMw(MwType.TYPE_2));
        int newRkey = MemoryWindow.incrementRkey(window.rkey());
        window.close();

        SendWorkRequest bind = new SendWorkRequest().wrId(1).signaled(true)
                .bindMw(window, newRkey, region, region.address(), 64, Access.REMOTE_READ.value());
        Expect.errno(Errno.EINVAL, () -> qp.postSend(bind), "BIND_MW of a deallocated window");
    }

    @Test
    void closedCompletionQueueRefusesEveryCall(Testbed bed) {
        CompletionChannel channel = bed.channel(bed.local());
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 16, channel);
        cq.close();

        Closed.refuses(() -> cq.poll(new WorkCompletion[] {new WorkCompletion()}), "poll_cq");
        Closed.refuses(() -> cq.requestNotify(false), "req_notify_cq");
        Closed.refuses(() -> pd.createQp(new QpInitAttributes(QpType.RC, cq)), "create_qp on a destroyed CQ");
        assertDoesNotThrow(cq::close, "a second destroy_cq");
    }

    @Test
    void closedChannelRefusesEveryCall(Testbed bed) {
        CompletionChannel channel = bed.channel(bed.local());
        channel.close();

        Closed.refuses(() -> channel.awaitEvent(NO_WAIT), "get_cq_event");
        Closed.refuses(() -> bed.local().context().createCq(16, channel, 0), "create_cq on a destroyed channel");
        assertDoesNotThrow(channel::close, "a second destroy_comp_channel");
    }

    @Test
    void closedQueuePairRefusesEveryCall(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        QueuePair qp = Objects.rcInInit(bed, pd, bed.cq(bed.local(), 16));
        qp.close();

        SendWorkRequest send = new SendWorkRequest().wrId(1).signaled(true).buffer(region, 0, 64).send();
        Closed.refuses(qp::state, "query_qp(state)");
        Closed.refuses(() -> qp.query(new QpAttributes()), "query_qp");
        Closed.refuses(() -> qp.modify(new QpAttributes().state(QpState.RESET)), "modify_qp");
        Closed.refuses(() -> qp.postSend(send), "post_send");
        Closed.refuses(() -> qp.postSend(new SendWorkRequest[] {send}, 1), "post_send of a list");
        Closed.refuses(() -> qp.postRecv(new ReceiveWorkRequest().wrId(2).buffer(region, 0, 64)), "post_recv");
        assertDoesNotThrow(qp::close, "a second destroy_qp");
    }

    @Test
    void closedSharedReceiveQueueRefusesEveryCall(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        CompletionQueue cq = bed.cq(bed.local(), 16);
        SharedReceiveQueue srq = bed.track(pd.createSrq(16, 1, 0));
        srq.close();

        Closed.refuses(() -> srq.postRecv(new ReceiveWorkRequest().wrId(1).buffer(region, 0, 64)), "post_srq_recv");
        Closed.refuses(() -> srq.armLimit(4), "modify_srq");
        Closed.refuses(srq::limit, "query_srq");
        Closed.refuses(() -> pd.createQp(new QpInitAttributes(QpType.RC, cq).srq(srq)), "create_qp on a destroyed SRQ");
        assertDoesNotThrow(srq::close, "a second destroy_srq");
    }

    @Test
    void datagramNamingClosedAddressHandleIsRefusedWithEinval(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryRegion region = Objects.region(bed, pd, Access.LOCAL_WRITE);
        QueuePair qp = Objects.udAtRts(bed, pd, bed.cq(bed.local(), 16));
        AddressHandle ah = Objects.addressHandle(bed, pd);
        ah.close();

        Expect.errno(Errno.EINVAL, () -> qp.postSend(Objects.datagram(region, ah, qp.qpn())),
                "UD send through a destroyed address handle");
        Expect.errno(Errno.EINVAL, () -> qp.postSend(new SendWorkRequest[] {Objects.datagram(region, ah, qp.qpn())}, 1),
                "a list of one UD send through a destroyed address handle");
        assertDoesNotThrow(ah::close, "a second destroy_ah");
    }
}

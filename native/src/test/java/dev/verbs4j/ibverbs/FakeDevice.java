package dev.verbs4j.ibverbs;

import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.Gid;
import dev.verbs4j.MwType;
import dev.verbs4j.QpType;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.ibv_qp_ex;
import org.bytedeco.javacpp.Pointer;

import java.lang.foreign.MemorySegment;

/**
 * Adapter objects over the binding's recording fake provider: a context, PD, CQ, region,
 * window, address handle and queue pairs whose data-path calls (post, poll, notify, bind,
 * window dealloc) reach recording fakes. Objects whose close would reach libibverbs'
 * private dispatch (everything but windows) must not be closed.
 */
final class FakeDevice implements AutoCloseable {
    /** lkey and rkey of the fake region. */
    static final int MR_LKEY = 0x1111;
    static final int MR_RKEY = 0x2222;
    /** rkey of the fake window when allocated. */
    static final int MW_RKEY = 0x5500;

    final Pointer device = FakeVerbs.newDevice();
    final IbverbsContext context = new IbverbsContext(new IbverbsDevice("fake0", 0x1234), FakeVerbs.contextOf(device));
    final IbverbsPd pd = new IbverbsPd(context, FakeVerbs.pdOf(device));
    final IbverbsCq cq = new IbverbsCq(context, null, FakeVerbs.cqOf(device));
    final IbverbsMr mr = new IbverbsMr(pd, FakeVerbs.mrOf(device), MemorySegment.NULL, 0, 0);
    private final ibv_qp_ex qpEx = FakeVerbs.newQpEx();

    FakeDevice() {
        FakeVerbs.setNextResult(0);
        FakeVerbs.clearLastCall();
    }

    /** A window over the fake's {@code ibv_mw} (without going through ibv_alloc_mw). */
    IbverbsMw window(MwType type) {
        return new IbverbsMw(pd, FakeVerbs.mwOf(device), type);
    }

    IbverbsAh addressHandle() {
        return new IbverbsAh(pd, FakeVerbs.ahOf(device), AddressHandleAttributes.to(Gid.parse("10.0.0.2"), 1));
    }

    /**
     * A queue pair: receives reach the fake's {@code post_recv}, sends the recording
     * {@code ibv_qp_ex}.
     */
    IbverbsQp queuePair(QpType type, long sendOpsFlags, QpCapacity capacity) {
        return new IbverbsQp(pd, cq, cq, null, type, FakeVerbs.qpOf(device), qpEx, capacity, sendOpsFlags);
    }

    IbverbsSrq srq(int maxWr, int maxSge) {
        return new IbverbsSrq(pd, FakeVerbs.srqOf(device), maxWr, maxSge);
    }

    /** A queue pair that receives from {@code srq}. */
    IbverbsQp queuePairOn(IbverbsSrq srq, long sendOpsFlags, QpCapacity capacity) {
        return new IbverbsQp(pd, cq, cq, srq, QpType.RC, FakeVerbs.qpOf(device), qpEx, capacity, sendOpsFlags);
    }

    ibv_qp_ex qpEx() {
        return qpEx;
    }

    @Override
    public void close() {
        FakeVerbs.deleteQpEx(qpEx);
        FakeVerbs.deleteDevice(device);
    }
}

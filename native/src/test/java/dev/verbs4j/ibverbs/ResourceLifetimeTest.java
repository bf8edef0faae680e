package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.QpType;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lifetime rules both providers share, on objects of the fake provider: memory windows
 * (whose alloc, bind and dealloc reach recording fakes) and parents with live children.
 */
class ResourceLifetimeTest {
    private final FakeDevice fake = new FakeDevice();

    @AfterEach
    void release() {
        fake.close();
    }

    @Test
    void allocateMwGoesThroughTheProvider() {
        FakeVerbs.enableWindowOps(fake.device);
        MemoryWindow mw = fake.pd.allocateMw(MwType.TYPE_2);
        assertEquals("alloc_mw type=2", FakeVerbs.lastCall());
        assertEquals(MwType.TYPE_2, mw.type());
        assertEquals(FakeDevice.MW_RKEY, mw.rkey());
    }

    @Test
    void allocateMwWhereTheProviderHasNoWindowsCarriesItsErrno() {
        VerbsException e = assertThrows(VerbsException.class, () -> fake.pd.allocateMw(MwType.TYPE_1));
        assertEquals(Errno.EOPNOTSUPP, e.error(), "set by the verbs.h inline, captured in the same call");
    }

    @Test
    void closeDeallocatesOnceAndLaterUseIsIllegalState() {
        FakeVerbs.enableWindowOps(fake.device);
        IbverbsMw mw = (IbverbsMw) fake.pd.allocateMw(MwType.TYPE_1);
        assertEquals(2, fake.pd.dependents());
        mw.close();
        assertEquals("dealloc_mw rkey=5500", FakeVerbs.lastCall());
        assertEquals(1, fake.pd.dependents(), "the domain no longer counts the window");
        FakeVerbs.clearLastCall();
        mw.close();
        assertEquals("", FakeVerbs.lastCall(), "a second close does nothing");
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_BIND_MW, new QpCapacity(1, 1, 1, 1, 0));
        assertThrows(IllegalStateException.class, () -> mw.bind(qp, 1, true, fake.mr, 0, 0, Set.of()));
    }

    @Test
    void failedDeallocKeepsTheWindowOpen() {
        FakeVerbs.enableWindowOps(fake.device);
        IbverbsMw mw = (IbverbsMw) fake.pd.allocateMw(MwType.TYPE_1);
        FakeVerbs.setNextResult(Errno.EBUSY.number());
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, mw::close).error());
        assertEquals(false, mw.isClosed());
        FakeVerbs.setNextResult(0);
        mw.close();
        assertEquals(true, mw.isClosed());
    }

    @Test
    void parentsWithLiveChildrenRefuseWithEbusyBeforeLibibverbs() {
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, fake.pd::close).error(), "the region is alive");
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, fake.context::close).error());
        fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_SEND, new QpCapacity(1, 1, 1, 1, 0));
        VerbsException e = assertThrows(VerbsException.class, fake.cq::close);
        assertEquals(Errno.EBUSY, e.error());
        assertEquals("completion queue has 2 live dependent resource(s) (EBUSY)", e.getMessage());
        assertEquals(false, fake.cq.isClosed());
    }

    @Test
    void typeOneBindGoesThroughIbvBindMwAndReadsTheNewKey() {
        IbverbsMw mw = fake.window(MwType.TYPE_1);
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_BIND_MW, new QpCapacity(1, 1, 1, 1, 0));
        int rkey = mw.bind(qp, 0x8000_0000_0000_0042L, true, fake.mr, 0x1000, 64,
                EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE));
        assertEquals("bind_mw wr_id=8000000000000042 send_flags=2 length=40 access=6", FakeVerbs.lastCall());
        assertEquals(FakeDevice.MW_RKEY, rkey, "the key the provider left in mw->rkey");
        assertEquals(fake.mr, mw.boundRegion());
        FakeVerbs.setNextResult(Errno.EPERM.number());
        assertEquals(Errno.EPERM, assertThrows(VerbsException.class,
                () -> mw.bind(qp, 1, false, fake.mr, 0, 0, Set.of())).error());
    }

    @Test
    void typeOneBindRefusesWhatWouldCrashOrCannotWork() {
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_BIND_MW, new QpCapacity(1, 1, 1, 1, 0));
        FakeVerbs.clearLastCall();
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> fake.window(MwType.TYPE_2).bind(qp, 1, true, fake.mr, 0, 0, Set.of())).error(), "type 2");
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> fake.window(MwType.TYPE_1).bind(qp, 1, true, null, 0, 0, Set.of())).error(), "no region");
        assertEquals("", FakeVerbs.lastCall());
    }

    @Test
    void regionDeregistrationRefusedForBoundWindowsIsEbusy() {
        VerbsException bound = IbverbsMr.deregisterFailure(Errno.EINVAL.number(), true);
        assertEquals(Errno.EBUSY, bound.error());
        assertInstanceOf(VerbsException.class, bound.getCause());
        assertEquals(Errno.EINVAL, ((VerbsException) bound.getCause()).error(), "the kernel's errno is kept as cause");
        assertEquals(Errno.EINVAL, IbverbsMr.deregisterFailure(Errno.EINVAL.number(), false).error());
        assertEquals(Errno.EBUSY, IbverbsMr.deregisterFailure(-Errno.EBUSY.number(), false).error());
    }

    @Test
    void registrationNeedsNativeMemoryAndFastRegistrationIsNotInLibibverbs() {
        assertThrows(IllegalArgumentException.class,
                () -> fake.pd.registerMemory(MemorySegment.ofArray(new byte[64]), Set.of(Access.LOCAL_WRITE)));
        assertThrows(IllegalArgumentException.class,
                () -> fake.pd.registerMemory(MemorySegment.ofArray(new byte[64]), 0x1000, Set.of()));
        VerbsException e = assertThrows(VerbsException.class, () -> fake.pd.allocateFastRegMr(16));
        assertEquals(Errno.EOPNOTSUPP, e.error());
        assertEquals("libibverbs has no user-space fast registration (EOPNOTSUPP)", e.getMessage());
    }

    @Test
    void rereregistrationFailuresSayWhatIsLeft() {
        assertEquals(Errno.EOPNOTSUPP, IbverbsMr.reregFailure(IbverbsConstants.IBV_REREG_MR_ERR_CMD,
                Errno.EOPNOTSUPP.number()).error());
        VerbsException unknown = IbverbsMr.reregFailure(IbverbsConstants.IBV_REREG_MR_ERR_CMD, Errno.EINVAL.number());
        assertEquals(Errno.EINVAL, unknown.error());
        assertEquals(true, unknown.getMessage().contains("close it"), unknown.getMessage());
        assertEquals(true, IbverbsMr.reregFailure(IbverbsConstants.IBV_REREG_MR_ERR_INPUT, Errno.EINVAL.number())
                .getMessage().contains("unchanged"));
    }
}

package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.MemoryVerbs;
import dev.verbs4j.ibverbs.binding.ibv_mw;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** libibverbs' three ways of failing, each turned into the errno of the same call. */
class NativeErrorsTest {
    private final Pointer device = FakeVerbs.newDevice();

    @AfterEach
    void release() {
        FakeVerbs.deleteDevice(device);
    }

    @Test
    void returnedErrnoValuesOfEitherSignBecomeThatErrno() {
        NativeErrors.check(0, "ibv_modify_qp");
        VerbsException positive = assertThrows(VerbsException.class, () -> NativeErrors.check(22, "ibv_modify_qp"));
        assertEquals(Errno.EINVAL, positive.error());
        assertEquals("ibv_modify_qp failed (EINVAL)", positive.getMessage());
        assertEquals(Errno.ENOMEM, assertThrows(VerbsException.class, () -> NativeErrors.check(-12, "post")).error());
        VerbsException unnamed = assertThrows(VerbsException.class, () -> NativeErrors.check(150, "x"));
        assertEquals(150, unnamed.errno(), "numbers the API does not name keep their value");
    }

    @Test
    void nullObjectCarriesTheErrnoCapturedInTheSameCall() {
        ibv_mw none = MemoryVerbs.ibv_alloc_mw(FakeVerbs.pdOf(device), IbverbsConstants.IBV_MW_TYPE_1);
        VerbsException e = assertThrows(VerbsException.class, () -> NativeErrors.require(none, "ibv_alloc_mw"));
        assertEquals(Errno.EOPNOTSUPP, e.error());
    }

    @Test
    void minusOneCarriesTheCapturedErrno() {
        assertNull(MemoryVerbs.ibv_alloc_mw(FakeVerbs.pdOf(device), IbverbsConstants.IBV_MW_TYPE_1));
        assertEquals(Errno.EOPNOTSUPP, assertThrows(VerbsException.class,
                () -> NativeErrors.checkErrno(-1, "ibv_close_device")).error());
    }

    @Test
    void aFailureWithoutErrnoIsReportedAsEio() {
        // ibv_alloc_pd is not reached; a NULL handle after a call that set no errno:
        MemoryVerbs.ibv_inc_rkey(1);
        Errno expected = dev.verbs4j.ibverbs.binding.Errno.lastErrno() == 0 ? Errno.EIO
                : Errno.of(dev.verbs4j.ibverbs.binding.Errno.lastErrno());
        assertEquals(expected, assertThrows(VerbsException.class, () -> NativeErrors.require(null, "x")).error());
    }
}

package dev.verbs4j.conformance.atomicwrite;

import dev.verbs4j.Access;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ATOMIC WRITE stores 8 bytes as one store at an 8-byte aligned address of a region with
 * remote write, and completes with IBV_WC_ATOMIC_WRITE; otherwise it is refused as the
 * kernel rxe refuses it ({@code atomic_write_reply}): misaligned is an invalid request,
 * a bad key or a region without remote write a remote access error.
 */
@ConformanceSuite
class AtomicWriteTest {

    @Test
    void atomicWriteStoresValueRemotely(Testbed bed) {
        RcPair pair = AtomicWriteSetup.pair(bed);
        Buffer target = pair.remote().buffer(64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(401).signaled(true)
                .atomicWrite(target.remoteAddress(16), target.rkey(), 0x1122334455667788L));

        Expect.success(WcOpcode.ATOMIC_WRITE, 401, Completions.next(pair.local().sendCq(), "the atomic write"), "atomic write");
        assertEquals(0x1122334455667788L, target.memory().get(ValueLayout.JAVA_LONG, 16), "value at the target");
        Bytes.assertFilled(target.slice(0, 16), (byte) 0, "bytes before the target");
        Bytes.assertFilled(target.slice(24, 40), (byte) 0, "bytes after the target");
    }

    @Test
    void misalignedAtomicWriteIsInvalidRequest(Testbed bed) {
        RcPair pair = AtomicWriteSetup.pair(bed);
        Buffer target = pair.remote().buffer(64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(402).signaled(true)
                .atomicWrite(target.remoteAddress(4), target.rkey(), -1L));

        Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.local().sendCq(), "the misaligned atomic write"),
                "atomic write at offset 4");
        Bytes.assertFilled(target.memory(), (byte) 0, "target of the refused atomic write");
    }

    @Test
    void atomicWriteWithUnknownRkeyIsRemoteAccessError(Testbed bed) {
        RcPair pair = AtomicWriteSetup.pair(bed);
        Buffer target = pair.remote().buffer(64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(403).signaled(true)
                .atomicWrite(target.remoteAddress(0), ~target.rkey(), -1L));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the atomic write"),
                "atomic write with an unknown rkey");
        Bytes.assertFilled(target.memory(), (byte) 0, "the region behind the valid rkey");
    }

    @Test
    void atomicWriteToRegionWithoutRemoteWriteIsRemoteAccessError(Testbed bed) {
        RcPair pair = AtomicWriteSetup.pair(bed);
        Buffer target = bed.buffer(pair.remote().pd(), 64, Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);

        pair.local().qp().postSend(new SendWorkRequest().wrId(404).signaled(true)
                .atomicWrite(target.remoteAddress(0), target.rkey(), -1L));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the atomic write"),
                "atomic write to a region without REMOTE_WRITE");
        Bytes.assertFilled(target.memory(), (byte) 0, "the region without remote write");
    }
}

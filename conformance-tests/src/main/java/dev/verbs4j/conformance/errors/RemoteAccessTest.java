package dev.verbs4j.conformance.errors;

import dev.verbs4j.Access;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

/**
 * A remote request the responder's memory does not allow is NAKed "remote access error"
 * and completes with IBV_WC_REM_ACCESS_ERR: an unknown rkey, a region without the right,
 * or a range that does not fit the region (IBTA 9.7.5.2.4, rxe {@code check_rkey}). A
 * responder queue pair that does not enable the operation at all refuses the request itself,
 * whatever the region allows: an invalid request (class C NAK, IBV_WC_REM_INV_REQ_ERR), as the
 * queue pair access check of the kernel rxe ({@code check_op_valid}) answers it.
 */
@ConformanceSuite
class RemoteAccessTest {

    @Test
    void unknownRkeyIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(64);
        Buffer target = pair.remote().buffer(4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(211).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(0), ~target.rkey()));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "a write with a bad rkey"), "write with an unknown rkey");
        Bytes.assertFilled(target.memory(), (byte) 0, "the region behind the valid rkey");
    }

    @Test
    void writeToRegionWithoutRemoteWriteIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(64);
        Buffer target = bed.buffer(pair.remote().pd(), 4096, Access.LOCAL_WRITE, Access.REMOTE_READ);
        Bytes.fill(source.memory(), 7);

        pair.local().qp().postSend(new SendWorkRequest().wrId(212).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the write"),
                "write to a region registered without REMOTE_WRITE");
        Bytes.assertFilled(target.memory(), (byte) 0, "the read-only region");
    }

    @Test
    void readFromRegionWithoutRemoteReadIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer sink = pair.local().buffer(64);
        Buffer source = bed.buffer(pair.remote().pd(), 4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);

        pair.local().qp().postSend(new SendWorkRequest().wrId(213).signaled(true).buffer(sink.region(), 0, 64)
                .rdmaRead(source.remoteAddress(0), source.rkey()));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the read"),
                "read from a region registered without REMOTE_READ");
    }

    @Test
    void writePastRegionEndIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(64);
        Buffer target = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 8);

        pair.local().qp().postSend(new SendWorkRequest().wrId(214).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(4096 - 32), target.rkey()));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the write"),
                "64-byte write starting 32 bytes before the region's end");
        Bytes.assertFilled(target.memory(), (byte) 0, "the region (no partial write)");
    }

    @Test
    void readPastRegionEndIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer sink = pair.local().buffer(8192);
        Buffer source = pair.remote().buffer(4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(215).signaled(true).buffer(sink.region(), 0, 4097)
                .rdmaRead(source.remoteAddress(0), source.rkey()));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the read"),
                "read one byte longer than the region");
    }

    @Test
    void readBeforeRegionStartIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer sink = pair.local().buffer(64);
        Buffer source = pair.remote().buffer(4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(216).signaled(true).buffer(sink.region(), 0, 16)
                .rdmaRead(source.remoteAddress(-8), source.rkey()));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the read"),
                "read starting 8 bytes before the region");
    }

    @Test
    void writeToQueuePairWithoutRemoteWriteIsInvalidRequest(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().qpAccess(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ)));
        Buffer source = pair.local().buffer(64);
        Buffer target = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 9);

        pair.local().qp().postSend(new SendWorkRequest().wrId(217).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.local().sendCq(), "the write"),
                "write to a queue pair that does not grant REMOTE_WRITE");
        Bytes.assertFilled(target.memory(), (byte) 0, "the region behind a queue pair without REMOTE_WRITE");
    }

    @Test
    void readFromQueuePairWithoutRemoteReadIsInvalidRequest(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().qpAccess(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE)));
        Buffer sink = pair.local().buffer(64);
        Buffer source = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 10);

        pair.local().qp().postSend(new SendWorkRequest().wrId(218).signaled(true).buffer(sink.region(), 0, 64)
                .rdmaRead(source.remoteAddress(0), source.rkey()));

        Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.local().sendCq(), "the read"),
                "read from a queue pair that does not grant REMOTE_READ");
        Bytes.assertFilled(sink.memory(), (byte) 0, "the sink of a refused read");
    }
}

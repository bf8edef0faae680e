package dev.verbs4j.conformance.base;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code IBV_SEND_INLINE}: the data is copied when the request is posted, so the buffer
 * may be reused at once, and "the L_Key will not be checked" (ibv_post_send(3)): memory
 * that no region registers is given as a segment, whose bounds the provider checks
 * (the misuse family's {@code InlineAddressTest} holds what it refuses).
 * A queue pair created without inline room is skipped as unsupported.
 */
@ConformanceSuite
class InlineSendTest {
    private static final int INLINE = 64;

    @Test
    void inlineSendCarriesBytesCopiedAtPostTime(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().inlineBytes(INLINE));
        Buffer source = pair.local().buffer(INLINE);
        Buffer sink = pair.remote().buffer(INLINE);
        Bytes.fill(source.memory(), 11);
        MemorySegment original = bed.memory(INLINE).copyFrom(source.memory());
        pair.remote().postRecv(81, sink, 0, INLINE);

        pair.local().qp().postSend(new SendWorkRequest().wrId(31).signaled(true).inline(true)
                .buffer(source.region(), 0, INLINE).send());
        source.memory().fill((byte) 0x55);

        Expect.success(WcOpcode.SEND, 31, Completions.next(pair.local().sendCq(), "the inline send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 81, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertEquals(INLINE, recv.byteLength(), "byte_len of the receive");
        Bytes.assertSame(original, sink.memory(), "bytes as they were when the inline send was posted");
    }

    @Test
    void inlineSendFromUnregisteredSegmentNeedsNoLkey(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().inlineBytes(INLINE));
        MemorySegment unregistered = Bytes.fill(bed.memory(32), 12);
        Buffer sink = pair.remote().buffer(INLINE);
        pair.remote().postRecv(82, sink, 0, INLINE);

        SendWorkRequest wr = new SendWorkRequest().wrId(32).signaled(true).inline(true).send();
        wr.sges().clear().add(unregistered, 0, 32);
        pair.local().qp().postSend(wr);

        Expect.success(WcOpcode.SEND, 32, Completions.next(pair.local().sendCq(), "the inline send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 82, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertEquals(32, recv.byteLength(), "byte_len of the receive");
        Bytes.assertSame(unregistered, sink.slice(0, 32), "bytes sent inline from unregistered memory");
    }
}

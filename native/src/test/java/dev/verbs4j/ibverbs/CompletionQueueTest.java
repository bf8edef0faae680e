package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.ibverbs.binding.FakeVerbs;

import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Polling and notification through the fake provider, whose {@code poll_cq} writes the
 * completions 1..n (the first a successful RDMA WRITE with immediate receive, the others
 * REM_ACCESS_ERR FLUSH completions).
 */
class CompletionQueueTest {
    private final FakeDevice fake = new FakeDevice();
    private final WorkCompletion[] out = IntStream.range(0, 64).mapToObj(i -> new WorkCompletion())
            .toArray(WorkCompletion[]::new);

    @AfterEach
    void release() {
        fake.close();
    }

    @Test
    void pollFillsTheCallersCompletions() {
        FakeVerbs.setNextResult(2);
        assertEquals(2, fake.cq.poll(out, 8));
        assertEquals("poll_cq cq=fake num_entries=8", FakeVerbs.lastCall());
        WorkCompletion first = out[0];
        assertEquals(0x8000_0000_0000_0001L, first.wrId());
        assertEquals(WcStatus.SUCCESS, first.status());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, first.opcode());
        assertEquals(100, first.byteLength());
        assertEquals(NetworkOrder.toHost32(0xdeadbeef), first.immData(), "imm_data is __be32");
        assertEquals(0xabcdef, first.qpNum());
        assertEquals(WcStatus.REM_ACCESS_ERR, out[1].status());
        assertEquals(WcOpcode.FLUSH, out[1].opcode());
        assertEquals(200, out[1].byteLength());
    }

    @Test
    void pollAsksAgainWhileFullBatchesCome() {
        FakeVerbs.setNextResult(1000);
        assertEquals(40, fake.cq.poll(out, 40));
        assertEquals("poll_cq cq=fake num_entries=8", FakeVerbs.lastCall(), "32, then the 8 still wanted");
        assertEquals(8 * 100, out[39].byteLength());
    }

    @Test
    void pollStopsAtAnEmptyQueueAndAtTheArraysEnd() {
        FakeVerbs.setNextResult(0);
        assertEquals(0, fake.cq.poll(out));
        FakeVerbs.setNextResult(1000);
        WorkCompletion[] two = {new WorkCompletion(), new WorkCompletion()};
        assertEquals(2, fake.cq.poll(two, 5), "max is capped by the array");
    }

    @Test
    void pollFailureIsAVerbsException() {
        FakeVerbs.setNextResult(-Errno.EIO.number());
        assertEquals(Errno.EIO, assertThrows(VerbsException.class, () -> fake.cq.poll(out)).error());
    }

    @Test
    void requestNotifyPassesSolicitedOnlyToTheProvider() {
        int[] pipe = FakeVerbs.pipe();
        try {
            IbverbsChannel channel = new IbverbsChannel(fake.context, FakeVerbs.channelOf(fake.device, pipe[0]));
            IbverbsCq cq = new IbverbsCq(fake.context, channel, FakeVerbs.cqOf(fake.device));
            assertSame(channel, cq.channel());
            cq.requestNotify(true);
            assertEquals("req_notify_cq solicited_only=1", FakeVerbs.lastCall());
            cq.requestNotify(false);
            assertEquals("req_notify_cq solicited_only=0", FakeVerbs.lastCall());
            FakeVerbs.setNextResult(Errno.EINVAL.number());
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> cq.requestNotify(false)).error());
            assertEquals(1, channel.dependents(), "the channel counts its queue");
        } finally {
            FakeVerbs.close(pipe[0]);
            FakeVerbs.close(pipe[1]);
        }
    }

    @Test
    void requestNotifyWithoutAChannelIsEinval() {
        FakeVerbs.clearLastCall();
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> fake.cq.requestNotify(false)).error());
        assertEquals("", FakeVerbs.lastCall(), "refused before libibverbs");
    }
}

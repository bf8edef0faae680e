package dev.verbs4j.conformance.base;

import dev.verbs4j.Errno;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A list of send requests posted in one call ({@code ibv_post_send} with a chained list):
 * carried out in order, and a request the provider refuses ends the list, the ones before
 * it posted and the ones after it not.
 */
@ConformanceSuite
class PostListTest {

    @Test
    void listIsCarriedOutInOrder(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer sink = pair.remote().buffer(4096);
        Buffer inbox = pair.remote().buffer(64);
        Bytes.fill(source.memory(), 5);
        pair.remote().postRecv(91, inbox, 0, 64);
        SendWorkRequest[] list = new SendWorkRequest[4];
        for (int i = 0; i < 3; i++) {
            list[i] = new SendWorkRequest().wrId(60 + i).signaled(false).buffer(source.region(), i * 1000L, 1000)
                    .rdmaWrite(sink.region().address() + i * 1000L, sink.region().rkey());
        }
        list[3] = new SendWorkRequest().wrId(63).signaled(true).buffer(source.region(), 3000, 64).send();

        assertEquals(4, pair.local().qp().postSend(list, 4), "requests posted");

        // The unsignaled writes complete silently; the SEND, last in the list, reports.
        Expect.success(WcOpcode.SEND, 63, Completions.next(pair.local().sendCq(), "the send ending the list"), "send completion");
        Expect.success(WcOpcode.RECV, 91, Completions.next(pair.remote().recvCq(), "the receive"), "receive completion");
        // RC executes in order: by the time the SEND is received, the three writes are placed.
        Bytes.assertSame(source.slice(0, 3000), sink.slice(0, 3000), "bytes of the three writes");
        Bytes.assertSame(source.slice(3000, 64), inbox.slice(0, 64), "bytes of the send");
    }

    @Test
    void refusedRequestEndsTheList(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer sink = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 6);
        SendWorkRequest[] list = new SendWorkRequest[4];
        for (int i = 0; i < 4; i++) {
            list[i] = new SendWorkRequest(2).wrId(70 + i).signaled(true).buffer(source.region(), i * 100L, 100)
                    .rdmaWrite(sink.region().address() + i * 100L, sink.region().rkey());
        }
        // Two gather entries where the queue pair takes one: refused by the provider.
        list[2].sges().add(source.region(), 2000, 100);

        Expect.errno(Errno.EINVAL, () -> pair.local().qp().postSend(list, 4),
                "a list whose third request has more gather entries than the queue pair takes");

        Expect.success(WcOpcode.RDMA_WRITE, 70, Completions.next(pair.local().sendCq(), "the first write"), "first write");
        Expect.success(WcOpcode.RDMA_WRITE, 71, Completions.next(pair.local().sendCq(), "the second write"), "second write");
        Completions.assertNone(pair.local().sendCq(), Duration.ofMillis(200), "the refused request and the one after it were not posted");
        Bytes.assertSame(source.slice(0, 200), sink.slice(0, 200), "bytes of the two posted writes");
        Bytes.assertFilled(sink.slice(200, 200), (byte) 0, "bytes the refused request and the one after it would have written");
    }
}

package dev.verbs4j.softroce.engine;

import dev.verbs4j.Errno;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.VerbsException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RecvQueueTest {

    private static void post(RecvQueue q, long wrId) {
        q.post(new ReceiveWorkRequest().wrId(wrId));
    }

    @Test
    void growingKeepsPostedReceivesAndTheirScatterListsInOrder() {
        RecvQueue q = new RecvQueue(4, 1);
        for (int i = 0; i < 4; i++) {
            post(q, i);
        }
        q.advance();
        q.advance();
        post(q, 4);
        post(q, 5); // posted receives 2..5 wrap around the four slots
        ScatterGatherList headBefore = q.headSges();

        q.resize(16);
        assertEquals(16, q.capacity());
        assertSame(headBefore, q.headSges(), "the engine's view of the head receive is the same object after the resize");
        for (int i = 6; i < 18; i++) {
            post(q, i);
        }
        VerbsException full = assertThrows(VerbsException.class, () -> post(q, 18));
        assertEquals(Errno.ENOMEM, full.error());
        for (long expected = 2; expected < 18; expected++) {
            assertEquals(expected, q.headWrId(), "receives are taken in posting order");
            q.advance();
        }
    }

    @Test
    void shrinkingBelowThePostedReceivesOrTheArmedLimitFailsWithEinval() {
        RecvQueue q = new RecvQueue(8, 1);
        post(q, 1);
        post(q, 2);
        post(q, 3);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> q.resize(2)).error());
        q.armLimit(5);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> q.resize(4)).error());
        q.resize(5);
        assertEquals(5, q.capacity());
        post(q, 4);
        post(q, 5);
        assertEquals(Errno.ENOMEM, assertThrows(VerbsException.class, () -> post(q, 6)).error());
    }
}

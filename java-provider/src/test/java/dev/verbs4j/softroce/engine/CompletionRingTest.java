package dev.verbs4j.softroce.engine;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompletionRingTest {

    private static boolean push(CompletionRing ring, long wrId) {
        return ring.push(wrId, WcStatus.SUCCESS, WcOpcode.SEND, 0, 1, 0, 0, 0, false);
    }

    @Test
    void resizeKeepsHeldCompletionsInOrderAcrossTheWrap() {
        CompletionRing ring = new CompletionRing(4, null);
        WorkCompletion[] out = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        for (int i = 0; i < 4; i++) {
            push(ring, i);
        }
        assertEquals(3, ring.poll(out, 3));
        push(ring, 4);
        push(ring, 5); // the held completions now wrap: slots 3, 0, 1

        ring.resize(8);
        assertEquals(8, ring.capacity());
        for (int i = 6; i < 11; i++) {
            assertTrue(push(ring, i), "room for completion " + i + " after growing");
        }
        long expected = 3;
        int n;
        while ((n = ring.poll(out, out.length)) > 0) {
            for (int i = 0; i < n; i++) {
                assertEquals(expected++, out[i].wrId(), "completions come out in the order they went in");
            }
        }
        assertEquals(11, expected);
    }

    @Test
    void resizeBelowTheHeldCompletionsFailsWithEinvalAndChangesNothing() {
        CompletionRing ring = new CompletionRing(4, null);
        push(ring, 1);
        push(ring, 2);
        VerbsException e = assertThrows(VerbsException.class, () -> ring.resize(1));
        assertEquals(Errno.EINVAL, e.error());
        assertEquals(4, ring.capacity());
        ring.resize(2);
        assertFalse(push(ring, 3), "a ring resized to the two it holds is full");
    }

    @Test
    void aRingWithAClockStampsEachCompletionAsItIsAppended() {
        long[] now = {1_000};
        CompletionRing ring = new CompletionRing(4, null, () -> now[0]);
        push(ring, 1);
        now[0] = 2_500;
        push(ring, 2);
        assertEquals(1, ring.oldest().wrId());
        assertEquals(1_000, ring.oldestStamp());
        ring.consume();
        assertEquals(2_500, ring.oldestStamp());
        ring.resize(2);
        assertEquals(2, ring.oldest().wrId(), "a resize keeps the stamp with its completion");
        assertEquals(2_500, ring.oldestStamp());
        ring.consume();
        assertNull(ring.oldest());
        assertEquals(0, new CompletionRing(2, null).oldestStamp(), "a ring without a clock stamps nothing");
    }
}

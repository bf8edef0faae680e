package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.HostileTarget.Answer;
import dev.verbs4j.nvmeof.HostileTarget.IoCommand;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.Completion;
import dev.verbs4j.nvmeof.host.HostQueue;
import dev.verbs4j.nvmeof.host.KeyMethod;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.Cqe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the host does with a controller it cannot trust: a response shorter than a completion
 * entry, a response for no command outstanding, or a remote invalidation of a key the command
 * did not give fails the queue, and every command on it ends with a transport error, as
 * Linux's host starts error recovery. The right answers from the same controller complete,
 * so that the failures are the answers' doing. Each case runs with fast-registered keys and
 * with type 2 windows, the two kinds a controller may invalidate.
 */
class ControllerMisbehaviourTest {
    private static final int PORT = 4428;
    private static final Duration WAIT = Duration.ofSeconds(10);
    private HostileTarget target;
    private NvmeHost host;

    @BeforeEach
    void start() {
        target = new HostileTarget(Loopback.soft(), PORT);
    }

    @AfterEach
    void stop() {
        if (host != null) {
            host.close();
        }
        target.close();
    }

    private HostQueue connect(KeyMethod keys) {
        host = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT)
                .withQueues(1, 8).withKeyMethod(keys));
        return host.ioQueue(1);
    }

    /** Submits a read of 8 blocks from {@code lba} and returns it as the controller received it. */
    private IoCommand read(HostQueue queue, long lba) throws InterruptedException {
        queue.submit(Command.read(1, lba, 8, host.allocateBuffer(4096)));
        return target.nextIo(WAIT);
    }

    /** Polls until {@code count} commands have ended. */
    private static List<Completion> ended(HostQueue queue, int count) {
        List<Completion> ended = new ArrayList<>();
        Completion[] batch = {new Completion(), new Completion(), new Completion(), new Completion()};
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (ended.size() < count) {
            int n = queue.poll(batch);
            for (int i = 0; i < n; i++) {
                ended.add(new Completion().copyFrom(batch[i]));
            }
            if (n == 0 && System.nanoTime() - deadline > 0) {
                throw new AssertionError(ended.size() + " of " + count + " commands ended within " + WAIT
                        + (queue.failed() ? "; the queue failed: " + queue.failure() : ""));
            }
        }
        return ended;
    }

    private static void assertQueueFailed(HostQueue queue, List<Completion> ended, String why) {
        assertTrue(queue.failed(), "the queue failed");
        assertTrue(queue.failure().contains(why), queue.failure());
        for (Completion c : ended) {
            assertEquals(NvmeException.TRANSPORT, c.status(), "command " + c.commandId() + " ends with a transport error");
        }
    }

    @ParameterizedTest
    @EnumSource(value = KeyMethod.class, names = {"FAST_REGISTER", "WINDOW"})
    void rightAnswersCompleteAndInvalidateTheKeysTheyName(KeyMethod keys) throws InterruptedException {
        HostQueue queue = connect(keys);
        MemorySegment buffer = host.allocateBuffer(4096);
        MemorySegment pattern = Arena.ofAuto().allocate(4096);
        Patterns.fill(pattern, 7);

        queue.submit(Command.read(1, 0, 8, buffer));
        IoCommand read = target.nextIo(WAIT);
        target.writeData(read, pattern);
        target.answer(read, Answer.right(read));

        Completion done = ended(queue, 1).get(0);
        assertEquals(0, done.status());
        assertTrue(done.invalidatedByController(), "the controller's SEND with invalidate took the key away");
        assertTrue(Patterns.matches(buffer, 7), "the data the controller wrote");
        assertFalse(queue.failed());
    }

    @ParameterizedTest
    @EnumSource(value = KeyMethod.class, names = {"FAST_REGISTER", "WINDOW"})
    void aResponseShorterThanACompletionEntryFailsTheQueue(KeyMethod keys) throws InterruptedException {
        HostQueue queue = connect(keys);
        IoCommand read = read(queue, 0);

        // The receive buffer still holds zeros, which read as a success for command 0.
        target.answer(read, new Answer(read.commandId(), 0, Cqe.BYTES / 2, false, 0));

        assertQueueFailed(queue, ended(queue, 1), "shorter than a completion entry");
    }

    @ParameterizedTest
    @EnumSource(value = KeyMethod.class, names = {"FAST_REGISTER", "WINDOW"})
    void aResponseForNoCommandOutstandingFailsTheQueue(KeyMethod keys) throws InterruptedException {
        HostQueue queue = connect(keys);
        IoCommand read = read(queue, 0);

        target.answer(read, new Answer(read.commandId() + 1, 0, Cqe.BYTES, false, 0));

        assertQueueFailed(queue, ended(queue, 1), "not outstanding");
    }

    @ParameterizedTest
    @EnumSource(value = KeyMethod.class, names = {"FAST_REGISTER", "WINDOW"})
    void invalidatingAnotherCommandsKeyFailsTheQueue(KeyMethod keys) throws InterruptedException {
        HostQueue queue = connect(keys);
        IoCommand first = read(queue, 0);
        IoCommand second = read(queue, 8);

        // The first command's response takes away the key the second's data is still to go through.
        target.answer(first, new Answer(first.commandId(), 0, Cqe.BYTES, true, second.key()));

        assertQueueFailed(queue, ended(queue, 2), "which the command did not give");
    }
}

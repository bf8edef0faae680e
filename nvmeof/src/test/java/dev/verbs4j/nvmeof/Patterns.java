package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.Completion;
import dev.verbs4j.nvmeof.host.HostQueue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Seeded data and a driver that keeps a queue full until a batch of commands has ended. */
final class Patterns {
    private Patterns() {
    }

    static void fill(MemorySegment s, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
        }
    }

    /** Whether {@code s} holds the pattern of {@code seed}. */
    static boolean matches(MemorySegment s, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < s.byteSize(); i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) != (byte) random.nextInt()) {
                return false;
            }
        }
        return true;
    }

    /** The completions, indexed like the commands, and the most that were outstanding at once. */
    record Outcome(Completion[] completions, int maxOutstanding) {
    }

    /**
     * Runs every command, keeping as many outstanding as the queue takes. Fails on a status
     * other than success.
     */
    static Outcome run(HostQueue queue, Command[] commands) {
        Completion[] byCommand = new Completion[commands.length];
        int[] commandOfSlot = new int[1024];
        Completion[] batch = new Completion[16];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = new Completion();
        }
        int next = 0;
        int done = 0;
        int maxOutstanding = 0;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (done < commands.length) {
            while (next < commands.length && !queue.full()) {
                commandOfSlot[queue.submit(commands[next])] = next;
                next++;
            }
            maxOutstanding = Math.max(maxOutstanding, queue.outstanding());
            int n = queue.poll(batch);
            for (int i = 0; i < n; i++) {
                int index = commandOfSlot[batch[i].commandId()];
                byCommand[index] = new Completion().copyFrom(batch[i]);
                assertEquals(0, batch[i].status(), "command " + index + " status, queue failure: " + queue.failure());
                done++;
            }
            assertFalse(System.nanoTime() - deadline > 0, "commands still outstanding after 30 s");
        }
        return new Outcome(byCommand, maxOutstanding);
    }
}

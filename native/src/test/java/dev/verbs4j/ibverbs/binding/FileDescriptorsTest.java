package dev.verbs4j.ibverbs.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The descriptor helpers behind timed completion-channel waits, on a pipe. */
class FileDescriptorsTest {

    private final int[] pipe = new int[2];

    @BeforeEach
    void openPipe() {
        assertEquals(0, PosixForTests.pipe(pipe));
    }

    @AfterEach
    void closePipe() {
        PosixForTests.close(pipe[0]);
        PosixForTests.close(pipe[1]);
    }

    @Test
    void setNonBlockingAddsONonblockAndKeepsOtherFlags() {
        int before = PosixForTests.fcntl(pipe[0], PosixForTests.F_GETFL());
        assertEquals(0, before & PosixForTests.O_NONBLOCK());
        assertEquals(0, FileDescriptors.setNonBlocking(pipe[0]));
        int after = PosixForTests.fcntl(pipe[0], PosixForTests.F_GETFL());
        assertEquals(before | PosixForTests.O_NONBLOCK(), after);
    }

    @Test
    void pollTimesOutOnAnEmptyPipe() {
        long start = System.nanoTime();
        assertEquals(0, FileDescriptors.pollReadable(pipe[0], 50));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(elapsedMs >= 45, "waited " + elapsedMs + " ms");
    }

    @Test
    void pollReportsReadableOnceDataArrives() {
        assertEquals(1, PosixForTests.write(pipe[1], new byte[] {42}, 1));
        assertEquals(1, FileDescriptors.pollReadable(pipe[0], 1000));
    }

    @Test
    void closedDescriptorsFailWithMinusEbadf() {
        PosixForTests.close(pipe[1]);
        int closed = pipe[1];
        pipe[1] = -1;
        assertEquals(-PosixForTests.EBADF(), FileDescriptors.setNonBlocking(closed));
    }
}

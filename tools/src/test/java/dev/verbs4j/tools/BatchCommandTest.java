package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private int batch(String input, String... args) {
        PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
        return BatchCommand.run(args, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), printed, printed);
    }

    @Test
    void eachCommandWritesItsOutputAndItsStatusToItsOwnFiles() throws Exception {
        Path first = dir.resolve("first.log");
        Path second = dir.resolve("second.log");

        int status = batch(first + "\thelp\n\n" + second + "\tperf-report\n" + dir.resolve("third.log") + "\thelp\n");

        assertTrue(Files.readString(first).contains("usage: verbs4j <command>"), Files.readString(first));
        assertEquals("0", Files.readString(dir.resolve("first.log.rc")).trim());
        // perf-report without its input file fails: the batch stops there, with its status.
        String secondStatus = Files.readString(dir.resolve("second.log.rc")).trim();
        assertFalse(secondStatus.equals("0"), Files.readString(second));
        assertEquals(Integer.parseInt(secondStatus), status);
        assertEquals("exit 0\nexit " + secondStatus + "\n", out.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("third.log")));
    }

    @Test
    void aCommandThatOutlastsTheTimeoutEndsTheBatchWithItsThreadsStacks() throws Exception {
        Path log = dir.resolve("server.log");
        PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
        // A server whose client never comes.
        BatchCommand.Runner waitsForever = (command, output) -> {
            output.println("waiting");
            new java.util.concurrent.CountDownLatch(1).await();
            return 0;
        };
        int status = BatchCommand.run(new String[] {"--timeout-s", "1"},
                new ByteArrayInputStream((log + "\tserve\n").getBytes(StandardCharsets.UTF_8)), printed, printed, waitsForever);

        assertEquals(BatchCommand.TIMED_OUT, status);
        assertEquals("124", Files.readString(dir.resolve("server.log.rc")).trim());
        String text = Files.readString(log);
        assertTrue(text.contains("still ran after 1 s") && text.contains("waiting") && text.contains("\"verbs4j-batch-serve\""), text);
    }

    @Test
    void aLineWithNoArgumentsRunsTheCommandWithNone() throws Exception {
        Path log = dir.resolve("none.log");

        assertEquals(0, batch(log + "\n"));

        // verbs4j with no command prints its usage, as the command line does.
        assertTrue(Files.readString(log).contains("usage: verbs4j <command>"), Files.readString(log));
        assertEquals("0", Files.readString(dir.resolve("none.log.rc")).trim());
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        assertEquals(2, batch("", "--fast"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("usage: verbs4j batch"));
    }
}

package dev.verbs4j.tools.perf;

import java.io.IOException;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;

/**
 * The stamp line a generated table of docs/ starts with, which scripts/docs-check.py compares
 * with the last commit that touched the table's sources:
 * {@code <!-- generated: WHAT at COMMIT on DATE; sources: PATH... -->}.
 */
final class DocsStamp {
    private DocsStamp() {
    }

    /**
     * The stamp line for a table made now, from the commit the working directory is at.
     *
     * @param what what made the table
     * @param sources the paths, relative to the repository, whose changes make it stale
     * @return the line, with {@code unknown} as the commit outside a git checkout
     */
    static String line(String what, String sources) {
        return "<!-- generated: " + what + " at " + headCommit() + " on " + LocalDate.now() + "; sources: " + sources + " -->";
    }

    private static String headCommit() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).trim();
            return git.waitFor(5, TimeUnit.SECONDS) && git.exitValue() == 0 && out.matches("[0-9a-f]{7,40}") ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}

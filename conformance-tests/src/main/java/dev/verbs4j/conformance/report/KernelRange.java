package dev.verbs4j.conformance.report;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel releases a findings line applies to: {@code FIRST..LAST}, either end open, each a
 * version such as {@code 6.1} or {@code 6.12.117}. A release is compared in as many version
 * parts as the bound has, so {@code ..6.12} includes 6.12.117+deb13-amd64 and {@code 6.15..}
 * excludes 6.14.9. {@link #ANY} includes every run, even one that recorded no kernel.
 */
final class KernelRange {
    /** Every kernel. */
    static final KernelRange ANY = new KernelRange(null, null);

    private static final Pattern VERSION = Pattern.compile("^(\\d+(?:\\.\\d+)*)");

    private final int[] first;
    private final int[] last;

    private KernelRange(int[] first, int[] last) {
        this.first = first;
        this.last = last;
    }

    /** @throws IllegalArgumentException unless {@code text} is {@code FIRST..LAST} with versions or empty ends */
    static KernelRange parse(String text) {
        int dots = text.indexOf("..");
        if (dots < 0) {
            throw new IllegalArgumentException("a kernel range is FIRST..LAST (either end may be left out): " + text);
        }
        String from = text.substring(0, dots).trim();
        String to = text.substring(dots + 2).trim();
        if (from.isEmpty() && to.isEmpty()) {
            return ANY;
        }
        return new KernelRange(from.isEmpty() ? null : bound(from), to.isEmpty() ? null : bound(to));
    }

    private static int[] bound(String version) {
        if (!version.matches("\\d+(\\.\\d+)*")) {
            throw new IllegalArgumentException("a kernel range's end is a version such as 6.1 or 6.12.117: " + version);
        }
        return parts(version);
    }

    private static int[] parts(String version) {
        return Arrays.stream(version.split("\\.")).mapToInt(Integer::parseInt).toArray();
    }

    /** Whether the release ({@code uname -r}, e.g. {@code 6.1.0-50-amd64}) lies in the range. */
    boolean includes(String release) {
        if (first == null && last == null) {
            return true;
        }
        Matcher m = VERSION.matcher(release == null ? "" : release);
        if (!m.find()) {
            return false;
        }
        int[] version = parts(m.group(1));
        return (first == null || compare(version, first) >= 0) && (last == null || compare(version, last) <= 0);
    }

    /** Compares in the bound's parts only; a missing part of the release counts as 0. */
    private static int compare(int[] version, int[] bound) {
        for (int i = 0; i < bound.length; i++) {
            int v = i < version.length ? version[i] : 0;
            if (v != bound[i]) {
                return Integer.compare(v, bound[i]);
            }
        }
        return 0;
    }
}

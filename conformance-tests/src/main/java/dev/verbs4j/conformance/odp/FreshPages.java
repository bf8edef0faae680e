package dev.verbs4j.conformance.odp;

import dev.verbs4j.conformance.fixture.Testbed;

import java.lang.foreign.MemorySegment;

/**
 * Memory whose pages are not present, so the transport has to fault every page it touches
 * ({@link Testbed#freshPages}).
 */
final class FreshPages {
    private FreshPages() {
    }

    /** {@code bytes} of memory at the start of whole, dropped pages. */
    static MemorySegment allocate(Testbed bed, long bytes) {
        return bed.freshPages(bytes);
    }
}

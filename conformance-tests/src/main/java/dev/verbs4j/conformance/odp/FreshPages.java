package dev.verbs4j.conformance.odp;

import dev.verbs4j.conformance.fixture.Testbed;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Anonymous memory whose pages are not present: page-aligned, a whole number of pages, and
 * emptied with {@code madvise(MADV_DONTNEED)} (as rdma-core's pyverbs ODP tests do), so the
 * transport has to fault every page it touches.
 */
final class FreshPages {
    private static final long PAGE = 4096;
    private static final int MADV_DONTNEED = 4;
    private static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private FreshPages() {
    }

    /** {@code bytes} of memory at the start of whole, dropped pages. */
    static MemorySegment allocate(Testbed bed, long bytes) {
        long whole = (Math.max(1, bytes) + PAGE - 1) / PAGE * PAGE;
        MemorySegment pages = bed.arena().allocate(whole, PAGE);
        drop(pages);
        return pages.asSlice(0, bytes);
    }

    /** Drops the pages of a page-aligned, whole-page segment; the next touch faults a zero page. */
    static void drop(MemorySegment pages) {
        try {
            int rc = (int) MADVISE.invokeExact(pages, pages.byteSize(), MADV_DONTNEED);
            if (rc != 0) {
                throw new IllegalStateException("madvise(MADV_DONTNEED) failed");
            }
        } catch (Throwable t) {
            throw new IllegalStateException("cannot drop pages", t);
        }
    }
}

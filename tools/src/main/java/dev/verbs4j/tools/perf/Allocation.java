package dev.verbs4j.tools.perf;

import java.lang.management.ManagementFactory;

/** Bytes allocated by every live thread of the process, to report allocation per operation. */
final class Allocation {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocation() {
    }

    /** The sum over all live threads (engine threads included). */
    static long allocatedBytes() {
        long[] ids = THREADS.getAllThreadIds();
        long sum = 0;
        for (long b : THREADS.getThreadAllocatedBytes(ids)) {
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
    }
}

package dev.verbs4j.tools.perf;

import java.lang.management.ManagementFactory;

/** Bytes allocated by every live thread of the process, to report allocation per operation. */
final class Allocation {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocation() {
    }

    /** The sum over all live threads (engine threads included) but the one that shows {@link Progress}. */
    static long allocatedBytes() {
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        long progress = Progress.reporterId();
        long sum = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] > 0 && ids[i] != progress) {
                sum += bytes[i];
            }
        }
        return sum;
    }
}

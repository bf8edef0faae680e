package dev.verbs4j.softroce.memory;

/**
 * The On-Demand Paging page faults of every region of one device, for its counters: added to
 * by the engine thread as pages fault in, readable from any thread.
 */
final class OdpFaultTally {
    private volatile long faults;

    void add(long pages) {
        if (pages != 0) {
            faults = faults + pages; // one writer: the thread that holds the device
        }
    }

    long get() {
        return faults;
    }
}

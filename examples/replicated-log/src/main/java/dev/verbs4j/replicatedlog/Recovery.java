package dev.verbs4j.replicatedlog;

/**
 * What a log file holds after a crash, as {@link LogRecovery#recover} found it.
 *
 * @param tail    the published tail: the bytes of records that are trusted
 * @param records how many records lie before the tail, each complete and checksum-intact
 *                when {@code problem} is null
 * @param problem why the published part is not intact (a torn or corrupt record before the
 *                tail, a tail outside the file, no log header), or null
 */
public record Recovery(long tail, long records, String problem) {
    /** Whether every record before the tail is complete and intact. */
    public boolean intact() {
        return problem == null;
    }

    /** The sequence number the next record gets. */
    public long nextSeq() {
        return records + 1;
    }

    @Override
    public String toString() {
        return "tail " + tail + ", records " + records + (problem == null ? ", intact" : ", CORRUPT: " + problem);
    }
}

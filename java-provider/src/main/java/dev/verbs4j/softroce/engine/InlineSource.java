package dev.verbs4j.softroce.engine;

import dev.verbs4j.ScatterGatherList;

import java.lang.foreign.MemorySegment;

/**
 * Copies the data of an inline send into its queue slot at post time. The entries must
 * lie in registered memory: a Java process reaches native memory only through segments,
 * so the copy goes through the region that covers each entry.
 */
@FunctionalInterface
public interface InlineSource {
    /** @throws dev.verbs4j.VerbsException {@code EINVAL} when an entry is not in registered memory */
    void copy(ScatterGatherList sges, MemorySegment target);
}

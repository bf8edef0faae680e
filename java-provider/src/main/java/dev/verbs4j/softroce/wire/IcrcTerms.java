package dev.verbs4j.softroce.wire;

import java.util.Arrays;

/**
 * One flow's ICRC terms by UDP payload length: what the pseudo packet's variant part adds to
 * the CRC32 of the packet itself ({@link Icrc}). The term depends on the flow's addresses and
 * ports and on the length only, so a flow keeps the few lengths it carries, in
 * {@value #SLOTS} slots chosen by length (a later length in the same slot replaces the
 * earlier one). Cleared whenever the flow changes. Not thread-safe, as the flow.
 */
final class IcrcTerms {
    static final int SLOTS = 8;

    /** Per slot: the length plus one in the high half (0 for an empty slot), the term in the low half. */
    private final long[] entries = new long[SLOTS];

    /** Whether {@code entry} (from {@link #entry}) holds the term of {@code length}. */
    static boolean holds(long entry, int length) {
        return (int) (entry >>> 32) == length + 1;
    }

    /** The slot's entry for {@code length}: its term in the low half if {@link #holds} says so. */
    long entry(int length) {
        return entries[slot(length)];
    }

    /** Keeps {@code term} for {@code length}. @return the term */
    int keep(int length, int term) {
        entries[slot(length)] = (long) (length + 1) << 32 | (term & 0xFFFF_FFFFL);
        return term;
    }

    /** Forgets every term (the flow changed). */
    void clear() {
        Arrays.fill(entries, 0L);
    }

    static int slot(int length) {
        return (length * 0x9E37_79B9) >>> 29; // the top 3 bits: one of SLOTS
    }
}

package dev.verbs4j.softroce.wire;

import java.util.Arrays;

/**
 * {@link Ipv4IdRecovery}'s two products, by the UDP payload lengths that keep coming: a length
 * met {@value #BUILD_AFTER} times in a row of misses gets a {@link ProductTable} of its own
 * (one of {@value #LENGTHS} per direction, the oldest replaced), and its products then take four
 * table lookups instead of 32 steps of multiplication. A stream of one packet size, such as
 * a segmented run's or a kernel rxe's, has its tables after a handful of packets; lengths
 * that do not repeat are multiplied as before and build nothing. A table (4 KiB) is allocated
 * when its slot is first filled, and reused from then on. Not thread-safe: one per engine, as
 * {@link Icrc}.
 */
public final class Ipv4IdTables {
    static final int LENGTHS = 4;
    static final int BUILD_AFTER = 8;

    private final Direction shifts = new Direction(true);
    private final Direction unshifts = new Direction(false);
    /** How many tables were built (for tests). */
    private int built;

    /** {@link Ipv4IdRecovery#difference}, from a table where the length has one. */
    public int difference(int id, int length) {
        ProductTable table = shifts.tableFor(length);
        return table != null ? table.times(Ipv4IdRecovery.idPolynomial(id)) : Ipv4IdRecovery.difference(id, length);
    }

    /** {@link Ipv4IdRecovery#recover}, from a table where the length has one. */
    public int recover(int difference, int length) {
        ProductTable table = unshifts.tableFor(length);
        return table != null ? Ipv4IdRecovery.idOf(table.times(difference)) : Ipv4IdRecovery.recover(difference, length);
    }

    /** How many tables were built so far. */
    int tablesBuilt() {
        return built;
    }

    /** The tables of one factor, x^(8 * length + 176) or its inverse, by length. */
    private final class Direction {
        private final boolean shift;
        private final int[] lengths = new int[LENGTHS];
        private final ProductTable[] tables = new ProductTable[LENGTHS];
        private int oldest;
        /** The length that missed last, and how many times in a row of misses. */
        private int missedLength = -1;
        private int misses;

        Direction(boolean shift) {
            this.shift = shift;
            Arrays.fill(lengths, -1);
        }

        ProductTable tableFor(int length) {
            for (int i = 0; i < LENGTHS; i++) {
                if (lengths[i] == length) {
                    return tables[i];
                }
            }
            if (length != missedLength) {
                missedLength = length;
                misses = 1;
                return null;
            }
            if (++misses < BUILD_AFTER) {
                return null;
            }
            int slot = oldest;
            oldest = (oldest + 1) % LENGTHS;
            if (tables[slot] == null) {
                tables[slot] = new ProductTable();
            }
            tables[slot].build(shift ? Ipv4IdRecovery.shiftFactor(length) : Ipv4IdRecovery.unshiftFactor(length));
            lengths[slot] = length;
            missedLength = -1;
            built++;
            return tables[slot];
        }
    }
}

package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The table products are the products: for every factor, a table gives what 32 steps of
 * multiplication give, and the per-length tables give what {@link Ipv4IdRecovery} gives,
 * before a length has its table, once it has one, and after it lost it to others.
 */
class Ipv4IdTablesTest {
    private final SplittableRandom random = new SplittableRandom(0x1D5);

    @Test
    void aTableMultipliesAsTheSteps() {
        ProductTable table = new ProductTable();
        for (int c : new int[] {0, 1, 0x8000_0000, 0xFFFF_FFFF, 0xEDB8_8320, random.nextInt(), random.nextInt()}) {
            table.build(c);
            for (int a : new int[] {0, 1, 0x8000_0000, 0xFFFF_FFFF, 0xFF, 0xFF00_0000}) {
                assertEquals(Ipv4IdRecovery.multiply(a, c), table.times(a), () -> Integer.toHexString(c));
            }
            for (int i = 0; i < 1000; i++) {
                int a = random.nextInt();
                assertEquals(Ipv4IdRecovery.multiply(a, c), table.times(a));
            }
        }
    }

    @Test
    void aRepeatedLengthGetsItsTablesAndAnswersAsBefore() {
        Ipv4IdTables tables = new Ipv4IdTables();
        int length = 4112;
        for (int i = 0; i < 3 * Ipv4IdTables.BUILD_AFTER; i++) {
            int id = i & 0xFFFF;
            int difference = Ipv4IdRecovery.difference(id, length);
            assertEquals(difference, tables.difference(id, length), "packet " + i);
            assertEquals(id, tables.recover(difference, length), "packet " + i);
            int noise = random.nextInt();
            assertEquals(Ipv4IdRecovery.recover(noise, length), tables.recover(noise, length), "packet " + i);
        }
        assertEquals(2, tables.tablesBuilt(), "one table each way, after " + Ipv4IdTables.BUILD_AFTER + " packets");
    }

    @Test
    void lengthsThatDoNotRepeatBuildNothing() {
        Ipv4IdTables tables = new Ipv4IdTables();
        for (int i = 0; i < 2000; i++) {
            int length = 16 + i % 1500;
            int id = random.nextInt(1 << 16);
            int difference = tables.difference(id, length);
            assertEquals(Ipv4IdRecovery.difference(id, length), difference);
            assertEquals(id, tables.recover(difference, length));
        }
        assertEquals(0, tables.tablesBuilt());
    }

    @Test
    void moreLengthsThanTablesTakeTurns() {
        Ipv4IdTables tables = new Ipv4IdTables();
        int lengths = Ipv4IdTables.LENGTHS + 2;
        for (int round = 0; round < 3; round++) {
            for (int l = 0; l < lengths; l++) {
                int length = 1000 + 37 * l;
                for (int i = 0; i < 2 * Ipv4IdTables.BUILD_AFTER; i++) {
                    int id = random.nextInt(1 << 16);
                    int difference = tables.difference(id, length);
                    assertEquals(Ipv4IdRecovery.difference(id, length), difference, "length " + length);
                    assertEquals(id, tables.recover(difference, length), "length " + length);
                }
            }
        }
        assertEquals(2 * 3 * lengths, tables.tablesBuilt(), "each length evicted before it comes back, so built every round");
    }
}

package dev.verbs4j.softroce.wire;

/**
 * The products {@code a * c mod P} for one fixed {@code c} (in {@link Ipv4IdRecovery}'s
 * arithmetic), four table lookups each instead of 32 steps: the product is linear in
 * {@code a}, so it is the XOR of the products of {@code a}'s four bytes, each read from a
 * table of 256 built once for {@code c}. Not thread-safe.
 */
final class ProductTable {
    private final int[] products = new int[4 * 256];
    /** The products of {@code c} with each single bit of {@code a}: scratch for {@link #build}. */
    private final int[] bitProducts = new int[32];

    /** Fills the table for {@code c}: 32 multiplications by x and 1,020 XORs. */
    void build(int c) {
        // Bit i of an int is the coefficient of x^(31 - i): bit 31 times c is c, bit 30 is c * x, ...
        int product = c;
        for (int bit = 31; bit >= 0; bit--) {
            bitProducts[bit] = product;
            product = Ipv4IdRecovery.multiplyByX(product);
        }
        for (int k = 0; k < 4; k++) {
            int base = k << 8;
            products[base] = 0;
            for (int v = 1; v < 256; v++) {
                products[base + v] = products[base + (v & (v - 1))] ^ bitProducts[8 * k + Integer.numberOfTrailingZeros(v)];
            }
        }
    }

    /** {@code a * c mod P} for the {@code c} of the last {@link #build}. */
    int times(int a) {
        return products[a & 0xFF] ^ products[0x100 | (a >>> 8) & 0xFF] ^ products[0x200 | (a >>> 16) & 0xFF]
                ^ products[0x300 | a >>> 24];
    }
}

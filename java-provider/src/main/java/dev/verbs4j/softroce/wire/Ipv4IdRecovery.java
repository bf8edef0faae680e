package dev.verbs4j.softroce.wire;

/**
 * Recovers the IPv4 Identification from an ICRC difference (see {@link Icrc}).
 *
 * <p>Arithmetic is in GF(2)[x] modulo the CRC-32 polynomial, in the reflected representation
 * that {@link java.util.zip.CRC32} uses: bit {@code i} of an int is the coefficient of
 * x^(31-i), so the polynomial 1 is {@code 0x80000000}, and feeding one zero bit through the
 * CRC register multiplies it by x.
 *
 * <p>In the pseudo packet ({@code length + 32} bytes: 8 LRH, 20 IPv4, 8 UDP, then the UDP
 * payload without its ICRC), the ID occupies bytes 12 and 13. Changing the ID from 0 to
 * {@code q} (high byte first) changes the final CRC register by {@code q'(x) * x^(24 + 8 *
 * (length + 19))}, where {@code q'} is the ID as a polynomial of degree below 16. So
 * {@code q' = difference * x^-(8 * length + 176)}; the difference is explained by an ID exactly
 * when that product has no coefficient of degree 16 or more, i.e. its low 16 bits are zero.
 */
final class Ipv4IdRecovery {
    private static final int POLY = 0xEDB8_8320;
    private static final int ONE = 0x8000_0000;
    private static final int MAX_LENGTH = 1 << 16;
    /** x^-(2^i) for i = 0..23: enough for exponents up to 8 * 65535 + 176 < 2^20. */
    private static final int[] INVERSE_POWERS_OF_TWO = new int[24];
    /** x^(2^i) for i = 0..23. */
    private static final int[] POWERS_OF_TWO = new int[24];
    /**
     * x^-(8 * length + 176) by UDP payload length; 0 means "not computed yet" (no power of x is
     * 0 modulo the polynomial). Filled lazily and shared: racing threads compute and store the
     * same int, which the Java memory model allows without locks.
     */
    private static final int[] UNSHIFT_BY_LENGTH = new int[MAX_LENGTH];
    /** x^(8 * length + 176) by UDP payload length, as {@link #UNSHIFT_BY_LENGTH}. */
    private static final int[] SHIFT_BY_LENGTH = new int[MAX_LENGTH];

    static {
        int power = divideByX(ONE);
        for (int i = 0; i < INVERSE_POWERS_OF_TWO.length; i++) {
            INVERSE_POWERS_OF_TWO[i] = power;
            power = multiply(power, power);
        }
        power = multiplyByX(ONE);
        for (int i = 0; i < POWERS_OF_TWO.length; i++) {
            POWERS_OF_TWO[i] = power;
            power = multiply(power, power);
        }
    }

    private Ipv4IdRecovery() {
    }

    /**
     * The IPv4 ID that turns the ICRC computed with ID 0 into the received one, given their
     * XOR, or {@link Icrc#MISMATCH} if no 16-bit ID does.
     */
    static int recover(int difference, int length) {
        return idOf(multiply(difference, unshiftFactor(length)));
    }

    /** The ID a product of {@link #recover} stands for, or {@link Icrc#MISMATCH} when it has coefficients no ID has. */
    static int idOf(int product) {
        if ((product & 0xFFFF) != 0) {
            return Icrc.MISMATCH;
        }
        // Bits 16..23 hold the first ID byte, bits 24..31 the second, each least significant bit first.
        return (product >>> 8) & 0xFF00 | product >>> 24;
    }

    /** The ID's two bytes as a polynomial, as they lie in the CRC register (the inverse of {@link #idOf}). */
    static int idPolynomial(int id) {
        return (id & 0xFF00) << 8 | (id & 0xFF) << 24;
    }

    /** x^-(8 * length + 176): what {@link #recover} multiplies a difference by. */
    static int unshiftFactor(int length) {
        return byLength(UNSHIFT_BY_LENGTH, INVERSE_POWERS_OF_TWO, length);
    }

    /** x^(8 * length + 176): what {@link #difference} multiplies an ID by. */
    static int shiftFactor(int length) {
        return byLength(SHIFT_BY_LENGTH, POWERS_OF_TWO, length);
    }

    /**
     * The XOR that turns the ICRC of a packet sent with IPv4 ID 0 into that of the same
     * packet sent with {@code id} (the inverse of {@link #recover}): {@code id} as a
     * polynomial, times x^(8 * length + 176).
     */
    static int difference(int id, int length) {
        return multiply(idPolynomial(id), shiftFactor(length));
    }

    /** x^(±(8 * length + 176)) from {@code table}, computed from {@code powersOfTwo} (x^(±2^i)) and kept on first use. */
    private static int byLength(int[] table, int[] powersOfTwo, int length) {
        int value = table[length];
        if (value == 0) {
            value = power(powersOfTwo, 8L * length + 176);
            table[length] = value;
        }
        return value;
    }

    /** {@code a * x mod P}: one zero bit through the CRC register. */
    static int multiplyByX(int a) {
        return (a >>> 1) ^ ((a & 1) != 0 ? POLY : 0);
    }

    /** The CRC register after one more byte {@code b} (0..255): the byte into its low end, then eight bits through. */
    static int feedByte(int register, int b) {
        int r = register ^ b;
        for (int bit = 0; bit < 8; bit++) {
            r = multiplyByX(r);
        }
        return r;
    }

    /** {@code a * x^-1 mod P}, the inverse of {@link #multiplyByX}. */
    static int divideByX(int a) {
        return a < 0 ? ((a ^ POLY) << 1) | 1 : a << 1;
    }

    /** {@code a * b mod P}, Horner's rule from the highest coefficient of b (bit 0). */
    static int multiply(int a, int b) {
        int product = 0;
        for (int bit = 0; bit < 32; bit++) {
            product = multiplyByX(product);
            if (((b >>> bit) & 1) != 0) {
                product ^= a;
            }
        }
        return product;
    }

    /** x^-n mod P. */
    static int inversePowerOfX(long n) {
        return power(INVERSE_POWERS_OF_TWO, n);
    }

    /** The product of {@code powersOfTwo[i]} over the bits i set in {@code n}. */
    private static int power(int[] powersOfTwo, long n) {
        int result = ONE;
        for (int i = 0; n != 0; i++, n >>>= 1) {
            if ((n & 1) != 0) {
                result = multiply(result, powersOfTwo[i]);
            }
        }
        return result;
    }
}

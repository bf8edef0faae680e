package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv4IdRecoveryTest {
    private static final int ONE = 0x8000_0000;

    @Test
    void divideByXUndoesMultiplyByX() {
        for (int a : new int[] {0, 1, 2, ONE, 0xFFFF_FFFF, 0xEDB8_8320, 0x1234_5678, 0x8000_0001}) {
            assertEquals(a, Ipv4IdRecovery.divideByX(Ipv4IdRecovery.multiplyByX(a)));
            assertEquals(a, Ipv4IdRecovery.multiplyByX(Ipv4IdRecovery.divideByX(a)));
        }
    }

    @Test
    void multiplyingByOneOrByXBehavesLikeAPolynomialRing() {
        int x = ONE >>> 1;
        for (int a : new int[] {0x1234_5678, 0xDEAD_BEEF, 1, ONE}) {
            assertEquals(a, Ipv4IdRecovery.multiply(a, ONE));
            assertEquals(Ipv4IdRecovery.multiplyByX(a), Ipv4IdRecovery.multiply(a, x));
            assertEquals(Ipv4IdRecovery.multiply(a, 0x0BAD_F00D), Ipv4IdRecovery.multiply(0x0BAD_F00D, a));
        }
    }

    @Test
    void inversePowerTimesPowerIsOne() {
        for (long n : new long[] {1, 8, 176, 8L * 4112 + 176, 524_456}) {
            int power = ONE;
            for (long i = 0; i < n; i++) {
                power = Ipv4IdRecovery.multiplyByX(power);
            }
            assertEquals(ONE, Ipv4IdRecovery.multiply(power, Ipv4IdRecovery.inversePowerOfX(n)), "n = " + n);
        }
    }

    @Test
    void zeroBytesThroughTheCrcRegisterMultiplyByXToTheEighth() {
        // The premise of the recovery: feeding a zero byte multiplies the register by x^8.
        CRC32 crc = new CRC32();
        crc.update(new byte[] {1, 2, 3});
        int register = ~(int) crc.getValue();
        crc.update(0);
        int expected = register;
        for (int i = 0; i < 8; i++) {
            expected = Ipv4IdRecovery.multiplyByX(expected);
        }
        assertEquals(expected, ~(int) crc.getValue());
    }

    @Test
    void nearestSingleBitErrorAnIdentificationCanExplainIs214135BitsAfterIt() {
        // A flipped bit d positions after the last ID bit changes the register by x^-d times the
        // ID's own shift; recovery accepts it iff x^-d mod P has degree below 16 (low 16 bits 0).
        int power = ONE;
        for (int d = 1; d < 214_135; d++) {
            power = Ipv4IdRecovery.divideByX(power);
            if ((power & 0xFFFF) == 0) {
                throw new AssertionError("a single-bit error " + d + " bits after the ID would be explained");
            }
        }
        power = Ipv4IdRecovery.divideByX(power);
        assertEquals(0, power & 0xFFFF, "d = 214135 is the first explainable distance");
    }

    @Test
    void differenceThatNoIdentificationExplainsIsAMismatch() {
        int mismatches = 0;
        for (int difference = 1; difference <= 4096; difference++) {
            if (Ipv4IdRecovery.recover(difference, 64) == Icrc.MISMATCH) {
                mismatches++;
            }
        }
        assertTrue(mismatches >= 4090, "almost every small difference is unexplained, got " + mismatches);
    }
}

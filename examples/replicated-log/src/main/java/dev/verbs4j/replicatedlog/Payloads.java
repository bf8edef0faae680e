package dev.verbs4j.replicatedlog;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The payload the append command writes for each sequence number, so that a reader can tell it is the one acknowledged. */
public final class Payloads {
    private Payloads() {
    }

    /** Byte {@code i} of record {@code seq}'s payload. */
    public static byte at(long seq, int i) {
        return (byte) (seq * 131 + i * 7 + (seq >>> 8) + 1);
    }

    /** Fills the first {@code length} bytes of {@code into} with record {@code seq}'s payload. */
    public static void fill(byte[] into, long seq, int length) {
        for (int i = 0; i < length; i++) {
            into[i] = at(seq, i);
        }
    }

    /** Whether {@code payload} is record {@code seq}'s payload of {@code length} bytes. */
    public static boolean matches(long seq, MemorySegment payload, int length) {
        if (payload.byteSize() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (payload.get(ValueLayout.JAVA_BYTE, i) != at(seq, i)) {
                return false;
            }
        }
        return true;
    }
}

package dev.verbs4j.conformance.agent;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.Function;

/**
 * What changed in a piece of memory since the other process last saw it, as runs of words
 * on the control channel. Each side keeps a copy of what it believes the other has (the
 * shadow); a run is a stretch of aligned 8-byte words that differ from their shadow. Each
 * word travels with a mask of the bytes that changed, and lands as one 8-byte store of
 * those bytes into the receiver's word:
 * <ul>
 *   <li>exact to the byte: a byte only the receiver changed is never overwritten;</li>
 *   <li>whole to the word: an aligned 8-byte value written at once on one side (an atomic,
 *   an ATOMIC WRITE) is read at once, and appears at once on the other, never torn.</li>
 * </ul>
 *
 * <p>A block on the channel: the number of mappings, then for each its name (a
 * {@link SharedMapping} of the whole), the number of runs, and each run's offset (a multiple
 * of 8), its number of words, and for each word its byte mask and its value.
 */
final class MemoryRuns {
    /** Most words sent as one run: keeps a run's bytes on the channel near 64 KiB. */
    private static final int MAX_WORDS = 8192;
    /** Little-endian, so that byte i of a word is the byte at offset i, whatever the platform. */
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private MemoryRuns() {
    }

    /** One piece of memory and its shadow, of the same length, both 8-byte aligned. */
    record Mirrored(SharedMapping whole, MemorySegment live, MemorySegment shadow) {
    }

    /** What one block moved: mappings, runs, and bytes that changed. */
    record Moved(int mappings, int runs, long bytes) {
    }

    /**
     * Writes the runs of every mapping that changed, and makes each shadow equal its memory
     * there (each word read once). Returns how much it wrote.
     */
    static Moved write(DataOutputStream out, Iterable<Mirrored> mappings) throws IOException {
        // The block is built whole first: the memory may change while it is read (a transfer
        // landing), and the counts must describe exactly the runs that follow them.
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        DataOutputStream body = new DataOutputStream(block);
        int count = 0;
        int runs = 0;
        long bytes = 0;
        for (Mirrored m : mappings) {
            if (!differs(m)) {
                continue;
            }
            long size = m.live.byteSize() & ~7L;
            long at = nextDifferentWord(m, 0, size);
            ByteArrayOutputStream mine = new ByteArrayOutputStream();
            DataOutputStream runsOut = new DataOutputStream(mine);
            ByteArrayOutputStream words = new ByteArrayOutputStream();
            DataOutputStream wordsOut = new DataOutputStream(words);
            int n = 0;
            while (at >= 0) {
                words.reset();
                long offset = at;
                int w = 0;
                while (at < size && w < MAX_WORDS) {
                    long value = m.live.get(WORD, at);
                    long changed = value ^ m.shadow.get(WORD, at);
                    if (changed == 0) {
                        break;
                    }
                    int mask = byteMask(changed);
                    wordsOut.writeByte(mask);
                    wordsOut.writeLong(value);
                    m.shadow.set(WORD, at, value);
                    bytes += Integer.bitCount(mask);
                    w++;
                    at += 8;
                }
                if (w > 0) {
                    runsOut.writeLong(offset);
                    runsOut.writeInt(w);
                    words.writeTo(runsOut);
                    n++;
                }
                at = nextDifferentWord(m, at, size);
            }
            long tail = tailMask(m, size);
            if (tail != 0) {
                // The last bytes of a mapping whose length is no multiple of 8 (a file): one word, byte by byte.
                long value = tailValue(m.live, size);
                runsOut.writeLong(size);
                runsOut.writeInt(1);
                runsOut.writeByte(byteMask(tail));
                runsOut.writeLong(value);
                writeTail(m.shadow, size, value, tail);
                bytes += Long.bitCount(tail) / 8;
                n++;
            }
            if (n == 0) {
                continue; // it changed back while it was read
            }
            count++;
            runs += n;
            m.whole.write(body);
            body.writeInt(n);
            mine.writeTo(body);
        }
        out.writeInt(count);
        block.writeTo(out);
        return new Moved(count, runs, bytes);
    }

    /**
     * Reads a block and applies each word to the memory and the shadow {@code find} gives for
     * its mapping (null: the mapping is gone here, and its runs are read and dropped).
     */
    static Moved read(DataInputStream in, Function<SharedMapping, Mirrored> find) throws IOException {
        int count = in.readInt();
        int runs = 0;
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            SharedMapping whole = SharedMapping.read(in);
            Mirrored m = find.apply(whole);
            int mine = in.readInt();
            for (int r = 0; r < mine; r++) {
                long offset = in.readLong();
                int words = in.readInt();
                if (words < 0 || words > MAX_WORDS || (offset & 7) != 0) {
                    throw new IOException("a run of " + words + " words at " + offset + " on the control channel");
                }
                if (m != null && (offset < 0 || offset + 8L * words > (m.live.byteSize() + 7 & ~7L))) {
                    throw new IOException("a run at " + offset + "+" + 8L * words + " outside " + whole.path());
                }
                for (int w = 0; w < words; w++) {
                    long bits = wordMask(in.readUnsignedByte());
                    long value = in.readLong();
                    bytes += Long.bitCount(bits) / 8;
                    if (m != null) {
                        long at = offset + 8L * w;
                        if (at + 8 <= m.live.byteSize()) {
                            m.live.set(WORD, at, m.live.get(WORD, at) & ~bits | value & bits);
                            m.shadow.set(WORD, at, m.shadow.get(WORD, at) & ~bits | value & bits);
                        } else {
                            writeTail(m.live, at, value, bits);
                            writeTail(m.shadow, at, value, bits);
                        }
                    }
                }
            }
            runs += mine;
        }
        return new Moved(count, runs, bytes);
    }

    /** Whether any byte of {@code m}'s memory differs from its shadow. */
    static boolean differs(Mirrored m) {
        return m.live.mismatch(m.shadow) >= 0;
    }

    /** The bits of the bytes past the last whole word that differ from their shadow (none when the length is a multiple of 8). */
    private static long tailMask(Mirrored m, long from) {
        long changed = tailValue(m.live, from) ^ tailValue(m.shadow, from);
        return wordMask(byteMask(changed));
    }

    /** The bytes from {@code from} to the end (fewer than 8) as the low bytes of a word. */
    private static long tailValue(MemorySegment segment, long from) {
        long value = 0;
        for (long i = from; i < segment.byteSize(); i++) {
            value |= (segment.get(ValueLayout.JAVA_BYTE, i) & 0xffL) << (8 * (i - from));
        }
        return value;
    }

    /** Stores the bytes {@code bits} selects of {@code value} from {@code from}, as far as the segment goes. */
    private static void writeTail(MemorySegment segment, long from, long value, long bits) {
        for (long i = from; i < segment.byteSize() && i < from + 8; i++) {
            int shift = (int) (8 * (i - from));
            if ((bits >>> shift & 0xff) != 0) {
                segment.set(ValueLayout.JAVA_BYTE, i, (byte) (value >>> shift));
            }
        }
    }

    /** Bit i set when byte i of the word changed (byte 0 the least significant). */
    private static int byteMask(long changed) {
        int mask = 0;
        for (int b = 0; b < 8; b++) {
            if ((changed >>> (8 * b) & 0xff) != 0) {
                mask |= 1 << b;
            }
        }
        return mask;
    }

    /** The bits of the bytes a byte mask names. */
    private static long wordMask(int mask) {
        long bits = 0;
        for (int b = 0; b < 8; b++) {
            if ((mask & 1 << b) != 0) {
                bits |= 0xffL << (8 * b);
            }
        }
        return bits;
    }

    /** The offset of the first word at or after {@code from} (a multiple of 8) that differs from its shadow, or -1. */
    private static long nextDifferentWord(Mirrored m, long from, long size) {
        if (from >= size) {
            return -1;
        }
        long at = m.live.asSlice(from, size - from).mismatch(m.shadow.asSlice(from, size - from));
        return at < 0 ? -1 : from + (at & ~7L);
    }
}

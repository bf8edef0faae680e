package dev.verbs4j.conformance.access;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.RcEnd;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The local side of a case: one patterned buffer that a request gathers from (writes,
 * sends) or scatters into (reads, atomic results), and the posting of the request under
 * test. What a successful request must have done is written into the target's expected
 * bytes; what a refused one must have left alone is checked here.
 */
final class Requester {
    static final long WR_ID = 0xACCE55;
    static final int IMMEDIATE = 0x5EED1234;
    static final int SEND_BYTES = 16;
    static final long SWAP = 0x5A5AA5A50F0FF0F0L;
    static final long ADD = 0x0101010101010101L;
    static final long ATOMIC_WRITE_VALUE = 0x1122334455667788L;
    private static final long BYTES = 4 * GuardedTarget.PAGE;

    private final RcEnd end;
    private final Buffer data;
    private final MemorySegment pattern;

    Requester(RcEnd end, int seed) {
        this.end = end;
        this.data = end.buffer(BYTES);
        Bytes.fill(data.memory(), seed);
        this.pattern = MemorySegment.ofArray(new byte[(int) BYTES]);
        pattern.copyFrom(data.memory());
    }

    RcEnd end() {
        return end;
    }

    /** Posts {@code op} for {@code length} bytes at {@code address} under {@code rkey}; {@code compare} is a CAS's compare value. */
    void post(Operation op, long address, int length, int rkey, long compare) {
        SendWorkRequest wr = new SendWorkRequest().wrId(WR_ID).signaled(true);
        switch (op) {
            case WRITE -> gather(wr, length).rdmaWrite(address, rkey);
            case WRITE_WITH_IMM -> gather(wr, length).rdmaWriteWithImm(address, rkey, IMMEDIATE);
            case READ -> gather(wr, length).rdmaRead(address, rkey);
            case COMPARE_SWAP -> wr.buffer(data.region(), 0, 8).compareAndSwap(address, rkey, compare, SWAP);
            case FETCH_ADD -> wr.buffer(data.region(), 0, 8).fetchAndAdd(address, rkey, ADD);
            case ATOMIC_WRITE -> wr.atomicWrite(address, rkey, ATOMIC_WRITE_VALUE);
            case FLUSH_RANGE -> wr.flush(address, rkey, length, FlushType.GLOBAL, FlushLevel.RANGE);
            case FLUSH_REGION -> wr.flush(address, rkey, length, FlushType.GLOBAL, FlushLevel.MR);
            case SEND_WITH_INV -> gather(wr, SEND_BYTES).sendWithInv(rkey);
        }
        end.qp().postSend(wr);
    }

    private SendWorkRequest gather(SendWorkRequest wr, int length) {
        if (length == 0) {
            wr.sges().clear();
            return wr;
        }
        return wr.buffer(data.region(), 0, length);
    }

    /**
     * Records in {@code target} what a completed {@code op} placed at {@code offset}, and
     * checks what it returned locally: a read's bytes, an atomic's original value.
     */
    void expectExecuted(Operation op, GuardedTarget target, long offset, int length) {
        long original = target.expectedLong(offset);
        switch (op) {
            case WRITE, WRITE_WITH_IMM -> target.expectBytes(offset, data.memory().asSlice(0, length));
            case READ -> Bytes.assertSame(target.slice(offset, length), data.memory().asSlice(0, length), "bytes the read returned");
            case COMPARE_SWAP -> {
                target.expectLong(offset, SWAP);
                assertEquals(original, result(), "original value the compare-and-swap returned");
            }
            case FETCH_ADD -> {
                target.expectLong(offset, original + ADD);
                assertEquals(original, result(), "original value the fetch-and-add returned");
            }
            case ATOMIC_WRITE -> target.expectLong(offset, ATOMIC_WRITE_VALUE);
            case FLUSH_RANGE, FLUSH_REGION, SEND_WITH_INV -> {
                // A FLUSH places nothing; a send's bytes land in the receive.
            }
        }
    }

    /**
     * Checks that a refused {@code op} left the local buffer alone where it may: an atomic's
     * result buffer. A failed read's destination is undefined (IBTA 11.6.2), so it is not checked.
     */
    void expectRefused(Operation op) {
        if (op == Operation.COMPARE_SWAP || op == Operation.FETCH_ADD) {
            Bytes.assertSame(pattern.asSlice(0, 8), data.memory().asSlice(0, 8), "result buffer of the refused atomic");
        }
    }

    private long result() {
        return data.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }
}

package dev.verbs4j.conformance.twohost;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.Verbs;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.function.LongSupplier;

/**
 * One host's side of the reboot check: a device, a protection domain, one registered buffer
 * its peers may write and read, and RC queue pairs each with a completion queue of its own.
 */
final class RebootSide implements AutoCloseable {
    /** The registered buffer's length: each transfer uses its first 4 KiB and reads back into the next. */
    static final int BUFFER_BYTES = 64 * 1024;

    private final Arena arena = Arena.ofShared();
    private final DeviceContext context;
    private final ProtectionDomain pd;
    private final MemorySegment memory;
    private final MemoryRegion region;
    private final Deque<AutoCloseable> made = new ArrayDeque<>();

    private RebootSide(DeviceContext context) {
        this.context = context;
        this.pd = context.allocatePd();
        this.memory = arena.allocate(BUFFER_BYTES, 4096);
        this.region = pd.registerMemory(memory, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
    }

    /**
     * Opens a device by provider and name (the soft provider's devices come from {@code verbs4j.soft.devices}).
     *
     * @param provider the provider's name
     * @param device the device's name
     * @return the side, its buffer registered
     * @throws IllegalArgumentException when the provider has no such device
     */
    static RebootSide open(String provider, String device) {
        Device found = Verbs.provider(provider).devices().stream().filter(d -> d.name().equals(device)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no device " + device + " in provider " + provider));
        return new RebootSide(found.open());
    }

    /** @return a new RC queue pair in RESET with a completion queue of its own for both queues */
    QueuePair newQp() {
        CompletionQueue cq = context.createCq(16);
        made.push(cq);
        QueuePair qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(8, 8, 1, 1, 0));
        made.push(qp);
        return qp;
    }

    /**
     * Writes 4 KiB of a pattern to a peer's buffer and reads it back.
     *
     * @param qp an RC queue pair in RTS
     * @param remoteAddress where in the peer's buffer
     * @param rkey the peer buffer's key
     * @param seed the pattern's first byte
     * @param clock nanoseconds
     * @param waitNanos how long each of the two completions may take
     * @return null when both completed and the bytes came back, else what went wrong
     */
    String transfer(QueuePair qp, long remoteAddress, int rkey, int seed, LongSupplier clock, long waitNanos) {
        int length = 4096;
        for (int i = 0; i < length; i++) {
            memory.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 7));
        }
        memory.asSlice(length, length).fill((byte) 0);
        qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(region, 0, length).rdmaWrite(remoteAddress, rkey));
        WorkCompletion write = next(qp.sendCq(), clock, waitNanos);
        if (write == null || write.status() != WcStatus.SUCCESS) {
            return "RDMA WRITE: " + (write == null ? "no completion" : write.status());
        }
        qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(region, length, length).rdmaRead(remoteAddress, rkey));
        WorkCompletion read = next(qp.sendCq(), clock, waitNanos);
        if (read == null || read.status() != WcStatus.SUCCESS) {
            return "RDMA READ: " + (read == null ? "no completion" : read.status());
        }
        long differs = memory.asSlice(0, length).mismatch(memory.asSlice(length, length));
        return differs < 0 ? null : "RDMA READ brought back other bytes than were written, from offset " + differs;
    }

    /**
     * The next completion of {@code cq}.
     *
     * @param cq the queue
     * @param clock nanoseconds
     * @param waitNanos how long to wait
     * @return the completion, or null when none came in time
     */
    static WorkCompletion next(CompletionQueue cq, LongSupplier clock, long waitNanos) {
        WorkCompletion[] one = {new WorkCompletion()};
        long until = clock.getAsLong() + waitNanos;
        while (cq.poll(one) == 0) {
            if (clock.getAsLong() - until > 0) {
                return null;
            }
            pause(1);
        }
        return one[0];
    }

    /**
     * A sleep: the checks wait on a peer across a link, not on a CPU.
     *
     * @param millis how long
     */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    MemoryRegion region() {
        return region;
    }

    MemorySegment memory() {
        return memory;
    }

    @Override
    public void close() {
        while (!made.isEmpty()) {
            try {
                made.pop().close();
            } catch (Exception e) {
                // closed in reverse order of making; a failure here changes no verdict
            }
        }
        region.close();
        pd.close();
        context.close();
        arena.close();
    }
}

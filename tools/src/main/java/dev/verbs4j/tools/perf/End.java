package dev.verbs4j.tools.perf;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/** One end of a perf connection: its queues, a buffer and its region, and the extra pairs of {@code -q}. */
final class End {
    /** What the buffer grants: everything the perf tests do to it. */
    static final EnumSet<Access> ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC);

    final DeviceContext ctx;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair qp;
    final MemorySegment buf;
    final MemoryRegion mr;

    /** send_bw: whether this side's receives are posted (they stay posted from run to run). */
    boolean receivesPosted;
    private final QpInitAttributes init;
    private final List<QueuePair> extraQps = new ArrayList<>();

    /**
     * @param memory        the buffer to register, or null for {@code bufferSize} bytes from {@code arena}; a given
     *                      buffer is a mapped file and is registered for persistent FLUSH too
     * @param flush         whether the queue pair and region allow FLUSH and ATOMIC WRITE
     * @param fastRegister  whether the queue pair allows fast-register work requests
     */
    End(Device device, Arena arena, long bufferSize, int depth, boolean flush, MemorySegment memory, boolean fastRegister) {
        ctx = device.open();
        pd = ctx.allocatePd();
        cq = ctx.createCq(depth * 2 + 8);
        init = new QpInitAttributes(QpType.RC, cq).capacity(depth, depth, 1, 1, 0);
        if (flush) {
            init.allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE);
        }
        if (fastRegister) {
            init.allow(WrOpcode.REG_MR);
        }
        qp = pd.createQp(init);
        buf = memory != null ? memory : arena.allocate(bufferSize, 4096);
        mr = pd.registerMemory(buf, access(flush, memory != null));
    }

    /** The length of send_bw's receives: half the buffer, which holds the largest message of a run. */
    int receiveLength() {
        return (int) Math.min(Integer.MAX_VALUE, buf.byteSize() / 2);
    }

    /** The rights of the region and the queue pairs. */
    static EnumSet<Access> access(boolean flush, boolean persistent) {
        EnumSet<Access> access = EnumSet.copyOf(ACCESS);
        if (flush) {
            access.add(Access.FLUSH_GLOBAL);
        }
        if (persistent) {
            access.add(Access.FLUSH_PERSISTENT);
        }
        return access;
    }

    /** Another queue pair like the first, on the same protection domain and completion queue; it closes with this end. */
    QueuePair newQp() {
        QueuePair q = pd.createQp(init);
        extraQps.add(q);
        return q;
    }

    void close() {
        extraQps.forEach(QueuePair::close);
        qp.close();
        mr.close();
        cq.close();
        pd.close();
        ctx.close();
    }
}

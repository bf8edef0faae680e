package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The send and receive paths of the wire layer must not allocate per packet once warm. */
class DataPathAllocationTest {
    private static final int PACKETS = 20_000;

    private final UdpFlow out = new UdpFlow().setIpv4(0x0A000001, 0xC000, 0x0A000002, UdpFlow.ROCE_V2_PORT);
    private final UdpFlow in = new UdpFlow().setReverseOf(out);
    private final MemorySegment[] ring = new MemorySegment[256]; // a realistic receive ring
    private final PacketBuilder builder = new PacketBuilder();
    private final PacketView view = new PacketView();
    private final Icrc icrc = new Icrc();
    private long checksum;

    @Test
    void buildingValidatingAndCheckingPacketsAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM cannot measure per-thread allocation");
        for (int i = 0; i < ring.length; i++) {
            ring[i] = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(2048)); // as a DatagramChannel would use
        }
        run(PACKETS); // warm up: JIT compilation and the ByteBuffer view cache
        long before = threads.getCurrentThreadAllocatedBytes();
        run(PACKETS);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < PACKETS / 4, "allocated " + allocated + " bytes for " + PACKETS + " packets");
        assertTrue(checksum != 0, "the loop's results are used");
    }

    private void run(int packets) {
        for (int n = 0; n < packets; n++) {
            MemorySegment buffer = ring[n & (ring.length - 1)];
            builder.start(buffer, 0, Opcodes.RC_RDMA_WRITE_FIRST);
            builder.bth().init(Opcodes.RC_RDMA_WRITE_FIRST, false, false, 0, Bth.DEFAULT_PKEY, 0x12, false, n);
            builder.reth().init(0x1000L + n, 0x77, 4096);
            int length = builder.finish(1024, icrc, out, n & 3); // IDs 1..3 take the recovery path
            if (!view.wrap(buffer, 0, length) || !view.checkIcrc(icrc, out)) {
                throw new AssertionError("packet " + n + " dropped: " + view.dropReason());
            }
            checksum += view.ipv4Id() + view.reth().va() + Psn.next(view.bth().psn()) + in.sourcePort();
        }
    }
}

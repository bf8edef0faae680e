package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MrAdvice;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On-Demand Paging regions of the soft provider: faults, invalidation, prefetch, size. */
class OnDemandPagingTest {
    private static final EnumSet<Access> ODP = EnumSet.of(Access.ON_DEMAND, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
            Access.REMOTE_READ, Access.REMOTE_ATOMIC);

    private final SimulatedPair sim = new SimulatedPair(21);

    private WorkCompletion poll(RcPair.Side side) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> side.cq.poll(wc) == 1, 1_000_000), "no completion");
        return wc[0];
    }

    @Test
    void theDeviceReportsRcAndUdOdpButNotImplicit() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            DeviceAttributes a = p.a.ctx.queryDevice();
            assertTrue(a.odp().supported());
            assertTrue(!a.odp().implicit());
            assertTrue(a.odp().rc().containsAll(EnumSet.of(OdpTransportCapability.WRITE, OdpTransportCapability.READ,
                    OdpTransportCapability.ATOMIC, OdpTransportCapability.FLUSH, OdpTransportCapability.ATOMIC_WRITE)));
            VerbsException e = assertThrows(VerbsException.class, () -> p.a.pd.registerImplicitOnDemand(ODP));
            assertEquals(Errno.EOPNOTSUPP, e.error());
        }
    }

    @Test
    void aSixtyFourGibRegionOverASparseFileRegistersAndServesRdma(@TempDir Path dir) throws Exception {
        long size = 64L << 30;
        Path file = dir.resolve("sparse.img");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
        try (RcPair p = sim.connect(1 << 16, 8, 10);
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared()) {
            MemorySegment huge = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            long t0 = System.nanoTime();
            MemoryRegion mr = p.b.pd.registerMemory(huge, ODP);
            long registerNs = System.nanoTime() - t0;
            assertEquals(0, SoftOdp.statistics(mr).presentPages(), "registration touches no page");
            long far = size - (3L << 30);
            p.a.buf.asSlice(0, 8192).fill((byte) 0x6b);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 8192)
                    .rdmaWrite(mr.address() + far, mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            assertEquals((byte) 0x6b, huge.get(ValueLayout.JAVA_BYTE, far + 8191));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 16384, 8192)
                    .rdmaRead(mr.address() + far, mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            assertEquals(-1, p.a.buf.asSlice(0, 8192).mismatch(p.a.buf.asSlice(16384, 8192)));
            SoftOdp.Statistics s = SoftOdp.statistics(mr);
            assertEquals(2, s.faults(), "the write faulted its two pages in; the read found them present");
            assertEquals(2, s.presentPages());
            System.out.printf("64 GiB on-demand region registered in %.3f ms%n", registerNs / 1e6);
            mr.close();
        }
    }

    @Test
    void invalidatedPagesFaultAgainAndShowTheCurrentContents() {
        try (RcPair p = sim.connect(1 << 20, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(1 << 20, 4096);
            MemoryRegion mr = p.b.pd.registerMemory(seg, ODP);
            p.a.buf.asSlice(0, 65536).fill((byte) 1);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 65536).rdmaWrite(mr.address(), mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            assertEquals(16, SoftOdp.statistics(mr).faults());
            SoftOdp.invalidate(mr, 0, 65536);
            assertEquals(0, SoftOdp.statistics(mr).presentPages());
            seg.asSlice(0, 65536).fill((byte) 2); // what the pages hold when they come back
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 65536, 65536).rdmaRead(mr.address(), mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            assertEquals((byte) 2, p.a.buf.get(ValueLayout.JAVA_BYTE, 65536 + 65535));
            SoftOdp.Statistics s = SoftOdp.statistics(mr);
            assertEquals(32, s.faults(), "every invalidated page faulted again");
            assertEquals(1, s.invalidations());
            mr.close();
        }
    }

    @Test
    void prefetchBringsPagesInSoTrafficDoesNotFaultAndNoFaultPrefetchesNothing() {
        try (RcPair p = sim.connect(1 << 20, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(1 << 20, 4096);
            MemoryRegion mr = p.b.pd.registerMemory(seg, ODP);
            p.b.pd.adviseMr(MrAdvice.PREFETCH_NO_FAULT, MrAdvice.FLAG_FLUSH, new ScatterGatherList(1).add(mr, 0, 65536));
            assertEquals(0, SoftOdp.statistics(mr).presentPages(), "no-fault prefetch faults nothing in");
            p.b.pd.adviseMr(MrAdvice.PREFETCH_WRITE, MrAdvice.FLAG_FLUSH, new ScatterGatherList(1).add(mr, 0, 65536));
            assertEquals(16, SoftOdp.statistics(mr).prefetchedPages());
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 65536).rdmaWrite(mr.address(), mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            assertEquals(0, SoftOdp.statistics(mr).faults(), "prefetched pages need no fault");
            p.b.pd.adviseMr(MrAdvice.PREFETCH, 0, new ScatterGatherList(1).add(mr, 65536, 4096));
            assertEquals(17, SoftOdp.statistics(mr).presentPages(), "the asynchronous form has completed by return");
            mr.close();
        }
    }

    @Test
    void prefetchOfAnUnregisteredOrPinnedRangeIsEinval() {
        try (RcPair p = sim.connect(1 << 20, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(1 << 16, 4096);
            MemoryRegion mr = p.b.pd.registerMemory(seg, ODP);
            VerbsException outside = assertThrows(VerbsException.class, () -> p.b.pd.adviseMr(MrAdvice.PREFETCH, 0,
                    new ScatterGatherList(1).add(mr.localAddress() + (1 << 16), 4096, mr.lkey())));
            assertEquals(Errno.EINVAL, outside.error());
            VerbsException pinned = assertThrows(VerbsException.class, () -> p.b.pd.adviseMr(MrAdvice.PREFETCH, 0,
                    new ScatterGatherList(1).add(p.b.mr, 0, 4096)));
            assertEquals(Errno.EINVAL, pinned.error());
            mr.close();
        }
    }

    @Test
    void invalidationRacingALargeTransferLosesNothing() {
        try (RcPair p = sim.connect(1 << 20, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(1 << 20, 4096);
            MemoryRegion mr = p.b.pd.registerMemory(seg, ODP);
            for (int i = 0; i < (1 << 20); i += 8) {
                p.a.buf.set(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 1 << 20).rdmaWrite(mr.address(), mr.rkey()));
            // Between every engine step a 64 KiB slice is taken away, sweeping over the region
            // while its packets arrive.
            long[] offset = {0};
            WorkCompletion[] wc = {new WorkCompletion()};
            assertTrue(sim.runUntil(() -> {
                SoftOdp.invalidate(mr, offset[0], 64 * 1024);
                offset[0] = (offset[0] + 64 * 1024) % (1 << 20);
                return p.a.cq.poll(wc) == 1;
            }, 1_000_000));
            assertEquals(WcStatus.SUCCESS, wc[0].status());
            assertEquals(-1, p.a.buf.mismatch(seg), "every byte landed despite the invalidations");
            SoftOdp.Statistics s = SoftOdp.statistics(mr);
            assertTrue(s.invalidations() >= 3, "invalidations interleaved with the transfer: " + s);
            mr.close();
        }
    }
}

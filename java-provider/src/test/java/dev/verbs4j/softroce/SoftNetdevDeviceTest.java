package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Gid;
import dev.verbs4j.GidEntry;
import dev.verbs4j.Mtu;
import dev.verbs4j.PortState;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.softroce.netdev.FakeNetdev;
import dev.verbs4j.softroce.netdev.NetdevPort;
import dev.verbs4j.softroce.transport.InMemoryNetwork;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A device made on an interface ({@code netdev:fake0}) that a test changes, over an in-memory
 * network, driven by hand on a clock the test moves: its GID table, its port, its events, and
 * RC traffic from each kind of source GID to a device on one address.
 */
class SoftNetdevDeviceTest {
    private static final int INDEX = 7;
    private final InMemoryNetwork network = new InMemoryNetwork(1);
    private final FakeNetdev fake0 = new FakeNetdev("fake0", INDEX).add("10.1.0.1").add("fe80::9cf8:f2ff:fe56:6b6a").add("fd00:1::1");
    private final SoftDevice device = SoftDevice.manualOnInterface(SoftDeviceConfig.onInterface("nd", "fake0"), fake0,
            network::attach);
    private long nowNs = 1_000_000_000L;

    /** The other end: a device on an interface of the same shapes, so its GIDs have the same indexes. */
    private SoftDevice peer() {
        FakeNetdev fake1 = new FakeNetdev("fake1", INDEX).add("10.1.0.2").add("fe80::9cf8:f2ff:fe56:6b6b").add("fd00:1::2");
        fake1.mac[5] = 0x6b;
        return SoftDevice.manualOnInterface(SoftDeviceConfig.onInterface("peer", "fake1"), fake1, network::attach);
    }

    private void step(SoftDevice... devices) {
        nowNs += 1_000;
        for (SoftDevice d : devices) {
            d.engine().doWork(nowNs);
        }
    }

    @Test
    void theGidTableListsTheInterfacesAddressesInRxesOrder() {
        try (DeviceContext ctx = device.open()) {
            List<GidEntry> table = ctx.queryGidTable(16);
            assertEquals(List.of(Gid.parse("fe80::9cf8:f2ff:fe56:6b6a"), Gid.parse("::ffff:10.1.0.1"), Gid.parse("fd00:1::1")),
                    table.stream().map(GidEntry::gid).toList());
            assertEquals(List.of(0, 1, 2), table.stream().map(GidEntry::index).toList());
            assertEquals(INDEX, table.getFirst().netdevIndex());
            assertEquals(Gid.ZERO, ctx.queryGid(1, 3));
            assertEquals(dev.verbs4j.Errno.ENODATA.number(),
                    assertThrows(dev.verbs4j.VerbsException.class, () -> ctx.queryGidEntry(1, 3)).errno());
            assertEquals(Mtu.MTU_4096, ctx.queryPort(1).maxMtu());
            assertEquals(Mtu.MTU_1024, ctx.queryPort(1).activeMtu());
            assertEquals(PortState.ACTIVE, ctx.queryPort(1).state());
        }
    }

    @Test
    void thePortFollowsTheInterfaceAtTheNextLookAndSaysSoInEvents() {
        try (DeviceContext ctx = device.open()) {
            fake0.mtu = 1000;
            fake0.add("10.1.1.1");
            step(device);
            assertEquals(Mtu.MTU_1024, ctx.queryPort(1).activeMtu(), "not yet looked at");
            nowNs += NetdevPort.POLL_INTERVAL_NS;
            step(device);
            assertEquals(Mtu.MTU_512, ctx.queryPort(1).activeMtu());
            assertEquals(Gid.parse("::ffff:10.1.1.1"), ctx.queryGid(1, 3));
            assertEquals(Optional.of(new AsyncEvent(AsyncEventType.GID_CHANGE, 1)), ctx.nextAsyncEvent(Duration.ZERO));
            fake0.running = false;
            nowNs += NetdevPort.POLL_INTERVAL_NS;
            step(device);
            assertEquals(PortState.DOWN, ctx.queryPort(1).state());
            assertEquals(Optional.of(new AsyncEvent(AsyncEventType.PORT_ERR, 1)), ctx.nextAsyncEvent(Duration.ZERO));
            fake0.running = true;
            nowNs += NetdevPort.POLL_INTERVAL_NS;
            step(device);
            assertEquals(Optional.of(new AsyncEvent(AsyncEventType.PORT_ACTIVE, 1)), ctx.nextAsyncEvent(Duration.ZERO));
            assertFalse(ctx.nextAsyncEvent(Duration.ZERO).isPresent());
        }
    }

    @Test
    void rcTrafficLeavesFromTheAddressOfEachSourceGid() {
        // GID 1 (IPv4) to 10.1.0.2, GID 0 (link-local) to fe80::...6b6b, GID 2 (global IPv6) to fd00:1::2.
        String[][] cases = {{"IPv4", "1"}, {"link-local", "0"}, {"global IPv6", "2"}};
        for (String[] c : cases) {
            SoftDevice other = peer();
            RcOptions options = new RcOptions().gidIndex(Integer.parseInt(c[1])).timeout(14)
                    .access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            try (RcPair pair = new RcPair(device, other, 1 << 16, 16, options, () -> step(device, other))) {
                for (int i = 0; i < 3000; i++) {
                    pair.a.buf.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
                }
                pair.b.qp.postRecv(new ReceiveWorkRequest().wrId(5).buffer(pair.b.mr, 0, 4096));
                pair.a.qp.postSend(new SendWorkRequest().wrId(6).signaled(true).buffer(pair.a.mr, 0, 3000).send());
                assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 5000).status(), c[0]);
                assertEquals(WcStatus.SUCCESS, pair.await(pair.b.cq, 5000).status(), c[0]);
                // and back, to the address the GID names
                pair.a.qp.postRecv(new ReceiveWorkRequest().wrId(7).buffer(pair.a.mr, 8192, 4096));
                pair.b.qp.postSend(new SendWorkRequest().wrId(8).signaled(true).buffer(pair.b.mr, 0, 3000).send());
                assertEquals(WcStatus.SUCCESS, pair.await(pair.b.cq, 5000).status(), c[0]);
                assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 5000).status(), c[0]);
                for (int i = 0; i < 3000; i++) {
                    assertEquals((byte) (i * 7), pair.a.buf.get(ValueLayout.JAVA_BYTE, 8192 + i));
                }
                assertEquals(0, device.engine().counters().get(dev.verbs4j.softroce.engine.Counters.DROP_ICRC), c[0]);
                assertEquals(0, other.engine().counters().get(dev.verbs4j.softroce.engine.Counters.DROP_ICRC), c[0]);
            }
        }
    }

    @Test
    void udDatagramsGoToEachKindOfGidAndCarryTheSourceInTheirGrh() {
        SoftDevice other = peer();
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared();
             DeviceContext ca = device.open(); DeviceContext cb = other.open()) {
            dev.verbs4j.ProtectionDomain pa = ca.allocatePd();
            dev.verbs4j.ProtectionDomain pb = cb.allocatePd();
            dev.verbs4j.CompletionQueue qa = ca.createCq(8);
            dev.verbs4j.CompletionQueue qb = cb.createCq(8);
            dev.verbs4j.QueuePair ua = pa.createQp(new dev.verbs4j.QpInitAttributes(dev.verbs4j.QpType.UD, qa));
            dev.verbs4j.QueuePair ub = pb.createQp(new dev.verbs4j.QpInitAttributes(dev.verbs4j.QpType.UD, qb));
            for (dev.verbs4j.QueuePair q : new dev.verbs4j.QueuePair[] {ua, ub}) {
                q.modify(new dev.verbs4j.QpAttributes().state(dev.verbs4j.QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
                q.modify(new dev.verbs4j.QpAttributes().state(dev.verbs4j.QpState.RTR));
                q.modify(new dev.verbs4j.QpAttributes().state(dev.verbs4j.QpState.RTS).sqPsn(0));
            }
            java.lang.foreign.MemorySegment sa = arena.allocate(64);
            java.lang.foreign.MemorySegment sb = arena.allocate(40 + 64);
            dev.verbs4j.MemoryRegion ma = pa.registerMemory(sa, EnumSet.of(Access.LOCAL_WRITE));
            dev.verbs4j.MemoryRegion mb = pb.registerMemory(sb, EnumSet.of(Access.LOCAL_WRITE));
            for (int gid = 0; gid < 3; gid++) {
                dev.verbs4j.AddressHandle ah = pa.createAh(new dev.verbs4j.AddressHandleAttributes(cb.queryGid(1, gid), gid, 1, 64, 0, 0, 0));
                ub.postRecv(new ReceiveWorkRequest().wrId(gid).buffer(mb, 0, 40 + 64));
                ua.postSend(new SendWorkRequest().wrId(gid).signaled(true).buffer(ma, 0, 64).ud(ah, ub.qpn(), 0x11111111).send());
                dev.verbs4j.WorkCompletion[] wc = {new dev.verbs4j.WorkCompletion()};
                long end = System.nanoTime() + 5_000_000_000L;
                int received;
                while ((received = qb.poll(wc)) == 0 && System.nanoTime() < end) {
                    step(device, other);
                }
                assertEquals(1, received, "the receive's completion, GID " + gid);
                assertEquals(WcStatus.SUCCESS, wc[0].status(), "GID " + gid);
                assertEquals(gid, wc[0].wrId());
                // The source address in the GRH area: an IPv6 header's at 8, an IPv4 header's at 20 + 12.
                byte[] expected = ca.queryGid(1, gid).toBytes();
                if (gid == 1) {
                    assertEquals(java.util.List.of(10, 1, 0, 1), java.util.List.of(sb.get(ValueLayout.JAVA_BYTE, 32) & 0xff,
                            sb.get(ValueLayout.JAVA_BYTE, 33) & 0xff, sb.get(ValueLayout.JAVA_BYTE, 34) & 0xff,
                            sb.get(ValueLayout.JAVA_BYTE, 35) & 0xff));
                } else {
                    assertEquals(Gid.fromBytes(expected), Gid.fromBytes(sb.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE)), "GID " + gid);
                }
                int sent;
                while ((sent = qa.poll(wc)) == 0 && System.nanoTime() < end) {
                    step(device, other);
                }
                assertEquals(1, sent, "the send's completion, GID " + gid);
                assertEquals(WcStatus.SUCCESS, wc[0].status(), "the send, GID " + gid);
                assertEquals(gid, wc[0].wrId());
                ah.close();
            }
            ua.close();
            ub.close();
            ma.close();
            mb.close();
            qa.close();
            qb.close();
            pa.close();
            pb.close();
        }
    }
}

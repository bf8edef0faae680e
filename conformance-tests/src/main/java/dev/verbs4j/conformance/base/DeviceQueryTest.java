package dev.verbs4j.conformance.base;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Gid;
import dev.verbs4j.GidEntry;
import dev.verbs4j.GidType;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.PortState;
import dev.verbs4j.Verbs;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a device says about itself ({@code ibv_get_device_list}, {@code ibv_query_device_ex},
 * {@code ibv_query_port}, {@code ibv_query_gid}): it is listed and opens, and every limit
 * and port property it reports is one a verbs application can work with.
 */
@ConformanceSuite
class DeviceQueryTest {
    private static final long PAGE = 4096;
    /** IBTA PortInfo LinkWidthActive codes (1X, 4X, 8X, 12X, 2X). */
    private static final Set<Integer> WIDTHS = Set.of(1, 2, 4, 8, 16);
    /** IBTA PortInfo LinkSpeedActive codes, SDR to XDR. */
    private static final Set<Integer> SPEEDS = Set.of(1, 2, 4, 8, 16, 32, 64, 128, 256);

    @Test
    void deviceIsListedByItsProviderAndOpensAgain(Testbed bed) {
        Device device = bed.local().context().device();
        Device listed = Verbs.provider(device.providerName()).devices().stream()
                .filter(d -> d.name().equals(device.name())).findFirst().orElse(null);
        assertTrue(listed != null, device.name() + " is not in its provider's device list");

        try (DeviceContext second = listed.open()) {
            assertEquals(device.name(), second.device().name(), "the second context's device");
            assertEquals(bed.local().attributes().nodeGuid(), second.queryDevice().nodeGuid(), "node GUID seen from the second context");
        }
    }

    @Test
    void deviceAttributesDescribeAUsableDevice(Testbed bed) {
        for (DeviceSide side : bed.sides()) {
            DeviceAttributes a = side.context().queryDevice();
            assertNotEquals(0L, a.nodeGuid(), side + ": node_guid");
            assertNotEquals(0L, a.systemImageGuid(), side + ": sys_image_guid");
            // max_mr_size is a u64: a device without a limit reports all ones.
            assertTrue(Long.compareUnsigned(a.maxMrSize(), PAGE) > 0, side + ": max_mr_size " + Long.toUnsignedString(a.maxMrSize()));
            assertTrue(Long.compareUnsigned(a.pageSizeCap(), PAGE) >= 0, side + ": page_size_cap " + Long.toHexString(a.pageSizeCap()));
            assertNotEquals(0, a.vendorId(), side + ": vendor_id");
            assertTrue(a.maxQp() > 0 && a.maxQpWr() > 0 && a.maxSge() > 0 && a.maxSgeRd() >= 0, side + ": QP limits " + a);
            assertTrue(a.maxCq() > 0 && a.maxCqe() > 0 && a.maxMr() > 0 && a.maxPd() > 0, side + ": CQ, MR and PD limits " + a);
            // P_Keys belong to the InfiniBand transport (RoCE included); iWARP has none.
            assertTrue(side.iwarp() ? a.maxPkeys() == 0 : a.maxPkeys() > 0, side + ": max_pkeys " + a.maxPkeys());
            assertTrue(a.physicalPortCount() >= 1, side + ": phys_port_cnt");
        }
    }

    @Test
    void portAttributesDescribeAnActivePort(Testbed bed) {
        for (DeviceSide side : bed.sides()) {
            PortAttributes p = side.context().queryPort(DeviceSide.PORT);
            assertEquals(PortState.ACTIVE, p.state(), side + ": port state");
            assertTrue(p.activeMtu().bytes() <= p.maxMtu().bytes(), side + ": active MTU " + p.activeMtu() + " above max " + p.maxMtu());
            assertTrue(WIDTHS.contains(p.activeWidth()), side + ": active_width " + p.activeWidth() + " is no IBTA width");
            assertTrue(SPEEDS.contains(p.activeSpeed()), side + ": active_speed " + p.activeSpeed() + " is no IBTA speed");
            assertTrue(p.maxMsgSize() > PAGE, side + ": max_msg_sz " + p.maxMsgSize());
            assertTrue(p.gidTableLength() >= 1, side + ": gid_tbl_len");
            assertTrue(side.iwarp() ? p.pkeyTableLength() == 0 : p.pkeyTableLength() >= 1,
                    side + ": pkey_tbl_len " + p.pkeyTableLength());
        }
    }

    @Test
    void gidTableEntriesAreReadable(Testbed bed) {
        for (DeviceSide side : bed.sides()) {
            side.context().queryGid(DeviceSide.PORT, 0);
            assertEquals(side.gid(), side.context().queryGid(DeviceSide.PORT, side.gidIndex()), side + ": GID " + side.gidIndex());
        }
    }

    @Test
    void gidEntryNamesItsPortIndexTypeAndNetworkDevice(Testbed bed) {
        for (DeviceSide side : bed.sides()) {
            GidEntry entry = side.context().queryGidEntry(DeviceSide.PORT, side.gidIndex());
            assertEquals(side.gid(), entry.gid(), side + ": the entry's GID is the one query_gid reads");
            assertEquals(side.gidIndex(), entry.index(), side + ": the entry's index");
            assertEquals(DeviceSide.PORT, entry.port(), side + ": the entry's port");
            // An iWARP port's GIDs are its MAC address, of type IB; a RoCE port's are IP addresses.
            assertEquals(side.iwarp() ? GidType.IB : GidType.ROCE_V2, entry.type(),
                    side + ": the GID's type on " + (side.iwarp() ? "an iWARP" : "a RoCE") + " port");
            assertTrue(entry.netdevIndex() >= 0, side + ": the network device's index " + entry.netdevIndex());
        }
    }

    @Test
    void gidTableListsEveryPopulatedEntryOfEveryPort(Testbed bed) {
        for (DeviceSide side : bed.sides()) {
            DeviceContext ctx = side.context();
            int room = 0;
            for (int port = 1; port <= side.attributes().physicalPortCount(); port++) {
                room += ctx.queryPort(port).gidTableLength();
            }
            List<GidEntry> table = ctx.queryGidTable(room);
            assertTrue(table.stream().anyMatch(e -> e.port() == DeviceSide.PORT && e.index() == side.gidIndex()),
                    side + ": the table holds the GID in use, index " + side.gidIndex() + ": " + table);
            for (GidEntry e : table) {
                assertEquals(e, ctx.queryGidEntry(e.port(), e.index()), side + ": the table's entry reads the same alone");
                assertNotEquals(Gid.ZERO, e.gid(), side + ": the table lists populated entries only: " + e);
            }
        }
    }

    @Test
    void defaultPkeyIsAtIndexZero(Testbed bed) {
        for (DeviceSide side : bed.sides()) {
            Assumptions.assumeTrue(side.attributes().maxPkeys() > 0,
                    () -> side + " reports max_pkeys 0: no P_Key table");
            DeviceContext ctx = side.context();
            int pkey = ctx.queryPkey(DeviceSide.PORT, 0);
            assertEquals(0xffff, pkey, side + ": P_Key 0 of a RoCE port is the default, full-member P_Key");
            assertEquals(0, ctx.pkeyIndex(DeviceSide.PORT, pkey), side + ": the index of the P_Key at index 0");
        }
    }
}

package dev.verbs4j.conformance.errors;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.Gid;
import dev.verbs4j.GidEntry;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Queries of things the device does not have fail with EINVAL: a port past
 * {@code phys_port_cnt} ({@code ibv_query_port}) and a GID index past the port's table
 * ({@code ibv_query_gid}). An empty GID slot fails with ENODATA ({@code ibv_query_gid_ex}),
 * a table too small for the populated entries with EINVAL ({@code ibv_query_gid_table}),
 * and a P_Key index past the table, or a P_Key the table lacks, with ENOENT
 * ({@code ibv_query_pkey}, {@code ibv_get_pkey_index}, which read sysfs).
 */
@ConformanceSuite
class DeviceQueryErrorTest {

    @Test
    void queryingPortPastTheLastFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int ports = bed.local().attributes().physicalPortCount();

        Expect.errno(Errno.EINVAL, () -> ctx.queryPort(ports + 1), "query_port of port " + (ports + 1) + " of " + ports);
        Expect.errno(Errno.EINVAL, () -> ctx.queryPort(ports + 10), "query_port of port " + (ports + 10) + " of " + ports);
    }

    @Test
    void queryingGidPastTheTableFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int length = bed.local().port().gidTableLength();

        Expect.errno(Errno.EINVAL, () -> ctx.queryGid(DeviceSide.PORT, length), "query_gid of index " + length + " of a table of " + length);
    }

    @Test
    void queryingGidOfPortPastTheLastFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int ports = bed.local().attributes().physicalPortCount();

        Expect.errno(Errno.EINVAL, () -> ctx.queryGid(ports + 1, 0), "query_gid on port " + (ports + 1) + " of " + ports);
    }

    @Test
    void gidTableTooSmallForItsEntriesFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        Expect.errno(Errno.EINVAL, () -> ctx.queryGidTable(0), "query_gid_table with room for no entry");
    }

    @Test
    void emptyGidSlotFailsWithEnodata(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int length = bed.local().port().gidTableLength();
        Set<Integer> populated = new HashSet<>();
        for (GidEntry e : ctx.queryGidTable(length * bed.local().attributes().physicalPortCount())) {
            if (e.port() == DeviceSide.PORT) {
                populated.add(e.index());
            }
        }
        int empty = IntStream.range(0, length).filter(i -> !populated.contains(i)).findFirst()
                .orElseThrow(() -> new TestAbortedException("every one of the " + length + " GID slots is populated"));
        Expect.errno(Errno.ENODATA, () -> ctx.queryGidEntry(DeviceSide.PORT, empty), "query_gid_ex of the empty slot " + empty);
        assertEquals(Gid.ZERO, ctx.queryGid(DeviceSide.PORT, empty), "query_gid reads the empty slot " + empty + " as zeroes");
    }

    @Test
    void pkeyPastTheTableOrAbsentFromItFailsWithEnoent(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int length = bed.local().port().pkeyTableLength();
        Expect.errno(Errno.ENOENT, () -> ctx.queryPkey(DeviceSide.PORT, length), "query_pkey of index " + length + " of a table of " + length);
        Set<Integer> held = new HashSet<>();
        for (int i = 0; i < length; i++) {
            held.add(ctx.queryPkey(DeviceSide.PORT, i));
        }
        int absent = IntStream.of(0x1234, 0x7fff, 0x8001).filter(p -> !held.contains(p)).findFirst().orElseThrow();
        Expect.errno(Errno.ENOENT, () -> ctx.pkeyIndex(DeviceSide.PORT, absent), "get_pkey_index of 0x" + Integer.toHexString(absent));
    }
}

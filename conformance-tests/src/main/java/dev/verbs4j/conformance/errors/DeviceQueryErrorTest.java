package dev.verbs4j.conformance.errors;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

/**
 * Queries of things the device does not have fail with EINVAL: a port past
 * {@code phys_port_cnt} ({@code ibv_query_port}) and a GID index past the port's table
 * ({@code ibv_query_gid}).
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
}

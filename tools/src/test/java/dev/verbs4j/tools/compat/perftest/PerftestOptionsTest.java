package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Mtu;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestOptionsTest {
    private static PerftestOptions parse(String... args) {
        return PerftestOptions.parse(args);
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> parse(args)).getMessage();
    }

    @Test
    void takesTheTestAfterPerftestOrAsAProgramName() {
        assertEquals(PerftestTest.WRITE_BW, parse("perftest", "write_bw").test);
        assertEquals(PerftestTest.SEND_LAT, parse("ib_send_lat").test);
        assertTrue(refusal("perftest", "ib_flush_bw").contains("no perftest program"));
    }

    @Test
    void withoutAHostItIsTheServerWithPerftestsDefaults() {
        PerftestOptions o = parse("perftest", "write_bw");

        assertTrue(o.isServer());
        assertEquals(18515, o.port);
        assertEquals(List.of(65536), o.runSizes());
        assertEquals(5000, o.iterations());
        assertEquals(128, o.txDepth());
        assertEquals(-1, o.gidIndex);
        assertNull(o.mtu);
        assertEquals(1000, parse("ib_read_bw").iterations());
        assertEquals(List.of(2), parse("ib_write_lat").runSizes());
        assertEquals(1, parse("ib_write_lat").txDepth());
        assertEquals(List.of(8), parse("ib_atomic_bw").runSizes());
    }

    @Test
    void readsPerftestsOptions() {
        PerftestOptions o = parse("perftest", "send_bw", "-d", "rxe0", "-i", "1", "-p", "18600", "-s", "4096", "-n", "300",
                "-q", "2", "-x", "1", "-m", "1024", "-F", "--report_gbits", "--odp", "-t", "64", "-r", "100",
                "--provider", "ibverbs", "10.9.0.1");

        assertEquals("rxe0", o.device);
        assertEquals(18600, o.port);
        assertEquals(List.of(4096), o.runSizes());
        assertEquals(300, o.iterations());
        assertEquals(2, o.qps);
        assertEquals(1, o.gidIndex);
        assertEquals(Mtu.MTU_1024, o.mtu);
        assertTrue(o.reportGbits);
        assertTrue(o.odp);
        assertEquals(64, o.txDepth());
        assertEquals(100, o.rxDepth());
        assertEquals("10.9.0.1", o.host);
        assertFalse(o.isServer());
    }

    @Test
    void allSizesArePerftestsPowersOfTwo() {
        List<Integer> sizes = parse("perftest", "write_bw", "-a").runSizes();

        assertEquals(2, sizes.getFirst());
        assertEquals(1 << 23, sizes.getLast());
        assertEquals(23, sizes.size());
    }

    @Test
    void depthsNeverExceedTheIterations() {
        assertEquals(10, parse("ib_write_bw", "-n", "10").txDepth());
        assertEquals(10, parse("ib_send_bw", "-n", "10").rxDepth());
    }

    @Test
    void refusesWhatCannotBeHonouredWithTheReason() {
        assertTrue(refusal("ib_write_bw", "-z").contains("rdma_cm"));
        assertTrue(refusal("ib_write_bw", "-b").contains("bidirectional"));
        assertTrue(refusal("ib_write_bw", "-D", "5").contains("-D"));
        assertTrue(refusal("ib_send_bw", "-c", "UD").contains("only RC"));
        assertTrue(refusal("ib_atomic_bw", "-s", "64").contains("8-byte"));
        assertTrue(refusal("ib_atomic_lat", "-a").contains("8-byte"));
        assertTrue(refusal("ib_write_lat", "-q", "2").contains("one queue pair"));
        assertTrue(refusal("ib_write_bw", "--address", "10.9.0.2", "--provider", "ibverbs").contains("soft device"));
        assertTrue(refusal("ib_write_bw", "--no-such").contains("unknown"));
        assertTrue(refusal("ib_write_bw", "-m", "1500").contains("-m"));
        assertTrue(refusal("ib_write_bw", "host1", "host2").contains("unknown"));
    }

    @Test
    void takesTheRdmaCmConnectionBothWays() {
        assertTrue(parse("ib_write_bw", "-R").rdmaCm);
        assertTrue(parse("ib_send_bw", "--rdma_cm", "10.9.0.1").rdmaCm);
        assertFalse(parse("ib_send_bw").rdmaCm);
    }

    @Test
    void acceptsRcAndBothAtomicTypes() {
        assertFalse(parse("ib_atomic_bw", "-A", "FETCH_AND_ADD", "-c", "RC").compareAndSwap);
        assertTrue(parse("ib_atomic_lat", "-A", "CMP_AND_SWAP").compareAndSwap);
    }
}

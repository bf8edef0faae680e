package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Two soft devices on 127.0.0.1 and 127.0.0.2 over real UDP sockets and engine threads. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SoftLoopbackTest {
    RcPair pair;

    @BeforeAll
    void connect() throws Exception {
        pair = connectPair();
    }

    /** The pair the cases run on; {@link SoftLoopbackIpv6Test} makes it on IPv6. */
    RcPair connectPair() throws Exception {
        SoftDevice a = new SoftDevice(SoftDeviceConfig.of("lo-a", InetAddress.getByName("127.0.0.1")).withPorts(27911, 27912));
        SoftDevice b = new SoftDevice(SoftDeviceConfig.of("lo-b", InetAddress.getByName("127.0.0.2")).withPorts(27912, 27911));
        return pair(a, b);
    }

    // A long ACK timeout (1 s): engine threads of a loaded 2-core machine may wait for a core.
    static RcPair pair(SoftDevice a, SoftDevice b) {
        return new RcPair(a, b, 1 << 20, 64, new RcOptions().timeout(18).access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                Access.REMOTE_READ, Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL)), null);
    }

    @AfterAll
    void close() {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void sendLandsInPostedReceive() {
        pair.b.buf.fill((byte) 0);
        for (int i = 0; i < 10_000; i++) {
            pair.a.buf.set(ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        pair.b.qp.postRecv(new ReceiveWorkRequest().wrId(77).buffer(pair.b.mr, 0, 16384));
        pair.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(pair.a.mr, 0, 10_000).sendWithImm(0x1234));
        WorkCompletion s = pair.await(pair.a.cq, 5000);
        assertEquals(WcStatus.SUCCESS, s.status(), s.toString());
        assertEquals(WcOpcode.SEND, s.opcode());
        WorkCompletion r = pair.await(pair.b.cq, 5000);
        assertEquals(WcStatus.SUCCESS, r.status(), r.toString());
        assertEquals(77, r.wrId());
        assertEquals(10_000, r.byteLength());
        assertEquals(0x1234, r.immData());
        for (int i = 0; i < 10_000; i++) {
            assertEquals((byte) i, pair.b.buf.get(ValueLayout.JAVA_BYTE, i));
        }
    }

    @Test
    void writeReadAtomicsFlushRoundTrip() {
        pair.a.buf.fill((byte) 0x5a);
        pair.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(pair.a.mr, 0, 70_000)
                .rdmaWrite(pair.b.mr.address() + 4096, pair.b.mr.rkey()));
        assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 5000).status());
        assertEquals((byte) 0x5a, pair.b.buf.get(ValueLayout.JAVA_BYTE, 4096 + 69_999));
        pair.a.qp.postSend(new SendWorkRequest().wrId(3).signaled(true)
                .flush(pair.b.mr.address(), pair.b.mr.rkey(), 4096, FlushType.GLOBAL, FlushLevel.RANGE));
        WorkCompletion f = pair.await(pair.a.cq, 5000);
        assertEquals(WcStatus.SUCCESS, f.status(), f.toString());
        assertEquals(WcOpcode.FLUSH, f.opcode());

        pair.b.buf.asSlice(200_000, 9000).fill((byte) 7);
        pair.a.qp.postSend(new SendWorkRequest().wrId(4).signaled(true).buffer(pair.a.mr, 100_000, 9000)
                .rdmaRead(pair.b.mr.address() + 200_000, pair.b.mr.rkey()));
        WorkCompletion rd = pair.await(pair.a.cq, 5000);
        assertEquals(WcStatus.SUCCESS, rd.status(), rd.toString());
        assertEquals((byte) 7, pair.a.buf.get(ValueLayout.JAVA_BYTE, 100_000 + 8999));

        pair.b.buf.set(ValueLayout.JAVA_LONG, 512, 40);
        pair.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(pair.a.mr, 8, 8)
                .fetchAndAdd(pair.b.mr.address() + 512, pair.b.mr.rkey(), 2));
        assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 5000).status());
        assertEquals(40, pair.a.buf.get(ValueLayout.JAVA_LONG, 8));
        assertEquals(42, pair.b.buf.get(ValueLayout.JAVA_LONG, 512));
        pair.a.qp.postSend(new SendWorkRequest().wrId(6).signaled(true).buffer(pair.a.mr, 16, 8)
                .compareAndSwap(pair.b.mr.address() + 512, pair.b.mr.rkey(), 42, 99));
        assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 5000).status());
        assertEquals(42, pair.a.buf.get(ValueLayout.JAVA_LONG, 16));
        assertEquals(99, pair.b.buf.get(ValueLayout.JAVA_LONG, 512));
        pair.a.qp.postSend(new SendWorkRequest().wrId(7).signaled(true)
                .atomicWrite(pair.b.mr.address() + 520, pair.b.mr.rkey(), 0x1122334455667788L));
        WorkCompletion aw = pair.await(pair.a.cq, 5000);
        assertEquals(WcStatus.SUCCESS, aw.status(), aw.toString());
        assertEquals(WcOpcode.ATOMIC_WRITE, aw.opcode());
        assertEquals(0x1122334455667788L, pair.b.buf.get(ValueLayout.JAVA_LONG, 520));
    }
}

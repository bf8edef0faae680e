package dev.verbs4j.conformance.agent;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.Gid;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.Verbs;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What crosses the agent's control channel comes out as it went in. */
class CodecTest {
    static {
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27923");
    }

    /** Resources cross as their index in a list both ends of this test share. */
    private final List<Object> resources = new ArrayList<>();
    private final Codec codec = new Codec(new Codec.Peer() {
        @Override
        public void writeResource(DataOutputStream out, Object resource, Class<?> type) throws IOException {
            if (!resources.contains(resource)) {
                resources.add(resource);
            }
            out.writeInt(resources.indexOf(resource));
        }

        @Override
        public Object readResource(DataInputStream in) throws IOException {
            return resources.get(in.readInt());
        }

        @Override
        public void writeSegment(DataOutputStream out, MemorySegment segment) throws IOException {
            out.writeLong(segment.address());
            out.writeLong(segment.byteSize());
        }

        @Override
        public MemorySegment readSegment(DataInputStream in) throws IOException {
            return MemorySegment.ofAddress(in.readLong()).reinterpret(in.readLong());
        }
    });

    private Object roundTrip(Object value, Type expected) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        codec.write(new DataOutputStream(bytes), value, null);
        return codec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), expected, null);
    }

    private static <T> T resource(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(CodecTest.class.getClassLoader(), new Class<?>[]{type},
                (proxy, method, args) -> method.getName().equals("hashCode") ? 1 : method.getName().equals("equals") ? proxy == args[0] : null));
    }

    @Test
    void aWorkRequestKeepsEveryFieldAndItsResources() throws IOException {
        MemoryRegion region = resource(MemoryRegion.class);
        SendWorkRequest wr = new SendWorkRequest(4).wrId(77).signaled(true)
                .flush(0x1000, 0xabc, 4096, FlushType.GLOBAL, FlushLevel.MR);
        wr.sges().clear().add(0x2000, 64, 5).add(0x3000, 32, 6);
        wr.bindMw(null, 0x1234, region, 0x4000, 512, 3);

        SendWorkRequest copy = (SendWorkRequest) roundTrip(wr, SendWorkRequest.class);

        assertEquals(77, copy.wrId());
        assertEquals(WrOpcode.BIND_MW, copy.opcode());
        assertSame(region, copy.region(), "a resource crosses as itself");
        assertEquals(2, copy.sges().count());
        assertEquals(0x3000, copy.sges().address(1));
        assertEquals(6, copy.sges().lkey(1));
        assertEquals(4, copy.sges().capacity());
    }

    @Test
    void completionsComeBackIntoTheCallersArray() throws IOException {
        WorkCompletion[] mine = {new WorkCompletion(), new WorkCompletion()};
        WorkCompletion[] theirs = {new WorkCompletion(), new WorkCompletion()};
        theirs[1].set(9, WcStatus.REM_ACCESS_ERR, WcOpcode.RDMA_WRITE, 64, 17, 0, 0, 0);

        WorkCompletion second = mine[1];
        Codec.copyInto(mine, roundTrip(theirs, WorkCompletion[].class));

        assertSame(second, mine[1], "the caller's objects are filled, not replaced");
        assertEquals(WcStatus.REM_ACCESS_ERR, mine[1].status());
        assertEquals(9, mine[1].wrId());
        assertEquals(64, mine[1].byteLength());
    }

    @Test
    void setsKeepTheirEnumTypeEvenWhenEmpty() throws IOException, NoSuchMethodException {
        Type declared = MemoryRegionAccess.class.getMethod("access").getGenericReturnType();
        assertEquals(EnumSet.of(Access.REMOTE_READ, Access.ON_DEMAND), roundTrip(EnumSet.of(Access.REMOTE_READ, Access.ON_DEMAND), declared));
        Object empty = roundTrip(EnumSet.noneOf(Access.class), declared);
        assertInstanceOf(EnumSet.class, empty, "EnumSet.copyOf needs an EnumSet when the set is empty");
        assertTrue(((Set<?>) empty).isEmpty());
    }

    /** A declared {@code Set<Access>}, as the API declares its rights. */
    interface MemoryRegionAccess {
        Set<Access> access();
    }

    @Test
    void queuePairAttributesCarryTheirQueuesAndOperations() throws IOException {
        CompletionQueue cq = resource(CompletionQueue.class);
        QpInitAttributes init = new QpInitAttributes(QpType.RC, cq).allow(WrOpcode.FLUSH);

        QpInitAttributes copy = (QpInitAttributes) roundTrip(init, QpInitAttributes.class);

        assertSame(cq, copy.sendCq());
        assertSame(cq, copy.recvCq());
        assertTrue(copy.operations().contains(WrOpcode.FLUSH));
    }

    @Test
    void recordsOptionalsAndDurationsCrossAsValues() throws IOException {
        Gid gid = new Gid(0x1122334455667788L, 0x99aabbccddeeff00L);
        assertEquals(gid, roundTrip(gid, Gid.class));
        assertEquals(Optional.of(gid), roundTrip(Optional.of(gid), Optional.class));
        assertEquals(Optional.empty(), roundTrip(Optional.empty(), Optional.class));
        assertEquals(Duration.ofMillis(1500), roundTrip(Duration.ofMillis(1500), Duration.class));
        assertArrayEquals(new long[]{1, 2, 3}, (long[]) roundTrip(new long[]{1, 2, 3}, long[].class));
    }

    @Test
    void anArgumentReturnedByTheCallIsTheCallersObject() throws IOException {
        WorkCompletion out = new WorkCompletion();
        Object[] arguments = {out};
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        codec.write(new DataOutputStream(bytes), out, arguments);
        Object read = codec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), WorkCompletion.class, arguments);
        assertSame(out, read);
    }

    @Test
    void somethingTheChannelCannotCarryIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> roundTrip(new StringBuilder("x"), Object.class));
    }

    @Test
    void aVerbsErrorComesBackWithItsErrnoAndMessage() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Protocol.writeThrown(new DataOutputStream(bytes), new VerbsException(Errno.EBUSY, "windows are bound"));
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        assertEquals(Protocol.THROWN, in.readByte());

        RuntimeException e = Protocol.readThrown(in);

        VerbsException v = assertInstanceOf(VerbsException.class, e);
        assertEquals(Errno.EBUSY, v.error());
        assertEquals("windows are bound (EBUSY)", v.getMessage());
    }

    @Test
    void otherExceptionsKeepTheirType() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Protocol.writeThrown(new DataOutputStream(bytes), new IllegalStateException("closed"));
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        in.readByte();
        RuntimeException e = Protocol.readThrown(in);
        assertInstanceOf(IllegalStateException.class, e);
        assertEquals("closed", e.getMessage());
    }

    @Test
    void deviceAttributesCrossWhole() throws IOException {
        try (DeviceContext context = Verbs.provider("soft").devices().getFirst().open()) {
            DeviceAttributes attributes = context.queryDevice();
            assertEquals(attributes, roundTrip(attributes, DeviceAttributes.class));
        }
    }
}

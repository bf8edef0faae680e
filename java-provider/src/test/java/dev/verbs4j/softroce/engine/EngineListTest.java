package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.transport.InMemoryNetwork;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The engines a poll walks: a walk keeps the array it read, so a device that closes in the
 * middle of another thread's walk neither shortens it under its index nor is skipped
 * silently by it, and a walk that reads again sees the change.
 */
class EngineListTest {
    private final InMemoryNetwork network = new InMemoryNetwork(1);

    private DeviceEngine engine(int lastOctet) throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName("10.78.0." + lastOctet), 4791);
        return new DeviceEngine(network.attach(address), DeviceLimits.defaults(), 4791, null);
    }

    @Test
    void aWalkKeepsTheArrayItReadWhileAnEngineIsRemoved() throws Exception {
        EngineList list = new EngineList();
        DeviceEngine a = engine(1);
        DeviceEngine b = engine(2);
        DeviceEngine c = engine(3);
        try {
            list.add(a);
            list.add(b);
            list.add(c);
            DeviceEngine[] walk = list.all();
            list.remove(a);
            list.remove(c);
            assertArrayEquals(new DeviceEngine[] {a, b, c}, walk, "the walk in progress is not changed under it");
            assertArrayEquals(new DeviceEngine[] {b}, list.all(), "the next walk sees the removals");
            list.remove(a);
            assertEquals(1, list.all().length, "removing an engine that is not there changes nothing");
            list.add(a);
            assertSame(a, list.all()[1], "an engine added goes last");
        } finally {
            a.close();
            b.close();
            c.close();
        }
    }
}

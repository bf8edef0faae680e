package dev.verbs4j.ibverbs.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.junit.jupiter.api.Test;

/**
 * Device verbs that need no device. ibv_get_device_list runs against the
 * host's kernel: libibverbs reports a kernel without the uverbs class
 * (/sys/class/infiniband_verbs) as a NULL list with errno ENOSYS, not as an
 * empty list.
 */
class DeviceVerbsTest {

    private static boolean kernelHasUverbs() {
        return Files.isDirectory(Path.of("/sys/class/infiniband_verbs"));
    }

    @Test
    void noRdmaKernelGivesNullListAndEnosys() {
        try (IntPointer count = new IntPointer(1)) {
            count.put(-7);
            PointerPointer<ibv_device> list = DeviceVerbs.ibv_get_device_list(count);
            if (kernelHasUverbs()) {
                assertNotNull(list, "errno " + Errno.lastErrno());
                assertTrue(count.get() >= 0);
                assertNull(list.get(count.get()), "the list is NULL-terminated");
                for (int i = 0; i < count.get(); i++) {
                    ibv_device device = new ibv_device(list.get(i));
                    assertEquals(device.name(), DeviceVerbs.ibv_get_device_name(device));
                }
                DeviceVerbs.ibv_free_device_list(list);
            } else {
                assertNull(list);
                assertEquals(Errno.ENOSYS, Errno.lastErrno());
                assertEquals(0, count.get(), "libibverbs zeroes the count before failing");
            }
        }
    }

    @Test
    void lastErrnoIsPerThread() throws InterruptedException {
        try (IntPointer count = new IntPointer(1)) {
            DeviceVerbs.ibv_get_device_list(count);
        }
        int here = Errno.lastErrno();
        int[] there = {-1};
        Thread other = Thread.ofPlatform().start(() -> there[0] = Errno.lastErrno());
        other.join();
        assertEquals(0, there[0], "a thread that made no call sees no errno");
        if (!kernelHasUverbs()) {
            assertEquals(Errno.ENOSYS, here);
        }
    }

    @Test
    void eventAndPortStateTextComesFromLibibverbs() {
        assertEquals("local catastrophic error", DeviceVerbs.ibv_event_type_str(IbverbsConstants.IBV_EVENT_DEVICE_FATAL));
        assertEquals("port active", DeviceVerbs.ibv_event_type_str(IbverbsConstants.IBV_EVENT_PORT_ACTIVE));
        assertEquals("active", DeviceVerbs.ibv_port_state_str(IbverbsConstants.IBV_PORT_ACTIVE));
        assertEquals("down", DeviceVerbs.ibv_port_state_str(IbverbsConstants.IBV_PORT_DOWN));
    }

    @Test
    void strerrorNamesEnosys() {
        assertEquals("Function not implemented", Errno.strerror(Errno.ENOSYS));
    }
}

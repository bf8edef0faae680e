package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.Device;
import dev.verbs4j.Errno;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.ibv_device;

import java.util.List;
import java.util.Optional;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.junit.jupiter.api.Test;

/** Discovery: the provider loads and lists devices, or lists none and says why; it never throws. */
class IbverbsProviderTest {

    @Test
    void serviceLoaderFindsTheProviderByName() {
        Provider provider = Verbs.provider(IbverbsProvider.NAME);
        assertInstanceOf(IbverbsProvider.class, provider);
        assertEquals("ibverbs", provider.name());
    }

    @Test
    void devicesMatchWhatLibibverbsListsOrTheFailureIsTheReason() {
        IbverbsProvider provider = new IbverbsProvider();
        List<Device> devices = provider.devices();
        Optional<String> reason = provider.unavailableReason();
        try (IntPointer count = new IntPointer(1)) {
            PointerPointer<ibv_device> list = DeviceVerbs.ibv_get_device_list(count);
            if (list == null || list.isNull()) {
                int errno = dev.verbs4j.ibverbs.binding.Errno.lastErrno();
                assertTrue(devices.isEmpty());
                assertEquals(Optional.of(NativeDiscovery.listFailure(errno)), reason);
            } else {
                assertEquals(count.get(), devices.size());
                for (int i = 0; i < devices.size(); i++) {
                    assertEquals(DeviceVerbs.ibv_get_device_name(list.get(ibv_device.class, i)), devices.get(i).name());
                    assertEquals("ibverbs", devices.get(i).providerName());
                }
                assertEquals(devices.isEmpty(), reason.isPresent());
                DeviceVerbs.ibv_free_device_list(list);
            }
        }
    }

    @Test
    void kernelWithoutRdmaIsReportedAsEnosys() {
        String reason = NativeDiscovery.listFailure(Errno.ENOSYS.number());
        assertTrue(reason.startsWith("ibv_get_device_list failed with ENOSYS (Function not implemented)"), reason);
        assertTrue(reason.contains("no RDMA verbs"), reason);
        assertTrue(NativeDiscovery.listFailure(Errno.EACCES.number()).contains("EACCES"));
        assertTrue(NativeDiscovery.listFailure(200).contains("errno 200"));
    }

    @Test
    void aLibraryThatCannotLoadIsAReasonNotAnError() {
        for (Throwable failure : List.of(new UnsatisfiedLinkError("no jniverbs4j_ibverbs in java.library.path"),
                new ExceptionInInitializerError("static initializer failed"),
                new NoClassDefFoundError("org/bytedeco/javacpp/Pointer"))) {
            IbverbsProvider provider = new IbverbsProvider(() -> {
                throw (Error) failure;
            });
            assertEquals(List.of(), provider.devices());
            String reason = provider.unavailableReason().orElseThrow();
            assertTrue(reason.contains(failure.getClass().getSimpleName()) && reason.contains(failure.getMessage()), reason);
        }
    }

    @Test
    void anEmptyDeviceListSaysSo() {
        IbverbsProvider provider = new IbverbsProvider(() -> DeviceList.of(List.of()));
        assertEquals(Optional.of("ibv_get_device_list found no RDMA device"), provider.unavailableReason());
        IbverbsProvider one = new IbverbsProvider(() -> DeviceList.of(List.of(new IbverbsDevice("rxe0", 1))));
        assertFalse(one.unavailableReason().isPresent());
        assertEquals("rxe0", one.device("rxe0").name());
    }

    @Test
    void anUnknownDeviceNameIsEnodev() {
        IbverbsProvider provider = new IbverbsProvider(() -> DeviceList.of(List.of()));
        assertEquals(Errno.ENODEV, assertThrows(VerbsException.class, () -> provider.device("rxe9")).error());
    }
}

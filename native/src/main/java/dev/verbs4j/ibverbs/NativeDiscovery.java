package dev.verbs4j.ibverbs;

import dev.verbs4j.Device;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.FileDescriptors;
import dev.verbs4j.ibverbs.binding.IbverbsLibrary;
import dev.verbs4j.ibverbs.binding.ibv_context;
import dev.verbs4j.ibverbs.binding.ibv_device;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code ibv_get_device_list} and {@code ibv_open_device}. The list is freed after each
 * use, as ibv_get_device_list(3) allows once the wanted devices are open: an open context
 * holds its own reference, and a later open looks the device up by name again.
 */
final class NativeDiscovery {
    private NativeDiscovery() {
    }

    /** The devices libibverbs sees here, or why it sees none. */
    static DeviceList listDevices() {
        IbverbsLibrary.load();
        try (IntPointer count = new IntPointer(1)) {
            PointerPointer<ibv_device> list = DeviceVerbs.ibv_get_device_list(count);
            if (list == null || list.isNull()) {
                return DeviceList.unavailable(listFailure(dev.verbs4j.ibverbs.binding.Errno.lastErrno()));
            }
            try {
                List<Device> devices = new ArrayList<>();
                for (int i = 0; i < count.get(); i++) {
                    ibv_device device = list.get(ibv_device.class, i);
                    devices.add(IbverbsDevice.of(device));
                }
                return DeviceList.of(devices);
            } finally {
                DeviceVerbs.ibv_free_device_list(list);
            }
        }
    }

    /** Why {@code ibv_get_device_list} returned NULL with {@code errno}. */
    static String listFailure(int errno) {
        String text = "ibv_get_device_list failed with " + errnoName(errno);
        return errno == Errno.ENOSYS.number()
                ? text + ": this kernel offers no RDMA verbs (no uverbs device, e.g. no rxe link)"
                : text;
    }

    private static String errnoName(int errno) {
        Errno known = Errno.of(errno);
        String name = known == Errno.UNKNOWN ? "errno " + errno : known.name();
        return name + " (" + dev.verbs4j.ibverbs.binding.Errno.strerror(errno) + ")";
    }

    /**
     * Opens the device named like {@code device} ({@code ibv_open_device}) and makes its
     * async event descriptor non-blocking, for timed waits.
     */
    static IbverbsContext open(IbverbsDevice device) {
        try (IntPointer count = new IntPointer(1)) {
            PointerPointer<ibv_device> list = NativeErrors.require(DeviceVerbs.ibv_get_device_list(count),
                    "ibv_get_device_list");
            try {
                for (int i = 0; i < count.get(); i++) {
                    ibv_device candidate = list.get(ibv_device.class, i);
                    if (device.name().equals(DeviceVerbs.ibv_get_device_name(candidate))) {
                        return openContext(device, candidate);
                    }
                }
            } finally {
                DeviceVerbs.ibv_free_device_list(list);
            }
        }
        throw new VerbsException(Errno.ENODEV, "RDMA device " + device.name() + " is gone");
    }

    private static IbverbsContext openContext(IbverbsDevice device, ibv_device handle) {
        ibv_context context = NativeErrors.require(DeviceVerbs.ibv_open_device(handle),
                "ibv_open_device(" + device.name() + ")");
        int rc = FileDescriptors.setNonBlocking(context.async_fd());
        if (rc != 0) {
            DeviceVerbs.ibv_close_device(context);
            throw NativeErrors.failure(-rc, "fcntl(async_fd, O_NONBLOCK)");
        }
        return new IbverbsContext(device, context);
    }
}

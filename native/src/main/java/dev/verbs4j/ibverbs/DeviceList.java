package dev.verbs4j.ibverbs;

import dev.verbs4j.Device;

import java.util.List;
import java.util.Optional;

/**
 * What one device discovery found: the devices, or why there are none.
 *
 * @param devices the devices, in libibverbs' order
 * @param reason  why the list is empty, when it is
 */
record DeviceList(List<Device> devices, Optional<String> reason) {
    DeviceList {
        devices = List.copyOf(devices);
    }

    static DeviceList of(List<Device> devices) {
        return new DeviceList(devices, devices.isEmpty() ? Optional.of("ibv_get_device_list found no RDMA device")
                : Optional.empty());
    }

    static DeviceList unavailable(String reason) {
        return new DeviceList(List.of(), Optional.of(reason));
    }
}

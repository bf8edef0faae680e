package dev.verbs4j.ibverbs;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;

/** A kernel RDMA device as libibverbs lists it. */
final class IbverbsDevice implements Device {
    private final String name;
    private final long guid;

    IbverbsDevice(String name, long guid) {
        this.name = name;
        this.guid = guid;
    }

    @Override
    public String name() {
        return name;
    }

    /** The node GUID in host order, as {@code ibv_devices} prints it. */
    @Override
    public long guid() {
        return guid;
    }

    @Override
    public String providerName() {
        return IbverbsProvider.NAME;
    }

    @Override
    public DeviceContext open() {
        return NativeDiscovery.open(this);
    }

    @Override
    public String toString() {
        return name + " (guid " + String.format("%016x", guid) + ")";
    }
}

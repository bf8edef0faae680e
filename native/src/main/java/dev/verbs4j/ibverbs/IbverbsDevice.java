package dev.verbs4j.ibverbs;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Transport;

/** A kernel RDMA device as libibverbs lists it. */
final class IbverbsDevice implements Device {
    private final String name;
    private final long guid;
    private final Transport transport;

    IbverbsDevice(String name, long guid) {
        this(name, guid, Transport.IB);
    }

    IbverbsDevice(String name, long guid, Transport transport) {
        this.name = name;
        this.guid = guid;
        this.transport = transport;
    }

    /** The device libibverbs describes in {@code device}. */
    static IbverbsDevice of(dev.verbs4j.ibverbs.binding.ibv_device device) {
        return new IbverbsDevice(dev.verbs4j.ibverbs.binding.DeviceVerbs.ibv_get_device_name(device),
                NetworkOrder.toHost64(dev.verbs4j.ibverbs.binding.DeviceVerbs.ibv_get_device_guid(device)),
                Transport.of(device.transport_type()));
    }

    @Override
    public Transport transport() {
        return transport;
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

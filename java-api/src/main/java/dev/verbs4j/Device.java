package dev.verbs4j;

/** An RDMA device ({@code struct ibv_device}). Open it to use it. */
public interface Device {
    /**
     * The device name, e.g. {@code rxe0} or {@code soft0}.
     * It is {@code ibv_get_device_name}'s answer.
     *
     * @return the name
     */
    String name();

    /**
     * The node GUID ({@code ibv_get_device_guid}).
     *
     * @return the GUID in host order
     */
    long guid();

    /**
     * The transport the device speaks ({@code ibv_device.transport_type}).
     *
     * @return IB for InfiniBand and RoCE devices, IWARP for iWARP ones
     */
    Transport transport();

    /**
     * The name of the provider that drives this device.
     *
     * @return the name, e.g. {@code ibverbs}
     */
    String providerName();

    /**
     * Opens the device ({@code ibv_open_device}).
     *
     * @throws VerbsException with the errno of the failure
     * @return the new context; close it when done ({@code ibv_close_device})
     */
    DeviceContext open();
}

package dev.verbs4j;

/** An RDMA device ({@code struct ibv_device}). Open it to use it. */
public interface Device {
    /** The device name, e.g. {@code rxe0} or {@code soft0}. */
    String name();

    /** The node GUID ({@code ibv_get_device_guid}). */
    long guid();

    /** The name of the provider that drives this device. */
    String providerName();

    /**
     * Opens the device ({@code ibv_open_device}).
     *
     * @throws VerbsException with the errno of the failure
     */
    DeviceContext open();
}

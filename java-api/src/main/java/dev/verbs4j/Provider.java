package dev.verbs4j;

import java.util.List;
import java.util.Optional;

/**
 * A verbs provider: {@code soft} (the pure-Java Soft-RoCE engine) or {@code ibverbs}
 * (kernel RDMA devices through libibverbs). Providers are found with {@link Verbs}.
 * libibverbs has no such object: its counterpart is the device list,
 * {@code ibv_get_device_list}, over every provider library it loaded.
 */
public interface Provider {
    /**
     * The provider's name, e.g. {@code soft} or {@code ibverbs}.
     *
     * @return the name {@link Verbs#provider(String)} finds it by
     */
    String name();

    /**
     * The devices this provider drives here ({@code ibv_get_device_list}). A provider that
     * cannot run on this machine returns an empty list and says why in
     * {@link #unavailableReason()}; discovery never throws.
     *
     * @return the devices, possibly empty, unmodifiable
     */
    List<Device> devices();

    /**
     * Why {@link #devices()} is empty, when it is because the provider cannot run here.
     *
     * @return the reason (e.g. libibverbs' {@code ENOSYS} where the kernel has no RDMA), or empty
     */
    Optional<String> unavailableReason();

    /**
     * Whether memory this provider registers is safe across {@code fork()}
     * ({@code ibv_is_fork_initialized}).
     *
     * @return the status
     */
    ForkStatus forkStatus();

    /**
     * Protects registered memory across {@code fork()} where it needs it ({@code ibv_fork_init}):
     * then a child does not inherit registered pages. Does nothing where {@link #forkStatus()}
     * is {@link ForkStatus#UNNEEDED}.
     *
     * @throws VerbsException {@code EINVAL} when memory was registered before, as libibverbs
     *                        cannot protect it afterwards
     */
    void enableForkProtection();

    /**
     * Opens a channel for connection-manager ids and their events
     * ({@code rdma_create_event_channel}).
     *
     * @throws VerbsException {@code EOPNOTSUPP} when the provider has no connection manager,
     *                        {@code ENODEV} when it cannot run here
     * @return the new channel
     */
    dev.verbs4j.cm.CmEventChannel createCmEventChannel();

    /**
     * The device with the given name, as {@code ibv_get_device_name} reports it.
     *
     * @param deviceName e.g. {@code rxe0} or {@code soft0}
     * @return the device
     * @throws VerbsException {@code ENODEV} if there is none
     */
    default Device device(String deviceName) {
        for (Device d : devices()) {
            if (d.name().equals(deviceName)) {
                return d;
            }
        }
        throw new VerbsException(Errno.ENODEV, "provider " + name() + " has no device " + deviceName);
    }
}

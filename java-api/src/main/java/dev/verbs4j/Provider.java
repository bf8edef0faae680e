package dev.verbs4j;

import java.util.List;
import java.util.Optional;

/**
 * A verbs provider: {@code soft} (the pure-Java Soft-RoCE engine) or {@code ibverbs}
 * (kernel RDMA devices through libibverbs). Providers are found with {@link Verbs}.
 */
public interface Provider {
    /** The provider's name, e.g. {@code soft} or {@code ibverbs}. */
    String name();

    /**
     * The devices this provider drives here ({@code ibv_get_device_list}). A provider that
     * cannot run on this machine returns an empty list and says why in
     * {@link #unavailableReason()}; discovery never throws.
     */
    List<Device> devices();

    /** Why {@link #devices()} is empty, when it is because the provider cannot run here. */
    Optional<String> unavailableReason();

    /**
     * Whether memory this provider registers is safe across {@code fork()}
     * ({@code ibv_is_fork_initialized}).
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
     */
    dev.verbs4j.cm.CmEventChannel createCmEventChannel();

    /** The device with the given name. @throws VerbsException {@code ENODEV} if there is none */
    default Device device(String deviceName) {
        for (Device d : devices()) {
            if (d.name().equals(deviceName)) {
                return d;
            }
        }
        throw new VerbsException(Errno.ENODEV, "provider " + name() + " has no device " + deviceName);
    }
}

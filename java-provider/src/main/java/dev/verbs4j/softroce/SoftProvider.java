package dev.verbs4j.softroce;

import dev.verbs4j.Device;
import dev.verbs4j.ForkStatus;
import dev.verbs4j.spi.VerbsProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@code soft} provider: RoCEv2 devices implemented in Java over UDP, wire-compatible
 * with the kernel's rxe. Devices come from the {@value SoftDeviceConfig#DEVICES_PROPERTY}
 * property (default: {@code soft0} on 127.0.0.1 and {@code soft1} on 127.0.0.2) and from
 * {@link #addDevice}. A device binds its UDP socket when first opened. Its libibverbs
 * counterpart is the rxe provider library ({@code librxe-rdmav*.so}) with the kernel's
 * rdma_rxe module behind it.
 */
public final class SoftProvider implements VerbsProvider {
    /** The provider name. */
    public static final String NAME = "soft";

    private static final List<SoftDevice> ADDED = new CopyOnWriteArrayList<>();
    private static volatile List<SoftDevice> configured;

    /** The provider {@link java.util.ServiceLoader} makes; every instance shares the same devices. */
    public SoftProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        List<Device> all = new ArrayList<>(configuredDevices());
        all.addAll(ADDED);
        return List.copyOf(all);
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    /** The soft engine reaches registered memory from this process and pins nothing a child could inherit. */
    @Override
    public ForkStatus forkStatus() {
        return ForkStatus.UNNEEDED;
    }

    @Override
    public void enableForkProtection() {
    }

    /**
     * Adds a device (for example on a network namespace's address) to every soft provider instance.
     *
     * @param config the device's configuration
     * @return the device; its socket is bound when it is first opened
     */
    public static SoftDevice addDevice(SoftDeviceConfig config) {
        SoftDevice device = new SoftDevice(config);
        ADDED.add(device);
        return device;
    }

    private static List<SoftDevice> configuredDevices() {
        List<SoftDevice> list = configured;
        if (list == null) {
            synchronized (SoftProvider.class) {
                list = configured;
                if (list == null) {
                    List<SoftDevice> made = new ArrayList<>();
                    for (SoftDeviceConfig c : SoftDeviceConfig.fromSystemProperties()) {
                        made.add(new SoftDevice(c));
                    }
                    configured = list = List.copyOf(made);
                }
            }
        }
        return list;
    }

    @Override
    public dev.verbs4j.cm.CmEventChannel createCmEventChannel() {
        return new SoftCmEventChannel();
    }
}

package dev.verbs4j.ibverbs;

import dev.verbs4j.Device;
import dev.verbs4j.Errno;
import dev.verbs4j.ForkStatus;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.spi.VerbsProvider;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code ibverbs} provider: the kernel's RDMA devices (e.g. {@code rxe0}) through
 * libibverbs. Discovery never throws: where the JNI library or libibverbs cannot load, or
 * {@code ibv_get_device_list} fails (a kernel without the RDMA subsystem answers NULL with
 * {@code ENOSYS}), the provider lists no device and {@link #unavailableReason()} says why.
 * Each call asks libibverbs again, so devices created after start-up appear.
 */
public final class IbverbsProvider implements VerbsProvider {
    /** The provider name. */
    public static final String NAME = "ibverbs";

    private final Supplier<DeviceList> discovery;

    /**
     * The provider {@link java.util.ServiceLoader} makes. Nothing native is loaded until devices are
     * first listed.
     */
    public IbverbsProvider() {
        // A lambda, not a method reference: NativeDiscovery (and with it the binding and
        // JavaCPP) is resolved only when the lambda runs, inside discover()'s try.
        this(() -> NativeDiscovery.listDevices());
    }

    /** A provider whose device list comes from {@code discovery} (tests). */
    IbverbsProvider(Supplier<DeviceList> discovery) {
        this.discovery = discovery;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        return discover().devices();
    }

    @Override
    public Optional<String> unavailableReason() {
        return discover().reason();
    }

    /** @throws VerbsException {@code ENOSYS} when the binding or libibverbs cannot be loaded here */
    @Override
    public ForkStatus forkStatus() {
        try {
            return ForkStatus.of(DeviceVerbs.ibv_is_fork_initialized());
        } catch (LinkageError e) {
            throw unloadable(e);
        }
    }

    /** @throws VerbsException {@code ENOSYS} when the binding or libibverbs cannot be loaded here */
    @Override
    public void enableForkProtection() {
        int rc;
        try {
            rc = DeviceVerbs.ibv_fork_init();
        } catch (LinkageError e) {
            throw unloadable(e);
        }
        NativeErrors.check(rc, "ibv_fork_init");
    }

    private static VerbsException unloadable(LinkageError e) {
        return new VerbsException(Errno.ENOSYS, "the libibverbs binding cannot be loaded: " + e);
    }

    private DeviceList discover() {
        try {
            return discovery.get();
        } catch (LinkageError | RuntimeException e) {
            // UnsatisfiedLinkError, ExceptionInInitializerError and NoClassDefFoundError are
            // LinkageErrors: the JNI library, libibverbs.so.1 or JavaCPP could not be loaded.
            return DeviceList.unavailable("the libibverbs binding cannot be loaded: " + e);
        }
    }

    @Override
    public String toString() {
        return NAME;
    }

    /**
     * An event channel of librdmacm ({@code rdma_create_event_channel}).
     *
     * @throws VerbsException {@code ENODEV} where {@code /dev/infiniband/rdma_cm} is absent or
     *         librdmacm cannot be loaded; else the errno librdmacm gives
     */
    @Override
    public CmEventChannel createCmEventChannel() {
        return IbverbsCmEventChannel.open(IbverbsCmEventChannel.CM_DEVICE);
    }
}

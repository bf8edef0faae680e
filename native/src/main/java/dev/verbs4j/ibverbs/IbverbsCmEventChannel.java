package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.ibverbs.binding.CmVerbs;
import dev.verbs4j.ibverbs.binding.RdmacmLibrary;
import dev.verbs4j.ibverbs.binding.cm_event_copy;
import dev.verbs4j.ibverbs.binding.rdma_cm_id;
import dev.verbs4j.ibverbs.binding.rdma_event_channel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An event channel of librdmacm ({@code struct rdma_event_channel}) with a non-blocking
 * descriptor, so {@link #nextEvent} waits with {@code poll(2)}. Each event is copied and
 * acknowledged inside one native call, so no event is ever left unacknowledged and
 * {@code rdma_destroy_id} never waits. Ids are found from the events by their native
 * address.
 *
 * <p>{@link #eventLock} is held while an event is taken and handled and while an id or the
 * channel is destroyed, so an event is never matched to an id destroyed meanwhile, nor to
 * a new id at its address. Lock order: the event lock, then an id's monitor.
 */
final class IbverbsCmEventChannel implements CmEventChannel {
    /** The character device of the kernel's connection manager ({@code rdma_ucm}). */
    static final Path CM_DEVICE = Path.of("/dev/infiniband/rdma_cm");

    final Object eventLock = new Object();
    private final rdma_event_channel handle;
    private final int fd;
    private final Map<Long, IbverbsCmId> ids = new ConcurrentHashMap<>();
    private final cm_event_copy copy = new cm_event_copy(); // guarded by eventLock
    private volatile boolean closed;

    private IbverbsCmEventChannel(rdma_event_channel handle) {
        this.handle = handle;
        this.fd = handle.fd();
    }

    /**
     * {@code rdma_create_event_channel}.
     *
     * @param cmDevice the kernel's connection-manager device, {@link #CM_DEVICE}
     * @throws VerbsException {@code ENODEV} when the device is absent or librdmacm cannot be
     *         loaded; else the errno librdmacm gives
     */
    static IbverbsCmEventChannel open(Path cmDevice) {
        if (!Files.exists(cmDevice)) {
            throw new VerbsException(Errno.ENODEV, "no " + cmDevice
                    + ": this host has no RDMA connection manager (no RDMA device, or the rdma_ucm module is not loaded)");
        }
        try {
            RdmacmLibrary.load();
        } catch (LinkageError e) {
            throw new VerbsException(Errno.ENODEV.number(), "librdmacm cannot be loaded (install librdmacm1): " + e, e);
        }
        rdma_event_channel channel = CmVerbs.createEventChannel();
        if (channel == null || channel.isNull()) {
            int errno = CmVerbs.lastErrno();
            throw new VerbsException(errno != 0 ? errno : NativeErrors.EIO,
                    "rdma_create_event_channel failed" + (errno == Errno.ENODEV.number() ? ": no RDMA device" : ""));
        }
        return new IbverbsCmEventChannel(channel);
    }

    @Override
    public CmId createId(PortSpace portSpace) {
        synchronized (eventLock) {
            ensureOpen();
            rdma_cm_id id = CmVerbs.createId(handle, portSpace.value());
            if (id == null || id.isNull()) {
                int errno = CmVerbs.lastErrno();
                throw NativeErrors.failure(errno != 0 ? errno : NativeErrors.EIO, "rdma_create_id(" + portSpace + ")");
            }
            return register(new IbverbsCmId(this, id, portSpace));
        }
    }

    private IbverbsCmId register(IbverbsCmId id) {
        ids.put(id.address, id);
        return id;
    }

    /** Called by a closing id, under {@link #eventLock}. */
    void forget(IbverbsCmId id) {
        ids.remove(id.address, id);
    }

    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) {
        DescriptorWait wait = DescriptorWait.of(timeout);
        while (true) {
            synchronized (eventLock) {
                ensureOpen();
                int rc = CmVerbs.nextEvent(handle, copy);
                if (rc == 0) {
                    CmEvent event = handle(copy);
                    if (event != null) {
                        return Optional.of(event);
                    }
                    continue;
                }
                if (rc != dev.verbs4j.ibverbs.binding.Errno.EAGAIN) {
                    throw NativeErrors.failure(rc, "rdma_get_cm_event");
                }
            }
            if (!wait.awaitReadable(fd)) {
                return Optional.empty();
            }
        }
    }

    /** The event for the application, or null for one it does not see. */
    private CmEvent handle(cm_event_copy event) {
        CmEventType type = eventType(event.type());
        if (type == null) {
            return null; // a type the API does not name (address-info, user and internal events)
        }
        if (type == CmEventType.CONNECT_REQUEST) {
            IbverbsCmId listener = ids.get(event.listen_id().address());
            rdma_cm_id incoming = event.id();
            if (listener == null) {
                CmVerbs.destroyId(incoming); // its listener was destroyed: nobody can take it
                return null;
            }
            IbverbsCmId id = register(new IbverbsCmId(this, incoming, listener.portSpace()));
            return id.onEvent(type, event, listener);
        }
        IbverbsCmId id = ids.get(event.id().address());
        return id == null ? null : id.onEvent(type, event, null);
    }

    private static CmEventType eventType(int value) {
        return value >= 0 && value < CmEventType.values().length ? CmEventType.of(value) : null;
    }

    /** @throws VerbsException {@code EINVAL} once the channel is closed */
    void ensureOpen() {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "the CM event channel is closed");
        }
    }

    /** @throws VerbsException {@code EBUSY} while ids of the channel are open */
    @Override
    public void close() {
        synchronized (eventLock) {
            if (closed) {
                return;
            }
            if (!ids.isEmpty()) {
                throw new VerbsException(Errno.EBUSY, "the CM event channel has " + ids.size() + " open id(s)");
            }
            closed = true;
            CmVerbs.rdma_destroy_event_channel(handle);
            copy.close();
        }
    }

    @Override
    public String toString() {
        return "ibverbs CM event channel (fd " + fd + (closed ? ", closed" : "") + ")";
    }
}

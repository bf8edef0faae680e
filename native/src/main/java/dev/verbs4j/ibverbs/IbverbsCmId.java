package dev.verbs4j.ibverbs;

import dev.verbs4j.Device;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.ibverbs.binding.CmVerbs;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.cm_event_copy;
import dev.verbs4j.ibverbs.binding.ibv_context;
import dev.verbs4j.ibverbs.binding.ibv_qp_attr;
import dev.verbs4j.ibverbs.binding.rdma_cm_id;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A librdmacm id ({@code struct rdma_cm_id}) that connects the application's own queue
 * pair. librdmacm's {@code rdma_create_qp} would need a protection domain of librdmacm's
 * context, so the id works the way librdmacm does for queue pairs it did not create:
 * librdmacm sees an id without a queue pair, the queue pair number travels in the
 * connection parameters, and this class moves the queue pair through INIT, RTR, RTS and
 * ERR with {@code rdma_init_qp_attr} and {@code ibv_modify_qp} where librdmacm would move
 * its own, completing the active side with {@code rdma_establish}.
 *
 * <p>Calls run under the id's monitor; a closed id throws {@code EINVAL} and its native
 * pointer is never used again.
 */
final class IbverbsCmId implements CmId {
    private static final int BYTE = 0xff;
    private static final int ADDRESS_BYTES = 16;

    final long address;
    private final IbverbsCmEventChannel channel;
    private final rdma_cm_id handle;
    private final PortSpace portSpace;
    private final QpType qpType;
    private final ibv_qp_attr attr = new ibv_qp_attr(); // guarded by this
    private boolean closed; // guarded by this
    private IbverbsQp qp; // guarded by this
    private IbverbsDevice device; // guarded by this
    private volatile Object attachment;
    /** The peer's request, as the kernel reports it from this side: what accept clamps to. */
    private int requestedResponderResources = CmVerbs.RDMA_MAX_DEPTH; // guarded by this
    private int requestedInitiatorDepth = CmVerbs.RDMA_MAX_DEPTH; // guarded by this
    /** An active id without a queue pair that got CONNECT_RESPONSE: accept() establishes. */
    private boolean responseReceived; // guarded by this
    /** Completing the connection failed here: the peer's later reject or disconnect is not reported. */
    private boolean connectError; // guarded by this

    IbverbsCmId(IbverbsCmEventChannel channel, rdma_cm_id handle, PortSpace portSpace) {
        this.channel = channel;
        this.handle = handle;
        this.address = handle.address();
        this.portSpace = portSpace;
        this.qpType = QpType.of(handle.qp_type());
    }

    @Override
    public CmEventChannel channel() {
        return channel;
    }

    @Override
    public PortSpace portSpace() {
        return portSpace;
    }

    @Override
    public QpType qpType() {
        return qpType;
    }

    @Override
    public synchronized void bindAddress(InetSocketAddress local) {
        byte[] ip = CmAddresses.bytes(local);
        NativeErrors.check(CmVerbs.bindAddr(live(), ip, ip.length, local.getPort(), CmAddresses.scope(local)),
                "rdma_bind_addr(" + local + ")");
    }

    @Override
    public synchronized void resolveAddress(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        rdma_cm_id id = live();
        byte[] src = source == null ? new byte[0] : CmAddresses.bytes(source);
        byte[] dst = CmAddresses.bytes(destination);
        NativeErrors.check(CmVerbs.resolveAddr(id, src, src.length, source == null ? 0 : source.getPort(),
                source == null ? 0 : CmAddresses.scope(source), dst, dst.length, destination.getPort(),
                CmAddresses.scope(destination), CmAddresses.millis(timeout)), "rdma_resolve_addr(" + destination + ")");
    }

    @Override
    public synchronized void resolveRoute(Duration timeout) {
        NativeErrors.check(CmVerbs.resolveRoute(withDevice("rdma_resolve_route"), CmAddresses.millis(timeout)),
                "rdma_resolve_route");
    }

    @Override
    public synchronized void listen(int backlog) {
        NativeErrors.check(CmVerbs.listen(live(), backlog), "rdma_listen");
    }

    @Override
    public synchronized QueuePair createQp(ProtectionDomain pd, QpInitAttributes attributes) {
        rdma_cm_id id = live();
        if (!(pd instanceof IbverbsPd ibverbsPd)) {
            throw new VerbsException(Errno.EINVAL, "the protection domain is not of the ibverbs provider");
        }
        checkCanTakeQp(id, ibverbsPd.context.device.name(), attributes.type());
        IbverbsQp created = (IbverbsQp) ibverbsPd.createQp(attributes);
        try {
            take(id, created);
        } catch (RuntimeException e) {
            try {
                created.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return created;
    }

    @Override
    public synchronized void attachQp(QueuePair queuePair) {
        rdma_cm_id id = live();
        if (!(queuePair instanceof IbverbsQp ibverbsQp)) {
            throw new VerbsException(Errno.EINVAL, "the queue pair is not of the ibverbs provider");
        }
        checkCanTakeQp(id, ibverbsQp.pd.context.device.name(), ibverbsQp.type());
        QpState state = ibverbsQp.state();
        if (state != QpState.RESET && state != QpState.INIT) {
            throw new VerbsException(Errno.EINVAL, "the queue pair is in " + state + ", not RESET or INIT");
        }
        take(id, ibverbsQp);
    }

    private void checkCanTakeQp(rdma_cm_id id, String qpDevice, QpType type) {
        if (openQp() != null) {
            throw new VerbsException(Errno.EINVAL, "the id already has a queue pair");
        }
        String idDevice = deviceName(id);
        if (idDevice == null) {
            throw new VerbsException(Errno.EINVAL, "the id has no device yet: bind it or resolve an address first");
        }
        if (!idDevice.equals(qpDevice)) {
            throw new VerbsException(Errno.EINVAL, "the queue pair is on " + qpDevice + ", the id on " + idDevice);
        }
        if (type != qpType) {
            throw new VerbsException(Errno.EINVAL, "the id connects " + qpType + " queue pairs, not " + type);
        }
    }

    /** Moves the queue pair to INIT (UD: to RTS), as {@code rdma_create_qp} does, and keeps it. */
    private void take(rdma_cm_id id, IbverbsQp queuePair) {
        if (qpType == QpType.UD) {
            CmQpTransitions.udToRts(id, queuePair, attr);
        } else {
            CmQpTransitions.toInit(id, queuePair, attr);
        }
        qp = queuePair;
    }

    @Override
    public synchronized QueuePair qp() {
        return openQp();
    }

    /**
     * The id's queue pair, or null once the application closed it: librdmacm forgets a
     * queue pair destroyed with {@code rdma_destroy_qp} the same way.
     */
    private IbverbsQp openQp() {
        if (qp != null && qp.isClosed()) {
            qp = null;
        }
        return qp;
    }

    /** The id's queue pair if it is still open, retained: release it after use. */
    private IbverbsQp retainedQp() {
        IbverbsQp own = openQp();
        return own != null && own.tryRetain() ? own : null;
    }

    @Override
    public synchronized void connect(ConnectionParameters parameters) {
        rdma_cm_id id = withDevice("rdma_connect");
        byte[] data = parameters.privateData();
        if (portSpace == PortSpace.TCP && data.length > ConnectionParameters.MAX_CONNECT_PRIVATE_DATA) {
            throw new VerbsException(Errno.EINVAL, "a connect request carries at most "
                    + ConnectionParameters.MAX_CONNECT_PRIVATE_DATA + " bytes of private data, not " + data.length);
        }
        checkLength(data, "connect");
        IbverbsQp own = retainedQp();
        try {
            int qpNumber = own != null ? own.qpn() : parameters.qpNumber();
            boolean srq = own != null ? own.srq() != null : parameters.srq();
            NativeErrors.check(CmVerbs.connect(id, data, data.length, parameters.responderResources(),
                    parameters.initiatorDepth(), parameters.flowControl() ? 1 : 0, parameters.retryCount(),
                    parameters.rnrRetryCount(), srq ? 1 : 0, qpNumber), "rdma_connect");
        } finally {
            if (own != null) {
                own.release();
            }
        }
    }

    @Override
    public synchronized void accept(ConnectionParameters parameters) {
        rdma_cm_id id = withDevice("rdma_accept");
        if (responseReceived) {
            establish(id);
            return;
        }
        byte[] data = parameters.privateData();
        checkLength(data, "accept");
        boolean tcp = portSpace == PortSpace.TCP;
        AcceptDepths depths = AcceptDepths.of(parameters, requestedResponderResources, requestedInitiatorDepth,
                tcp ? DeviceLimits.of(id.verbs()) : null, tcp);
        int responderResources = depths.responderResources();
        int initiatorDepth = depths.initiatorDepth();
        IbverbsQp own = retainedQp();
        try {
            if (own != null && qpType != QpType.UD) {
                CmQpTransitions.toRtr(id, own, attr, responderResources);
                CmQpTransitions.toRts(id, own, attr, initiatorDepth);
            }
            int qpNumber = own != null ? own.qpn() : parameters.qpNumber();
            boolean srq = own != null ? own.srq() != null : parameters.srq();
            int rc = CmVerbs.accept(id, data, data.length, responderResources, initiatorDepth,
                    parameters.flowControl() ? 1 : 0, parameters.retryCount(), parameters.rnrRetryCount(), srq ? 1 : 0,
                    qpNumber);
            if (rc != 0 && own != null) {
                CmQpTransitions.toError(own, attr);
            }
            NativeErrors.check(rc, "rdma_accept");
        } finally {
            if (own != null) {
                own.release();
            }
        }
    }

    /** The active side's RTU after a CONNECT_RESPONSE the application handled ({@code rdma_establish}). */
    private void establish(rdma_cm_id id) {
        IbverbsQp own = retainedQp();
        try {
            if (own != null) {
                CmQpTransitions.toRtr(id, own, attr, CmVerbs.RDMA_MAX_DEPTH);
                CmQpTransitions.toRts(id, own, attr, CmVerbs.RDMA_MAX_DEPTH);
            }
            NativeErrors.check(CmVerbs.establish(id), "rdma_establish");
            responseReceived = false;
        } catch (RuntimeException e) {
            if (own != null) {
                CmQpTransitions.toError(own, attr);
            }
            throw e;
        } finally {
            if (own != null) {
                own.release();
            }
        }
    }

    @Override
    public synchronized void reject(byte[] privateData) {
        rdma_cm_id id = live();
        byte[] data = privateData == null ? new byte[0] : privateData;
        checkLength(data, "reject");
        NativeErrors.check(CmVerbs.reject(id, data, data.length), "rdma_reject");
    }

    @Override
    public synchronized void disconnect() {
        rdma_cm_id id = withDevice("rdma_disconnect");
        if (openQp() != null) {
            CmQpTransitions.toError(qp, attr);
        }
        NativeErrors.check(CmVerbs.disconnect(id), "rdma_disconnect");
    }

    /**
     * What the application sees of an event on this id, under the channel's event lock:
     * the queue pair moves as librdmacm moves its own, and a CONNECT_RESPONSE for an id
     * with a queue pair completes the connection and reads as ESTABLISHED. Null when the
     * event is not reported.
     */
    synchronized CmEvent onEvent(CmEventType type, cm_event_copy event, IbverbsCmId listener) {
        if (closed) {
            return null;
        }
        ConnectionParameters parameters = CmEventCopies.parameters(event);
        int status = event.status();
        switch (type) {
            case CONNECT_REQUEST -> {
                requestedResponderResources = parameters.responderResources();
                requestedInitiatorDepth = parameters.initiatorDepth();
            }
            case CONNECT_RESPONSE -> {
                if (openQp() == null) {
                    responseReceived = true;
                } else {
                    int error = completeConnection();
                    if (error != 0) {
                        connectError = true;
                        return new CmEvent(CmEventType.CONNECT_ERROR, this, null, -error, parameters);
                    }
                    type = CmEventType.ESTABLISHED;
                }
            }
            case REJECTED, DISCONNECTED -> {
                if (connectError) {
                    return null;
                }
                if (openQp() != null) {
                    CmQpTransitions.toError(qp, attr);
                }
            }
            default -> {
            }
        }
        return new CmEvent(type, this, listener, status, parameters);
    }

    /** RTR, RTS and {@code rdma_establish} after the peer's reply: 0, or the errno (the queue pair then in ERR). */
    private int completeConnection() {
        try {
            establish(handle);
            return 0;
        } catch (VerbsException e) {
            return e.errno();
        } catch (IllegalStateException closedQp) {
            return Errno.EINVAL.number();
        }
    }

    @Override
    public synchronized Device device() {
        rdma_cm_id id = live();
        if (device == null) {
            ibv_context verbs = id.verbs();
            if (verbs == null || verbs.isNull()) {
                return null;
            }
            device = IbverbsDevice.of(verbs.device());
        }
        return device;
    }

    @Override
    public synchronized int port() {
        return live().port_num();
    }

    @Override
    public synchronized InetSocketAddress localAddress() {
        return socketAddress(0);
    }

    @Override
    public synchronized InetSocketAddress peerAddress() {
        return socketAddress(1);
    }

    /**
     * The kernel gives a bound id a peer address of its family, all zeros with port 0;
     * that reads as no peer.
     */
    private InetSocketAddress socketAddress(int peer) {
        rdma_cm_id id = live();
        byte[] raw = new byte[ADDRESS_BYTES];
        int length = CmVerbs.address(id, peer, raw);
        InetSocketAddress address = CmAddresses.socketAddress(raw, length, CmVerbs.port(id, peer));
        boolean none = address != null && peer != 0 && address.getPort() == 0 && address.getAddress().isAnyLocalAddress();
        return none ? null : address;
    }

    @Override
    public synchronized void ackTimeout(int value) {
        if (value < 0 || value > 31) {
            throw new VerbsException(Errno.EINVAL, "ACK timeout exponent " + value + " is outside 0..31");
        }
        NativeErrors.check(CmVerbs.setOptionByte(live(), CmVerbs.RDMA_OPTION_ID_ACK_TIMEOUT, value),
                "rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT)");
    }

    @Override
    public synchronized void typeOfService(int tos) {
        if (tos < 0 || tos > BYTE) {
            throw new VerbsException(Errno.EINVAL, "type of service " + tos + " is outside 0..255");
        }
        NativeErrors.check(CmVerbs.setOptionByte(live(), CmVerbs.RDMA_OPTION_ID_TOS, tos),
                "rdma_set_option(RDMA_OPTION_ID_TOS)");
    }

    @Override
    public synchronized void reuseAddress(boolean reuse) {
        NativeErrors.check(CmVerbs.setOptionInt(live(), CmVerbs.RDMA_OPTION_ID_REUSEADDR, reuse ? 1 : 0),
                "rdma_set_option(RDMA_OPTION_ID_REUSEADDR)");
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public void attach(Object value) {
        this.attachment = value;
    }

    /** {@code rdma_destroy_id}; the kernel disconnects a connected id first. The queue pair stays open. */
    @Override
    public void close() {
        synchronized (channel.eventLock) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                NativeErrors.check(CmVerbs.destroyId(handle), "rdma_destroy_id");
                closed = true;
                qp = null;
                attr.close();
                channel.forget(this);
            }
        }
    }

    private rdma_cm_id live() {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "the CM id is closed");
        }
        return handle;
    }

    /**
     * The open id, which must have a device: librdmacm's rdma_resolve_route, rdma_connect,
     * rdma_accept and rdma_disconnect read the id's device without checking it, so on an id that never
     * resolved an address they would crash the process; the kernel answers EINVAL there.
     */
    private rdma_cm_id withDevice(String call) {
        rdma_cm_id id = live();
        ibv_context verbs = id.verbs();
        if (verbs == null || verbs.isNull()) {
            throw new VerbsException(Errno.EINVAL, call + " needs an id with a device: resolve its address and route first");
        }
        return id;
    }

    private static String deviceName(rdma_cm_id id) {
        ibv_context verbs = id.verbs();
        return verbs == null || verbs.isNull() ? null : DeviceVerbs.ibv_get_device_name(verbs.device());
    }

    private static void checkLength(byte[] data, String call) {
        if (data.length > BYTE) {
            throw new VerbsException(Errno.EINVAL, call + " private data of " + data.length + " bytes exceeds 255");
        }
    }

    @Override
    public String toString() {
        return "ibverbs CM id (" + portSpace + (closed ? ", closed" : "") + ")";
    }
}

package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.Mtu;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.cm.RejectReason;
import dev.verbs4j.softroce.cm.CmAgent;
import dev.verbs4j.softroce.cm.CmConnection;
import dev.verbs4j.softroce.cm.CmEndpoint;
import dev.verbs4j.softroce.cm.CmListener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A soft connection-manager id. It binds to a soft device's address, keeps that device's
 * engine running (a context of its own) and talks to the device's {@link CmAgent}; the
 * agent calls it back on the engine's thread, where it moves the queue pair and posts the
 * events. Calls take the engine's lock, so the agent and the application never race.
 */
final class SoftCmId implements CmId, CmEndpoint {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int DEFAULT_ACK_TIMEOUT = 14;

    private enum Stage { IDLE, BOUND, ADDRESS_RESOLVED, ROUTE_RESOLVED, LISTENING, CONNECTING, RESPONDED, REQUESTED,
        ACCEPTING, CONNECTED, DISCONNECTED, CLOSED }

    private final SoftCmEventChannel channel;
    private final PortSpace portSpace;
    private final CmId listenId;
    private volatile Stage stage = Stage.IDLE;
    private volatile SoftDevice device;
    private InetAddress boundAddress;
    private int boundPort;
    private boolean bound;
    private volatile InetSocketAddress local;
    private volatile InetSocketAddress peer;
    private final List<DeviceContext> contexts = new CopyOnWriteArrayList<>();
    private SoftContext context;
    private CmAgent agent;
    private CmConnection connection;
    private volatile QueuePair qp;
    private int backlog;
    private int waiting;
    private int ackTimeout = DEFAULT_ACK_TIMEOUT;
    private int typeOfService;
    private volatile Object attachment;

    SoftCmId(SoftCmEventChannel channel, PortSpace portSpace) {
        this(channel, portSpace, null);
    }

    private SoftCmId(SoftCmEventChannel channel, PortSpace portSpace, CmId listenId) {
        this.channel = channel;
        this.portSpace = portSpace;
        this.listenId = listenId;
    }

    // ---- addresses ---------------------------------------------------------------------------

    @Override
    public synchronized void bindAddress(InetSocketAddress address) {
        requireStage(Stage.IDLE, "bind");
        InetAddress ip = address.getAddress();
        SoftDevice d = null;
        if (!ip.isAnyLocalAddress()) {
            d = deviceWithAddress(ip);
            if (d == null) {
                throw new VerbsException(Errno.EADDRNOTAVAIL, "no soft device has address " + ip.getHostAddress());
            }
        }
        boundAddress = ip;
        boundPort = SoftCmPorts.bind(this, ip, address.getPort());
        bound = true;
        local = new InetSocketAddress(ip, boundPort);
        if (d != null) {
            useDevice(d);
        }
        stage = Stage.BOUND;
    }

    @Override
    public synchronized void resolveAddress(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        if (stage != Stage.IDLE && stage != Stage.BOUND) {
            throw new VerbsException(Errno.EINVAL, "resolve the address of a new or bound id, not a " + stage + " one");
        }
        if (destination.isUnresolved() || destination.getAddress().isAnyLocalAddress()) {
            throw new VerbsException(Errno.EINVAL, "destination " + destination + " is not an address");
        }
        peer = destination;
        if (source != null && stage == Stage.IDLE) {
            bindAddress(source);
        }
        SoftDevice d = device;
        InetAddress from = d != null ? d.config().address() : SoftCmRoutes.sourceFor(destination.getAddress());
        if (d == null) {
            d = from == null ? null : deviceWithAddress(from);
            if (d == null) {
                d = SoftCmRoutes.deviceFor(destination.getAddress());
            }
        }
        if (d == null) {
            channel.post(event(CmEventType.ADDR_ERROR, -Errno.ENODEV.number()));
            return;
        }
        if (!bound) {
            boundAddress = d.config().address();
            boundPort = SoftCmPorts.bind(this, boundAddress, 0);
            bound = true;
        }
        local = new InetSocketAddress(d.config().address(), boundPort);
        useDevice(d);
        stage = Stage.ADDRESS_RESOLVED;
        channel.post(event(CmEventType.ADDR_RESOLVED, 0));
    }

    @Override
    public synchronized void resolveRoute(Duration timeout) {
        requireStage(Stage.ADDRESS_RESOLVED, "resolve the route of");
        stage = Stage.ROUTE_RESOLVED;
        channel.post(event(CmEventType.ROUTE_RESOLVED, 0));
    }

    @Override
    public synchronized void listen(int backlog) {
        if (stage == Stage.IDLE) {
            bindAddress(new InetSocketAddress(0));
        }
        requireStage(Stage.BOUND, "listen on");
        this.backlog = backlog > 0 ? backlog : 1024;
        if (device == null) {
            for (Device each : new SoftProvider().devices()) {
                SoftDevice soft = (SoftDevice) each;
                DeviceContext ctx = soft.open();
                contexts.add(ctx);
                agentOf(soft, ((SoftContext) ctx).engine);
            }
        }
        stage = Stage.LISTENING;
    }

    boolean isListening() {
        return stage == Stage.LISTENING;
    }

    /** The listener the agent of {@code on} hands requests to: a new id per request, in the listening device. */
    CmListener listenerOn(SoftDevice on) {
        return (connection, offer, from, to) -> {
            synchronized (this) {
                if (stage != Stage.LISTENING || waiting >= backlog) {
                    return null;
                }
                waiting++;
            }
            SoftCmId id = new SoftCmId(channel, portSpace, this);
            channel.ids.add(id);
            id.local = to;
            id.peer = from;
            id.borrowDevice(on, agentContext(on));
            id.connection = connection;
            id.stage = Stage.REQUESTED;
            channel.post(new CmEvent(CmEventType.CONNECT_REQUEST, id, this, 0, offer));
            return id;
        };
    }

    private synchronized void requestSettled() {
        waiting = Math.max(0, waiting - 1);
    }

    // ---- queue pairs ---------------------------------------------------------------------------

    @Override
    public QueuePair createQp(ProtectionDomain pd, QpInitAttributes attributes) {
        requireDevice(pd.context().device());
        if (qp != null) {
            throw new VerbsException(Errno.EINVAL, "the id has a queue pair already");
        }
        QueuePair created = pd.createQp(attributes);
        try {
            attachQp(created);
        } catch (RuntimeException e) {
            created.close();
            throw e;
        }
        return created;
    }

    @Override
    public void attachQp(QueuePair queuePair) {
        ownContext();
        requireDevice(queuePair.protectionDomain().context().device());
        if (qp != null) {
            throw new VerbsException(Errno.EINVAL, "the id has a queue pair already");
        }
        if (queuePair.type() != QpType.RC && queuePair.type() != QpType.UC) {
            throw new VerbsException(Errno.EINVAL, "a " + portSpace + " id connects RC or UC queue pairs, not " + queuePair.type());
        }
        QpState state = queuePair.state();
        if (state == QpState.RESET) {
            queuePair.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                    .access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC)));
        } else if (state != QpState.INIT) {
            throw new VerbsException(Errno.EINVAL, "a queue pair joins an id in RESET or INIT, not " + state);
        }
        qp = queuePair;
    }

    @Override
    public QueuePair qp() {
        return qp;
    }

    private void requireDevice(Device of) {
        SoftDevice d = device;
        if (d == null) {
            throw new VerbsException(Errno.EINVAL, "the id has no device yet: bind it or resolve an address first");
        }
        if (of != d) {
            throw new VerbsException(Errno.EINVAL, "the queue pair's device " + of.name() + " is not the id's, " + d.name());
        }
    }

    // ---- connecting ----------------------------------------------------------------------------

    @Override
    public void connect(ConnectionParameters parameters) {
        if (parameters.privateDataLength() > ConnectionParameters.MAX_CONNECT_PRIVATE_DATA) {
            throw new VerbsException(Errno.EINVAL, "a connect request carries at most "
                    + ConnectionParameters.MAX_CONNECT_PRIVATE_DATA + " bytes of private data, not " + parameters.privateDataLength());
        }
        ReentrantLock lock = engineLock();
        lock.lock();
        try {
            requireStage(Stage.ROUTE_RESOLVED, "connect");
            QueuePair q = qp;
            if (q == null && parameters.qpNumber() == 0) {
                throw new VerbsException(Errno.EINVAL, "connect needs a queue pair on the id, or a queue pair number");
            }
            ConnectionParameters offer = clamp(new ConnectionParameters().set(parameters));
            int psn = RANDOM.nextInt(1 << 24);
            connection = agent.connect(this, portSpace.serviceId(peer.getPort()), local, peer,
                    q == null ? QpType.RC : q.type(), q == null ? parameters.qpNumber() : q.qpn(), psn,
                    SoftCmRoutes.pathMtu(device), offer, System.nanoTime());
            stage = Stage.CONNECTING;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onReply(CmConnection c, ConnectionParameters offer) {
        if (qp == null) {
            stage = Stage.RESPONDED;
            channel.post(new CmEvent(CmEventType.CONNECT_RESPONSE, this, null, 0, offer));
            return;
        }
        try {
            bringUp(c, c.peerInitiatorDepth(), c.peerResponderResources(), connectionRetryCount(c), c.peerRnrRetryCount());
        } catch (VerbsException e) {
            agent.reject(c, RejectReason.CONSUMER_DEFINED.value(), null);
            toError();
            stage = Stage.DISCONNECTED;
            channel.post(event(CmEventType.CONNECT_ERROR, -e.errno()));
            return;
        }
        agent.ready(c);
        stage = Stage.CONNECTED;
        channel.post(new CmEvent(CmEventType.ESTABLISHED, this, null, 0, offer));
    }

    private int requestedRetryCount = 7;

    private int connectionRetryCount(CmConnection c) {
        return c.isActive() ? requestedRetryCount : c.peerRetryCount();
    }

    @Override
    public void accept(ConnectionParameters parameters) {
        ownContext();
        ReentrantLock lock = engineLock();
        lock.lock();
        try {
            if (stage == Stage.RESPONDED) {
                agent.ready(connection); // rdma_establish: the application brought its queue pair up
                stage = Stage.CONNECTED;
                return;
            }
            requireStage(Stage.REQUESTED, "accept");
            if (parameters.privateDataLength() > ConnectionParameters.MAX_ACCEPT_PRIVATE_DATA) {
                throw new VerbsException(Errno.EINVAL, "an accept carries at most "
                        + ConnectionParameters.MAX_ACCEPT_PRIVATE_DATA + " bytes of private data");
            }
            QueuePair q = qp;
            if (q == null && parameters.qpNumber() == 0) {
                throw new VerbsException(Errno.EINVAL, "accept needs a queue pair on the id, or a queue pair number");
            }
            CmConnection c = connection;
            ConnectionParameters offer = clamp(new ConnectionParameters().set(parameters));
            offer.responderResources(Math.min(offer.responderResources(), c.peerInitiatorDepth()))
                    .initiatorDepth(Math.min(offer.initiatorDepth(), c.peerResponderResources()));
            int psn = RANDOM.nextInt(1 << 24);
            if (q != null) {
                bringUpPassive(c, offer, psn);
            }
            agent.accept(c, q == null ? parameters.qpNumber() : q.qpn(), psn, offer, System.nanoTime());
            stage = Stage.ACCEPTING;
            settleRequest();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The PSN each side puts in its REQ or REP is the first it expects to receive, which the
     * peer sends first (the convention of the kernel's ib_cm and RDMA CM, which set a queue
     * pair's receive PSN from the id's own number).
     */
    private void bringUpPassive(CmConnection c, ConnectionParameters offer, int psn) {
        qp.modify(rtr(c, psn, offer.responderResources()));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(c.remotePsn()).timeout(ackTimeout)
                .retryCount(c.peerRetryCount()).rnrRetry(c.peerRnrRetryCount())
                .maxRdAtomic(Math.max(1, offer.initiatorDepth())));
    }

    private void bringUp(CmConnection c, int responderResources, int initiatorDepth, int retryCount, int rnrRetry) {
        qp.modify(rtr(c, c.localPsn(), responderResources));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(c.remotePsn()).timeout(ackTimeout)
                .retryCount(retryCount).rnrRetry(rnrRetry).maxRdAtomic(Math.max(1, initiatorDepth)));
    }

    private QpAttributes rtr(CmConnection c, int receivePsn, int responderResources) {
        DeviceContext ctx = qp.protectionDomain().context();
        int gidIndex = RcConnector.chooseGidIndex(ctx, 1, ctx.queryPort(1).gidTableLength());
        return new QpAttributes().state(QpState.RTR)
                .av(new AddressHandleAttributes(c.remoteGid(), gidIndex, 1, c.hopLimit(), typeOfService, 0, 0))
                .pathMtu(c.pathMtu()).destQpn(c.remoteQpn()).rqPsn(receivePsn)
                .maxDestRdAtomic(Math.max(1, responderResources)).minRnrTimer(0);
    }

    /** Offers no more READ and atomic depth than the device has, as librdmacm clamps to the device's limits. */
    private ConnectionParameters clamp(ConnectionParameters p) {
        DeviceAttributes attrs = context.queryDevice();
        requestedRetryCount = p.retryCount();
        return p.responderResources(Math.min(p.responderResources(), attrs.maxQpRdAtom()))
                .initiatorDepth(Math.min(p.initiatorDepth(), attrs.maxQpInitRdAtom()));
    }

    @Override
    public void onEstablished(CmConnection c, ConnectionParameters offer) {
        stage = Stage.CONNECTED;
        // As the kernel reports it to a listener's id: no private data (the RTU's is not passed on).
        channel.post(event(CmEventType.ESTABLISHED, 0));
    }

    @Override
    public void reject(byte[] privateData) {
        if (privateData != null && privateData.length > ConnectionParameters.MAX_REJECT_PRIVATE_DATA) {
            throw new VerbsException(Errno.EINVAL, "a reject carries at most " + ConnectionParameters.MAX_REJECT_PRIVATE_DATA
                    + " bytes of private data");
        }
        ownContext();
        ReentrantLock lock = engineLock();
        lock.lock();
        try {
            requireStage(Stage.REQUESTED, "reject");
            agent.reject(connection, RejectReason.CONSUMER_DEFINED.value(), privateData);
            connection = null;
            stage = Stage.DISCONNECTED;
            settleRequest();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onRejected(CmConnection c, int reason, ConnectionParameters offer) {
        toError();
        stage = Stage.DISCONNECTED;
        channel.post(new CmEvent(CmEventType.REJECTED, this, null, reason, offer));
    }

    @Override
    public void onUnreachable(CmConnection c) {
        toError();
        stage = Stage.DISCONNECTED;
        channel.post(event(CmEventType.UNREACHABLE, -Errno.ETIMEDOUT.number()));
    }

    @Override
    public void disconnect() {
        ReentrantLock lock = engineLock();
        lock.lock();
        try {
            if (connection == null) {
                throw new VerbsException(Errno.EINVAL, "the id has no connection to disconnect");
            }
            toError();
            agent.disconnect(connection, System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onDisconnected(CmConnection c) {
        toError();
        stage = Stage.DISCONNECTED;
        channel.post(event(CmEventType.DISCONNECTED, 0));
    }

    @Override
    public void onTimewaitExit(CmConnection c) {
        channel.post(event(CmEventType.TIMEWAIT_EXIT, 0));
    }

    private void toError() {
        QueuePair q = qp;
        if (q != null && q.state() != QpState.ERR && q.state() != QpState.RESET) {
            try {
                q.modify(new QpAttributes().state(QpState.ERR));
            } catch (VerbsException e) {
                // closed by the application meanwhile: nothing left to stop
            }
        }
    }

    private void settleRequest() {
        if (listenId instanceof SoftCmId listener) {
            listener.requestSettled();
        }
    }

    // ---- devices, agents -------------------------------------------------------------------------

    private void useDevice(SoftDevice d) {
        if (device == d && !contexts.isEmpty()) {
            return;
        }
        device = d;
        context = (SoftContext) d.open();
        contexts.add(context);
        agent = agentOf(d, context.engine);
    }

    /**
     * A new connection's id starts on the engine's thread, which must not open contexts (that
     * takes the device's lock, which a closing context holds while it waits for the engine's):
     * it borrows the listener's context until the application's first call opens its own.
     */
    private void borrowDevice(SoftDevice d, SoftContext borrowed) {
        device = d;
        context = borrowed;
        agent = agentOf(d, borrowed.engine);
    }

    /** The listener's context on {@code d}. */
    private SoftContext agentContext(SoftDevice d) {
        for (DeviceContext ctx : contexts) {
            if (ctx.device() == d) {
                return (SoftContext) ctx;
            }
        }
        throw new IllegalStateException("listener has no context on " + d.name());
    }

    /** Opens the id's own context on its device, once, from the application's thread. */
    private void ownContext() {
        SoftDevice d = device;
        if (d != null && contexts.isEmpty()) {
            useDevice(d);
        }
    }

    private static CmAgent agentOf(SoftDevice d, dev.verbs4j.softroce.engine.DeviceEngine engine) {
        ReentrantLock lock = engine.lock();
        lock.lock();
        try {
            if (engine.gsiAgent() instanceof CmAgent existing) {
                return existing;
            }
            CmAgent created = CmAgent.withDefaults(engine::sendMad,
                    (serviceId, destination) -> SoftCmPorts.listener(d, serviceId, destination), d.guid(),
                    d.config().address(), SoftCmRoutes.pathMtu(d), RANDOM);
            engine.gsiAgent(created);
            return created;
        } finally {
            lock.unlock();
        }
    }

    private ReentrantLock engineLock() {
        SoftContext c = context;
        if (c == null) {
            throw new VerbsException(Errno.EINVAL, "the id has no device yet (stage " + stage + ")");
        }
        return c.engine.lock();
    }

    private static SoftDevice deviceWithAddress(InetAddress ip) {
        for (Device d : new SoftProvider().devices()) {
            if (d instanceof SoftDevice soft && soft.config().address().equals(ip)) {
                return soft;
            }
        }
        return null;
    }

    private void requireStage(Stage expected, String what) {
        if (stage != expected) {
            throw new VerbsException(Errno.EINVAL, "cannot " + what + " an id that is " + stage.name().toLowerCase()
                    .replace('_', ' '));
        }
    }

    private CmEvent event(CmEventType type, int status) {
        return new CmEvent(type, this, null, status, new ConnectionParameters());
    }

    // ---- accessors -------------------------------------------------------------------------------

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
        return portSpace.qpType();
    }

    InetAddress boundAddress() {
        return boundAddress;
    }

    int boundPort() {
        return boundPort;
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public int port() {
        return device == null ? 0 : 1;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public InetSocketAddress peerAddress() {
        return peer;
    }

    @Override
    public void ackTimeout(int value) {
        if (value < 0 || value > 31) {
            throw new VerbsException(Errno.EINVAL, "ACK timeout is 0..31, not " + value);
        }
        ackTimeout = value;
    }

    @Override
    public void typeOfService(int tos) {
        if (tos < 0 || tos > 255) {
            throw new VerbsException(Errno.EINVAL, "type of service is 0..255, not " + tos);
        }
        typeOfService = tos;
    }

    @Override
    public void reuseAddress(boolean reuse) {
        // Ports are released when their id closes; nothing lingers to reuse.
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public void attach(Object value) {
        attachment = value;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (stage == Stage.CLOSED) {
                return;
            }
        }
        SoftContext c = context;
        if (c != null && connection != null) {
            ReentrantLock lock = c.engine.lock();
            lock.lock();
            try {
                agent.abandon(connection);
                connection = null;
            } finally {
                lock.unlock();
            }
        }
        if (stage == Stage.REQUESTED) {
            settleRequest();
        }
        stage = Stage.CLOSED;
        SoftCmPorts.release(this);
        channel.ids.remove(this);
        for (DeviceContext ctx : contexts) {
            ctx.close();
        }
        contexts.clear();
    }

    @Override
    public String toString() {
        return "SoftCmId[" + portSpace + " " + stage + " " + local + " -> " + peer + "]";
    }
}

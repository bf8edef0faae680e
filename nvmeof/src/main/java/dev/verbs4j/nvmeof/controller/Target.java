package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.Provider;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.nvmeof.wire.CmPrivateData;
import dev.verbs4j.nvmeof.wire.DiscoveryLog;
import dev.verbs4j.nvmeof.wire.Nqn;

import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * An NVMe-oF RDMA target: an RDMA CM listener, the subsystems it offers, the discovery
 * subsystem, and every controller and queue hosts have made. One thread drives it through
 * {@link #doWork(long)}; {@link #start()} runs that thread.
 */
public final class Target implements AutoCloseable {
    /** Controller ids the dynamic model hands out: 1 to 0xFFEF (NVMe-oF 1.1, 3.3). */
    private static final int MAX_CNTLID = 0xffef;
    /**
     * What an admin capsule may carry: a Connect's data. The Linux host sends none in admin
     * capsules (IOCCSZ is for I/O queues), but a host may send the Connect data this way.
     */
    private static final int ADMIN_IN_CAPSULE_BYTES = 1024;
    /** The largest admin transfer: Identify's 4 KiB, a discovery log of 63 entries. */
    private static final int ADMIN_TRANSFER_BYTES = 64 * 1024;

    private final Provider provider;
    private final TargetOptions options;
    private final Map<String, Subsystem> subsystems = new LinkedHashMap<>();
    private final CmEventChannel channel;
    private final CmId listener;
    private final Map<Device, ProtectionDomain> domains = new HashMap<>();
    private final List<DeviceContext> contexts = new ArrayList<>();
    private final List<TargetQueue> queues = new ArrayList<>();
    private final Map<Integer, Controller> controllers = new HashMap<>();
    /** The controllers again, in a list that a step walks without an iterator. */
    private final List<Controller> live = new ArrayList<>();
    private int nextCntlid = 1;
    private long nowNs;
    private long discoveryGeneration = 1;
    private volatile boolean running;
    private Thread thread;
    /** Connection requests refused before a queue existed, by reject status. */
    private final long[] rejects = new long[16];
    /** Queues ended because handling their commands or events threw. */
    private long faults;
    private long keepAliveExpiries;
    /** Changes to the subsystems, asked for by other threads, that the next step makes. */
    private final Queue<Runnable> changes = new ConcurrentLinkedQueue<>();

    public Target(Provider provider, TargetOptions options, List<Subsystem> offered) {
        this.provider = provider;
        this.options = options;
        for (Subsystem s : offered) {
            if (s.nqn().equals(Nqn.DISCOVERY) || subsystems.putIfAbsent(s.nqn(), s) != null) {
                throw new IllegalArgumentException("subsystem NQN " + s.nqn() + " is taken");
            }
        }
        this.channel = provider.createCmEventChannel();
        CmId id = channel.createId(PortSpace.TCP);
        try {
            id.bindAddress(options.address());
            id.listen(64);
        } catch (RuntimeException e) {
            id.close();
            channel.close();
            throw e;
        }
        this.listener = id;
    }

    public TargetOptions options() {
        return options;
    }

    /** The port the listener bound (the options' port, or the one chosen for port 0). */
    public int port() {
        return listener.localAddress().getPort();
    }

    /** Starts a thread that drives {@link #doWork} until {@link #close()}. */
    public void start() {
        start(System::nanoTime);
    }

    /** Starts the thread with the time {@code clock} gives, so that tests can move it. */
    public synchronized void start(LongSupplier clock) {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        running = true;
        thread = Thread.ofPlatform().name("nvmeof-target").daemon(true).start(() -> run(clock));
    }

    private void run(LongSupplier clock) {
        int idle = 0;
        while (running) {
            int work = doWork(clock.getAsLong());
            if (work > 0) {
                idle = 0;
            } else if (++idle > 200) {
                LockSupport.parkNanos(50_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * One step: connection events, keep-alive deadlines, then every queue's completions.
     *
     * @param nowNs the time, against which keep-alive deadlines are checked
     * @return how much was done (0: nothing was waiting)
     */
    public int doWork(long nowNs) {
        this.nowNs = nowNs;
        int work = 0;
        Runnable change;
        while ((change = changes.poll()) != null) {
            change.run();
            work++;
        }
        Optional<CmEvent> event;
        while ((event = channel.nextEvent(Duration.ZERO)).isPresent()) {
            try {
                onEvent(event.get());
            } catch (RuntimeException e) {
                // One connection's trouble (a peer gone mid-accept) is no one else's.
                faults++;
                if (event.get().id().attachment() instanceof TargetQueue q) {
                    dropQueue(q);
                }
            }
            work++;
        }
        // Deadlines first: a Keep Alive that arrives after its deadline does not revive the controller.
        for (int i = live.size() - 1; i >= 0; i--) {
            if (i < live.size() && live.get(i).keepAliveExpired(nowNs)) {
                keepAliveExpiries++;
                dropController(live.get(i));
                work++;
            }
        }
        for (int i = 0; i < queues.size(); i++) {
            TargetQueue q = queues.get(i);
            try {
                work += q.poll();
            } catch (RuntimeException e) {
                // A command the checks let through and the code could not take ends its queue only.
                faults++;
                dropQueue(q);
            }
        }
        return work;
    }

    long nowNs() {
        return nowNs;
    }

    private void onEvent(CmEvent event) {
        switch (event.type()) {
            case CONNECT_REQUEST -> onConnectRequest(event);
            case DISCONNECTED, REJECTED, UNREACHABLE, CONNECT_ERROR, DEVICE_REMOVAL -> {
                if (event.id().attachment() instanceof TargetQueue q) {
                    dropQueue(q);
                }
            }
            default -> {
                // ESTABLISHED needs nothing: the receives were posted before the accept.
            }
        }
    }

    private void onConnectRequest(CmEvent event) {
        CmId id = event.id();
        CmPrivateData.Request request = CmPrivateData.Request.decode(event.privateData());
        int refusal = refusal(request);
        if (refusal != 0) {
            reject(id, refusal);
            return;
        }
        int depth = request.hsqsize() + 1;
        ProtectionDomain pd = domain(id.device());
        DeviceAttributes attributes = pd.context().queryDevice();
        TargetQueue queue;
        try {
            queue = request.qid() == 0
                    ? new TargetQueue(this, id, pd, 0, depth, ADMIN_IN_CAPSULE_BYTES, ADMIN_TRANSFER_BYTES)
                    : new TargetQueue(this, id, pd, request.qid(), depth, options.inCapsuleDataBytes(),
                            options.maxTransferBytes());
        } catch (RuntimeException e) {
            reject(id, CmPrivateData.REJECT_NO_RESOURCES);
            return;
        }
        // The request's parameters are this side's view, as librdmacm gives them: initiatorDepth
        // is what the host's responder takes (its RDMA READs in flight are ours), responderResources
        // the host's own initiator depth (0 for the Linux host, which reads nothing).
        ConnectionParameters asked = event.parameters();
        int readDepth = Math.min(Math.max(1, asked.initiatorDepth()), attributes.maxQpInitRdAtom());
        int responder = Math.min(Math.max(1, asked.responderResources()), attributes.maxQpRdAtom());
        id.attach(queue);
        queues.add(queue);
        try {
            id.accept(new ConnectionParameters().initiatorDepth(readDepth).responderResources(responder)
                    .rnrRetryCount(7).flowControl(true).privateData(CmPrivateData.accept(depth)));
        } catch (RuntimeException e) {
            dropQueue(queue);
        }
    }

    /** The reject status for a request, or 0 to accept it (NVMe-oF RDMA binding, 3.1.2). */
    private int refusal(CmPrivateData.Request request) {
        if (request == null) {
            return CmPrivateData.REJECT_INVALID_LENGTH;
        }
        if (request.recfmt() != CmPrivateData.RECFMT_1_0) {
            return CmPrivateData.REJECT_INVALID_RECFMT;
        }
        if (request.qid() > options.maxIoQueues()) {
            return CmPrivateData.REJECT_INVALID_QID;
        }
        int maxEntries = request.qid() == 0 ? TargetOptions.ADMIN_QUEUE_ENTRIES : options.maxQueueEntries();
        if (request.hsqsize() < 1 || request.hsqsize() + 1 > maxEntries) {
            return CmPrivateData.REJECT_INVALID_HSQSIZE;
        }
        if (request.hrqsize() < request.hsqsize() + 1) {
            return CmPrivateData.REJECT_INVALID_HRQSIZE;
        }
        return 0;
    }

    private void reject(CmId id, int status) {
        rejects[status & 15]++;
        try {
            id.reject(CmPrivateData.reject(status));
        } finally {
            id.close();
        }
    }

    private ProtectionDomain domain(Device device) {
        ProtectionDomain pd = domains.get(device);
        if (pd == null) {
            DeviceContext ctx = device.open();
            contexts.add(ctx);
            pd = ctx.allocatePd();
            domains.put(device, pd);
        }
        return pd;
    }

    /** Ends a queue; the admin queue's end ends its controller and every queue of it. */
    void dropQueue(TargetQueue queue) {
        if (queue.closed()) {
            return;
        }
        queue.close();
        queues.remove(queue);
        Controller c = queue.controller;
        if (c != null) {
            if (c.queues[queue.qid] == queue) {
                c.queues[queue.qid] = null;
            }
            if (queue.qid == 0) {
                dropController(c);
            }
        }
    }

    private void dropController(Controller c) {
        if (controllers.remove(c.cntlid) == null) {
            return;
        }
        live.remove(c);
        for (TargetQueue q : c.queues) {
            if (q != null) {
                c.queues[q.qid] = null;
                dropQueue(q);
            }
        }
    }

    Subsystem subsystem(String nqn) {
        return subsystems.get(nqn);
    }

    /**
     * Offers {@code subsystem} from the target's next step on, as an administrator adds one to
     * a running target. Any thread may call it.
     *
     * @return completes once hosts can connect to it; fails with IllegalArgumentException when
     *         its NQN is the discovery NQN or another offered subsystem's
     */
    public CompletableFuture<Void> offer(Subsystem subsystem) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        changes.add(() -> {
            if (subsystem.nqn().equals(Nqn.DISCOVERY) || subsystems.putIfAbsent(subsystem.nqn(), subsystem) != null) {
                done.completeExceptionally(new IllegalArgumentException("subsystem NQN " + subsystem.nqn() + " is taken"));
                return;
            }
            discoveryGeneration++;
            done.complete(null);
        });
        return done;
    }

    /**
     * Withdraws the subsystem {@code nqn} at the target's next step: it leaves the discovery
     * log, and every controller of it ends with its queues, whose hosts see them disconnected
     * (and may reconnect once it is offered again). Any thread may call it.
     *
     * @return completes with the subsystem withdrawn, whose namespaces are the caller's to
     *         close, or null when no subsystem has that NQN
     */
    public CompletableFuture<Subsystem> withdraw(String nqn) {
        CompletableFuture<Subsystem> done = new CompletableFuture<>();
        changes.add(() -> {
            Subsystem s = subsystems.remove(nqn);
            if (s != null) {
                discoveryGeneration++;
                for (Controller c : List.copyOf(controllers.values())) {
                    if (c.subsystem == s) {
                        dropController(c);
                    }
                }
            }
            done.complete(s);
        });
        return done;
    }

    boolean isDiscovery(String nqn) {
        return Nqn.DISCOVERY.equals(nqn);
    }

    String discoveryNqn() {
        return Nqn.DISCOVERY;
    }

    Controller controller(int cntlid) {
        return controllers.get(cntlid);
    }

    /** A controller with the next free id, or null when every id is taken. */
    Controller createController(Subsystem subsystem, String hostNqn, byte[] hostId) {
        for (int tries = 0; tries < MAX_CNTLID; tries++) {
            int cntlid = nextCntlid;
            nextCntlid = nextCntlid == MAX_CNTLID ? 1 : nextCntlid + 1;
            if (!controllers.containsKey(cntlid)) {
                Controller c = new Controller(cntlid, subsystem, hostNqn, hostId,
                        subsystem == null ? 0 : options.maxIoQueues(), options.maxQueueEntries());
                controllers.put(cntlid, c);
                live.add(c);
                return c;
            }
        }
        return null;
    }

    /**
     * The discovery log page a host sees: every subsystem it may connect to, at the target's
     * address, or, where the target listens on every address, at the one the host reached
     * ({@code reached}, the discovery queue's local address), as the kernel's target does.
     */
    MemorySegment discoveryLog(String hostNqn, InetSocketAddress reached) {
        List<Subsystem> visible = new ArrayList<>();
        for (Subsystem s : subsystems.values()) {
            if (s.allows(hostNqn)) {
                visible.add(s);
            }
        }
        MemorySegment log = MemorySegment.ofArray(new byte[DiscoveryLog.HEADER_BYTES + visible.size() * DiscoveryLog.ENTRY_BYTES]);
        DiscoveryLog.header(log, discoveryGeneration, visible.size());
        InetAddress listening = options.address().getAddress();
        InetAddress shown = listening.isAnyLocalAddress() && reached != null ? reached.getAddress() : listening;
        boolean ipv6 = shown instanceof Inet6Address;
        String address = shown.getHostAddress();
        for (int i = 0; i < visible.size(); i++) {
            DiscoveryLog.entry(log, DiscoveryLog.HEADER_BYTES + (long) i * DiscoveryLog.ENTRY_BYTES,
                    new DiscoveryLog.Entry(visible.get(i).nqn(), ipv6, address, port(), DiscoveryLog.SUBTYPE_NVM,
                            TargetOptions.ADMIN_QUEUE_ENTRIES));
        }
        return log;
    }

    /** How many connection requests were refused with {@code status} (a {@link CmPrivateData} reject code). */
    public long rejected(int status) {
        return rejects[status & 15];
    }

    /** How many queues were ended because something in their handling threw (0 in a healthy target). */
    public long faults() {
        return faults;
    }

    /** How many controllers were ended because their host's Keep Alive did not come in time. */
    public long keepAliveExpiries() {
        return keepAliveExpiries;
    }

    /** Controllers alive now. */
    public int controllerCount() {
        return controllers.size();
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (TargetQueue q : List.copyOf(queues)) {
            dropQueue(q);
        }
        listener.close();
        channel.close();
        for (ProtectionDomain pd : domains.values()) {
            pd.close();
        }
        for (DeviceContext ctx : contexts) {
            ctx.close();
        }
    }
}

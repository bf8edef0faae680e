package dev.verbs4j.conformance.agent;

import dev.verbs4j.DeviceContext;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The test process's end of an agent session. Each resource the agent holds appears here
 * as an object implementing its API interface, whose every call runs in the agent: the
 * fixture and the cases use it exactly as they use a resource of this process. A call
 * takes an idle connection (or opens one) and gives it back when answered, so a call that
 * blocks in the agent holds only its caller, and threads that come and go reuse the
 * connections of those before them.
 */
final class AgentClient implements AutoCloseable {
    /** Longest wait for one answer: a blocked call in the agent is bounded by its own timeout well before. */
    private static final int ANSWER_TIMEOUT_MS = 300_000;
    /** How long the first connection keeps trying while an agent started beside this process comes up. */
    private static final long FIRST_CONNECT_NS = 60_000_000_000L;

    private final InetSocketAddress address;
    /** The agent's Unix domain socket in the shared folder, once it has one; then new connections use it. */
    private volatile UnixDomainSocketAddress localChannel;
    private final AgentProcess process;
    private final Map<Long, Object> proxies = new ConcurrentHashMap<>();
    private final List<Connection> connections = new ArrayList<>();
    private final Deque<Connection> idle = new ConcurrentLinkedDeque<>();
    private final Codec codec = new Codec(new Codec.Peer() {
        @Override
        public void writeResource(DataOutputStream out, Object resource, Class<?> type) throws IOException {
            if (!Proxy.isProxyClass(resource.getClass()) || !(Proxy.getInvocationHandler(resource) instanceof Remote remote)) {
                throw new IllegalArgumentException(resource + " belongs to this process: the agent's resources cannot use it");
            }
            out.writeLong(remote.handle);
            out.writeUTF(type.getName());
        }

        @Override
        public Object readResource(DataInputStream in) throws IOException {
            long handle = in.readLong();
            Class<?> type = Codec.type(in.readUTF());
            return proxies.computeIfAbsent(handle, h -> Proxy.newProxyInstance(AgentClient.class.getClassLoader(),
                    new Class<?>[]{type}, new Remote(h, type)));
        }

        @Override
        public void writeSegment(DataOutputStream out, MemorySegment segment) throws IOException {
            if (segment.address() == 0 && segment.byteSize() == 0) {
                new SharedMapping("", SharedMapping.Kind.AT_SAME_ADDRESS, 0, 0, 0, 0).write(out);
                return;
            }
            memory.name(segment).write(out);
        }

        @Override
        public MemorySegment readSegment(DataInputStream in) throws IOException {
            SharedMapping m = SharedMapping.read(in);
            if (m.path().isEmpty()) {
                // Not in a shared file (e.g. no memory at all): an address in the same-address range means the same here.
                return m.base() == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(m.base()).reinterpret(m.length());
            }
            return memory.resolve(m);
        }
    });
    private volatile SharedMemory memory;
    private final LocalCalls localCalls = new LocalCalls(this);
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();

    private AgentClient(InetSocketAddress address, AgentProcess process) {
        this.address = address;
        this.process = process;
    }

    /**
     * A session with the agent at {@code address} (started as {@code process}, or null). The
     * memory is shared through files in {@code folder} when the agent sees that folder too
     * (it is on this machine) and {@code choice} allows; otherwise it travels over the channel.
     */
    static AgentClient connect(InetSocketAddress address, AgentProcess process, Path folder, MemoryChoice choice) {
        AgentClient client = new AgentClient(address, process);
        try {
            client.openLocalChannel(folder);
            boolean sameFolder = client.localChannel != null;
            if (choice == MemoryChoice.FILES && !sameFolder) {
                throw new IllegalStateException("the agent at " + address + " does not see " + folder
                        + ": its memory cannot be shared through files (use the channel)");
            }
            SharedMemory.Mode mode = sameFolder && choice != MemoryChoice.CHANNEL ? SharedMemory.Mode.FILES : SharedMemory.Mode.CHANNEL;
            client.memory = SharedMemory.reserve(client, folder, mode);
            return client;
        } catch (RuntimeException e) {
            if (client.memory != null) {
                client.memory.close();
            } else {
                client.close();
            }
            throw e;
        }
    }

    SharedMemory memory() {
        return memory;
    }

    /** How a run asks for the agent's memory to be shared. */
    enum MemoryChoice {
        /** Files when the agent sees the folder, else the channel. */
        AUTO,
        /** Files, or fail. */
        FILES,
        /** The channel, even where files would do. */
        CHANNEL;

        static MemoryChoice of(String name) {
            return name == null || name.isBlank() ? AUTO : valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** The local side as the cases must see it: its calls bring the memory level where the channel carries it. */
    <T> T local(T resource) {
        return memory.mode() == SharedMemory.Mode.CHANNEL ? localCalls.standIn(resource) : resource;
    }

    /** Sends what this process wrote into the agent's memory, if it wrote anything since (channel mode). */
    void sendChanges() {
        if (memory != null && memory.mode() == SharedMemory.Mode.CHANNEL && memory.changedHere()) {
            exchangeChanges();
        }
    }

    /** Sends what this process wrote and brings back what the agent's memory gained (channel mode). */
    void exchangeChanges() {
        if (memory != null && memory.mode() == SharedMemory.Mode.CHANNEL) {
            syncs.incrementAndGet();
            request(out -> out.writeByte(Protocol.SYNC), null, null);
        }
    }

    /** The session's traffic so far, for the run's log. */
    String traffic() {
        return "memory " + (memory == null ? "none" : memory.mode().name().toLowerCase(java.util.Locale.ROOT)) + ", " + calls.get()
                + " control-channel calls (" + syncs.get() + " only for memory), memory bytes sent " + bytesSent.get()
                + ", received " + bytesReceived.get();
    }

    /** Opens {@code device} of {@code provider} in the agent. */
    DeviceContext open(String provider, String device) {
        return (DeviceContext) request(out -> {
            out.writeByte(Protocol.OPEN);
            out.writeUTF(provider);
            out.writeUTF(device);
        }, null, null);
    }

    /** A connection-manager event channel of the agent's provider. */
    dev.verbs4j.cm.CmEventChannel cmEventChannel(String provider) {
        return (dev.verbs4j.cm.CmEventChannel) request(out -> {
            out.writeByte(Protocol.CM_CHANNEL);
            out.writeUTF(provider);
        }, null, null);
    }

    /** Asks the agent for a Unix domain socket in {@code folder}; uses it if this process sees it there too. */
    private void openLocalChannel(Path folder) {
        String path = (String) request(out -> {
            out.writeByte(Protocol.LOCAL_CHANNEL);
            out.writeUTF(folder.toString());
        }, null, null);
        if (!path.isEmpty() && Files.exists(Path.of(path))) {
            localChannel = UnixDomainSocketAddress.of(path);
            useOnlyLocalChannel();
        }
    }

    /**
     * Moves the calls so far made over TCP to the local channel: a new connection there takes
     * the place of the idle ones, which close (the agent keeps the session, which has a
     * connection left). Every call after this one goes over the local channel.
     */
    private void useOnlyLocalChannel() {
        Connection local = connect();
        for (Connection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            synchronized (connections) {
                connections.remove(c);
            }
            c.closeQuietly();
        }
        idle.addFirst(local);
    }

    boolean reserve(long base, long size, boolean overChannel) {
        return (Boolean) request(out -> {
            out.writeByte(Protocol.RESERVE);
            out.writeLong(base);
            out.writeLong(size);
            out.writeBoolean(overChannel);
        }, null, null);
    }

    void forget(String path) {
        request(out -> {
            out.writeByte(Protocol.FORGET);
            out.writeUTF(path);
        }, null, null);
    }

    private interface Request {
        void write(DataOutputStream out) throws IOException;
    }

    /**
     * Sends one request on an idle connection and reads the answer: a value, or the
     * exception the agent threw. The request is encoded whole first, so a value the channel
     * cannot carry fails before anything is sent; a connection whose exchange broke off is
     * closed, never reused out of step.
     */
    private Object request(Request request, Method method, Object[] args) {
        byte[] message = encode(request);
        SharedMemory shared = memory;
        byte[] changes = encode(out -> {
            if (shared == null) {
                out.writeInt(0);
            } else {
                bytesSent.addAndGet(shared.writeChanges(out).bytes());
            }
        });
        calls.incrementAndGet();
        Connection c = idle.pollFirst();
        if (c == null) {
            c = connect();
        }
        boolean inStep = false;
        try {
            c.out.write(changes);
            c.out.write(message);
            c.out.flush();
            MemoryRuns.Moved received = shared == null ? MemoryRuns.read(c.in, whole -> null) : shared.readChanges(c.in);
            bytesReceived.addAndGet(received.bytes());
            int status = c.in.readByte();
            if (status == Protocol.THROWN) {
                RuntimeException thrown = Protocol.readThrown(c.in);
                inStep = true;
                throw thrown;
            }
            Object result = codec.read(c.in, method == null ? null : method.getGenericReturnType(), args);
            if (method != null) {
                int outParameters = c.in.readInt();
                for (int i = 0; i < outParameters; i++) {
                    int index = c.in.readInt();
                    Codec.copyInto(args[index], codec.read(c.in, method.getGenericParameterTypes()[index], null));
                }
            }
            inStep = true;
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("the conformance agent at " + address + " went away"
                    + (process == null ? "" : process.exitNote()), e);
        } finally {
            if (inStep) {
                idle.addFirst(c);
            } else {
                c.closeQuietly();
            }
        }
    }

    private static byte[] encode(Request request) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            request.write(new DataOutputStream(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private Connection connect() {
        boolean first;
        synchronized (connections) {
            first = connections.isEmpty();
        }
        long deadline = System.nanoTime() + (first ? FIRST_CONNECT_NS : 0);
        while (true) {
            try {
                UnixDomainSocketAddress local = localChannel;
                Connection c = local != null ? Connection.local(local) : Connection.tcp(address);
                synchronized (connections) {
                    connections.add(c);
                }
                return c;
            } catch (ConnectException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new UncheckedIOException("cannot reach the conformance agent at " + address, e);
                }
                LockSupport.parkNanos(200_000_000L);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot reach the conformance agent at " + address, e);
            }
        }
    }

    /** A resource in the agent: every call but Object's runs there (an answer that cannot change, once). */
    private final class Remote implements InvocationHandler {
        final long handle;
        final Class<?> type;
        final Map<Method, Object> fixedAnswers = new ConcurrentHashMap<>();

        Remote(long handle, Class<?> type) {
            this.handle = handle;
            this.type = type;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] arguments) {
            Object[] args = arguments == null ? new Object[0] : arguments;
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "agent " + type.getSimpleName() + " #" + handle;
                };
            }
            if (RemoteTypes.answerIsFixed(method)) {
                Object known = fixedAnswers.get(method);
                if (known != null) {
                    return known;
                }
                Object answer = call(method, args);
                if (answer != null) {
                    fixedAnswers.put(method, answer);
                }
                return answer;
            }
            return call(method, args);
        }

        private Object call(Method method, Object[] args) {
            return request(out -> {
                out.writeByte(Protocol.CALL);
                out.writeLong(handle);
                out.writeUTF(method.getDeclaringClass().getName());
                out.writeUTF(method.getName());
                out.writeInt(method.getParameterCount());
                for (Class<?> p : method.getParameterTypes()) {
                    out.writeUTF(p.getName());
                }
                for (Object a : args) {
                    codec.write(out, a, null);
                }
            }, method, args);
        }
    }

    /** One connection to the agent: TCP, or a Unix domain socket in the shared folder. */
    private static final class Connection {
        final Closeable channel;
        final DataInputStream in;
        final DataOutputStream out;

        private Connection(Closeable channel, InputStream input, OutputStream output) {
            this.channel = channel;
            in = new DataInputStream(new BufferedInputStream(input));
            out = new DataOutputStream(new BufferedOutputStream(output));
        }

        static Connection tcp(InetSocketAddress address) throws IOException {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(address, 10_000);
                socket.setSoTimeout(ANSWER_TIMEOUT_MS);
                return new Connection(socket, socket.getInputStream(), socket.getOutputStream());
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }

        static Connection local(UnixDomainSocketAddress address) throws IOException {
            SocketChannel channel = SocketChannel.open(address);
            return new Connection(channel, Channels.newInputStream(channel), Channels.newOutputStream(channel));
        }

        void closeQuietly() {
            try {
                channel.close();
            } catch (IOException e) {
                // A connection that broke off: nothing more to do with it.
            }
        }
    }

    /** Ends the session: the agent exits, and a started agent process is waited for. */
    @Override
    public void close() {
        boolean reached;
        synchronized (connections) {
            reached = !connections.isEmpty();
        }
        if (reached) {
            // An agent never reached has no session to end (and a new connection would wait for it again).
            System.out.println("verbs4j conformance agent at " + address + ": " + traffic());
            try {
                request(out -> out.writeByte(Protocol.SHUTDOWN), null, null);
            } catch (RuntimeException e) {
                // Already gone: nothing to end.
            }
        }
        synchronized (connections) {
            for (Connection c : connections) {
                c.closeQuietly();
            }
            connections.clear();
        }
        if (process != null) {
            process.stop();
        }
    }
}

package dev.verbs4j.conformance.agent;

import dev.verbs4j.Device;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The agent: holds the remote side's resources and runs every call the test process makes
 * on them, each connection on a thread of its own (a call that blocks, such as waiting for
 * a completion event, holds only its caller). Resources are named by handles that stay
 * valid for the session; the session ends with {@link Protocol#SHUTDOWN} or when the test
 * process goes away.
 */
final class AgentServer {
    private static final Object UNKNOWN = new Object();
    private static final long RECONNECT_GRACE_NS = 3_000_000_000L;

    private final ServerSocket listener;
    private final AgentMappings mappings = new AgentMappings();
    private final Map<Long, Object> resources = new HashMap<>();
    private final Map<Object, Long> handles = new IdentityHashMap<>();
    private final Map<String, Method> methods = new ConcurrentHashMap<>();
    private final CountDownLatch over = new CountDownLatch(1);
    private final Codec codec = new Codec(new Codec.Peer() {
        @Override
        public void writeResource(DataOutputStream out, Object resource, Class<?> type) throws IOException {
            out.writeLong(handle(resource));
            out.writeUTF(type.getName());
        }

        @Override
        public Object readResource(DataInputStream in) throws IOException {
            long handle = in.readLong();
            in.readUTF();
            return resource(handle);
        }

        @Override
        public void writeSegment(DataOutputStream out, MemorySegment segment) throws IOException {
            mappings.name(segment).write(out);
        }

        @Override
        public MemorySegment readSegment(DataInputStream in) throws IOException {
            return mappings.resolve(SharedMapping.read(in));
        }
    });
    private final AtomicInteger connections = new AtomicInteger();
    private long nextHandle = 1;

    AgentServer(ServerSocket listener) {
        this.listener = listener;
    }

    /** Serves until the session is over; returns when it is. */
    void serve() throws InterruptedException {
        Thread.ofPlatform().daemon().name("agent accept").start(this::acceptLoop);
        over.await();
    }

    private void acceptLoop() {
        try {
            while (true) {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                startSession("agent " + s.getRemoteSocketAddress(), s.getInputStream(), s.getOutputStream(), s);
            }
        } catch (IOException e) {
            over.countDown();
        }
    }

    /** Listens on a Unix domain socket in {@code folder} as well; returns its path, or "" when it cannot. */
    private String openLocalChannel(String folder) {
        try {
            Path path = Path.of(folder, "verbs4j-agent-" + ProcessHandle.current().pid() + ".sock");
            Files.deleteIfExists(path);
            ServerSocketChannel local = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            local.bind(UnixDomainSocketAddress.of(path));
            path.toFile().deleteOnExit();
            Thread.ofPlatform().daemon().name("agent accept local").start(() -> acceptLocal(local));
            return path.toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "";
        }
    }

    private void acceptLocal(ServerSocketChannel local) {
        try (local) {
            while (true) {
                SocketChannel c = local.accept();
                startSession("agent local", Channels.newInputStream(c), Channels.newOutputStream(c), c);
            }
        } catch (IOException e) {
            // The agent is closing.
        }
    }

    /** Counts a new connection and answers it on a thread of its own. */
    private void startSession(String name, InputStream input, OutputStream output, Closeable connection) {
        connections.incrementAndGet();
        Thread.ofPlatform().daemon().name(name).start(() -> session(input, output, connection));
    }

    /**
     * Answers one connection's requests until it closes. The session is over when a request
     * says so, or when every connection the test process opened has closed (it went away).
     */
    private void session(InputStream input, OutputStream output, Closeable connection) {
        try {
            answerAll(input, output, connection);
        } finally {
            if (connections.decrementAndGet() == 0) {
                endUnlessReconnected();
            }
        }
    }

    /**
     * The last connection closed: the session is over unless the test process opens another
     * soon (it closes a connection whose exchange broke off and carries on with a new one).
     */
    private void endUnlessReconnected() {
        Thread.ofPlatform().daemon().name("agent idle").start(() -> {
            LockSupport.parkNanos(RECONNECT_GRACE_NS);
            if (connections.get() == 0) {
                over.countDown();
            }
        });
    }

    private void answerAll(InputStream input, OutputStream output, Closeable connection) {
        try (connection;
             DataInputStream in = new DataInputStream(new BufferedInputStream(input));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(output))) {
            while (true) {
                try {
                    mappings.readChanges(in);
                } catch (EOFException e) {
                    return;
                }
                int type = in.readByte();
                if (answer(type, in, out)) {
                    out.flush();
                    over.countDown();
                    return;
                }
                out.flush();
            }
        } catch (SocketException | EOFException e) {
            // The test process went away: its connection with it.
        } catch (IOException e) {
            System.err.println("agent: control channel failed: " + e);
            over.countDown();
        }
    }

    /** Answers one request; true when it ends the session. */
    private boolean answer(int type, DataInputStream in, DataOutputStream out) throws IOException {
        switch (type) {
            case Protocol.OPEN -> {
                String provider = in.readUTF();
                String device = in.readUTF();
                reply(out, () -> open(provider, device), null);
            }
            case Protocol.CALL -> call(in, out);
            case Protocol.RESERVE -> {
                long base = in.readLong();
                long size = in.readLong();
                boolean overChannel = in.readBoolean();
                reply(out, () -> mappings.reserve(base, size, overChannel), null);
            }
            case Protocol.SYNC -> reply(out, () -> null, null);
            case Protocol.FORGET -> {
                String path = in.readUTF();
                reply(out, () -> {
                    mappings.forget(path);
                    return null;
                }, null);
            }
            case Protocol.LOCAL_CHANNEL -> {
                String folder = in.readUTF();
                reply(out, () -> openLocalChannel(folder), null);
            }
            case Protocol.CM_CHANNEL -> {
                String provider = in.readUTF();
                reply(out, () -> Verbs.provider(provider).createCmEventChannel(), null);
            }
            case Protocol.SHUTDOWN -> {
                // No more connections for this session, before the test process hears it is
                // over: its next run's connections then wait for the next session's listener
                // (AgentMain --sessions) instead of landing in this one's backlog.
                listener.close();
                mappings.writeChanges(out);
                out.writeByte(Protocol.OK);
                codec.write(out, null, null);
                return true;
            }
            default -> throw new IOException("unknown request " + type + " on the agent's control channel");
        }
        return false;
    }

    private Object open(String providerName, String deviceName) {
        Provider provider = Verbs.provider(providerName);
        List<Device> devices = provider.devices();
        for (Device d : devices) {
            if (d.name().equals(deviceName)) {
                return d.open();
            }
        }
        throw new IllegalArgumentException("provider '" + providerName + "' has no device '" + deviceName + "' in the agent; it has "
                + devices.stream().map(Device::name).toList() + provider.unavailableReason().map(r -> " (" + r + ")").orElse(""));
    }

    private void call(DataInputStream in, DataOutputStream out) throws IOException {
        Object target = resource(in.readLong());
        Method method = method(in);
        Type[] parameters = method.getGenericParameterTypes();
        Object[] args = new Object[parameters.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = codec.read(in, parameters[i], null);
        }
        reply(out, () -> {
            if (target == UNKNOWN || Arrays.asList(args).contains(UNKNOWN)) {
                throw new IllegalArgumentException("a handle the agent does not know");
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }, args);
    }

    private interface Call {
        Object run() throws Throwable;
    }

    /**
     * Runs {@code call} and answers what the memory gained meanwhile, then its result, then
     * the state of every out-parameter in {@code args}.
     */
    private void reply(DataOutputStream out, Call call, Object[] args) throws IOException {
        Object result;
        try {
            result = call.run();
        } catch (Throwable t) {
            mappings.writeChanges(out);
            Protocol.writeThrown(out, t);
            return;
        }
        mappings.writeChanges(out);
        out.writeByte(Protocol.OK);
        codec.write(out, result, args);
        if (args == null) {
            return;
        }
        int outParameters = 0;
        for (Object a : args) {
            outParameters += Codec.isOutParameter(a) ? 1 : 0;
        }
        out.writeInt(outParameters);
        for (int i = 0; i < args.length; i++) {
            if (Codec.isOutParameter(args[i])) {
                out.writeInt(i);
                codec.write(out, args[i], null);
            }
        }
    }

    private Method method(DataInputStream in) throws IOException {
        String declaring = in.readUTF();
        String name = in.readUTF();
        int count = in.readInt();
        StringBuilder key = new StringBuilder(declaring).append('#').append(name);
        String[] types = new String[count];
        for (int i = 0; i < count; i++) {
            types[i] = in.readUTF();
            key.append(',').append(types[i]);
        }
        Method known = methods.get(key.toString());
        if (known != null) {
            return known;
        }
        Class<?>[] parameterTypes = new Class<?>[count];
        for (int i = 0; i < count; i++) {
            parameterTypes[i] = primitive(types[i]);
        }
        try {
            Method m = Codec.type(declaring).getMethod(name, parameterTypes);
            methods.put(key.toString(), m);
            return m;
        } catch (NoSuchMethodException e) {
            throw new IOException("the agent's API has no method " + key, e);
        }
    }

    private static Class<?> primitive(String name) throws IOException {
        return switch (name) {
            case "boolean" -> boolean.class;
            case "byte" -> byte.class;
            case "short" -> short.class;
            case "char" -> char.class;
            case "int" -> int.class;
            case "long" -> long.class;
            case "float" -> float.class;
            case "double" -> double.class;
            default -> Codec.type(name);
        };
    }

    private synchronized long handle(Object resource) {
        Long known = handles.get(resource);
        if (known != null) {
            return known;
        }
        long h = nextHandle++;
        handles.put(resource, h);
        resources.put(h, resource);
        return h;
    }

    /** The resource of {@code handle}, or {@link #UNKNOWN} (the request is read whole before it is refused). */
    private synchronized Object resource(long handle) {
        return resources.getOrDefault(handle, UNKNOWN);
    }
}

package dev.verbs4j.softroce.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A network in memory for engine tests: links deliver to each other's queues, with seeded
 * loss, duplication, reordering and corruption, so state machines run without sockets,
 * threads or real time. Not for the data path (it copies each packet).
 */
public final class InMemoryNetwork {
    private final Map<InetSocketAddress, Endpoint> endpoints = new HashMap<>();
    private final long seed;
    private FaultInjector faults;
    private long sent;
    private long lost;
    private long duplicated;
    private long reordered;
    private long corrupted;

    public InMemoryNetwork(long seed) {
        this.seed = seed;
        this.faults = new FaultInjector(seed, 0, 0, 0, 0);
    }

    /** Sets the fault rates (each 0..1) applied to every packet from now on. */
    public synchronized InMemoryNetwork faults(double loss, double duplicate, double reorder, double corrupt) {
        faults = new FaultInjector(seed, loss, duplicate, reorder, corrupt);
        return this;
    }

    /** A link on {@code address}. */
    public synchronized Link attach(InetSocketAddress address) {
        Endpoint e = new Endpoint(address);
        endpoints.put(address, e);
        return e;
    }

    public synchronized long sent() { return sent; }
    public synchronized long lost() { return lost; }
    public synchronized long duplicated() { return duplicated; }
    public synchronized long reordered() { return reordered; }
    public synchronized long corrupted() { return corrupted; }

    private synchronized boolean deliver(InetSocketAddress from, ByteBuffer buffer, int length, InetSocketAddress to) {
        sent++;
        Endpoint target = endpoints.get(to);
        if (target == null) {
            return true; // like UDP: sent into the void
        }
        if (faults.lose()) {
            lost++;
            return true;
        }
        byte[] copy = new byte[length];
        buffer.get(0, copy, 0, length);
        if (faults.corrupt()) {
            corrupted++;
            copy[faults.nextInt(length)] ^= (byte) (1 << faults.nextInt(8));
        }
        int copies = faults.duplicate() ? 2 : 1;
        duplicated += copies - 1;
        for (int c = 0; c < copies; c++) {
            Datagram d = new Datagram(from, copy);
            List<Datagram> q = target.queue;
            if (!q.isEmpty() && faults.reorder()) {
                reordered++;
                q.add(q.size() - 1 - faults.nextInt(Math.min(q.size(), 4)), d);
            } else {
                q.add(d);
            }
        }
        return true;
    }

    private synchronized Datagram take(Endpoint e) {
        return e.queue.isEmpty() ? null : e.queue.removeFirst();
    }

    private record Datagram(InetSocketAddress from, byte[] bytes) {
    }

    private final class Endpoint implements Link {
        private final InetSocketAddress address;
        private final List<Datagram> queue = new ArrayList<>();
        private InetSocketAddress source;

        Endpoint(InetSocketAddress address) {
            this.address = address;
        }

        @Override
        public InetSocketAddress localAddress() {
            return address;
        }

        @Override
        public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
            return deliver(address, buffer, length, destination);
        }

        @Override
        public int receive(ByteBuffer buffer) {
            Datagram d = take(this);
            if (d == null) {
                return -1;
            }
            buffer.clear();
            buffer.put(0, d.bytes);
            source = d.from;
            return d.bytes.length;
        }

        @Override
        public InetSocketAddress source() {
            return source;
        }

        @Override
        public void await(long timeoutNs) {
            // Tests drive time themselves.
        }

        @Override
        public void wakeup() {
        }

        @Override
        public void close() {
            synchronized (InMemoryNetwork.this) {
                endpoints.remove(address);
            }
        }
    }
}

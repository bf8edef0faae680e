package dev.verbs4j.softroce.netdev;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.Mtu;
import dev.verbs4j.softroce.engine.PortWatch;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Port 1 of a soft device made on a network interface, kept as rxe keeps its port from its
 * netdev: the GID table ({@link GidSlots}), the active MTU ({@link RxeMtu}) and the state
 * (active while the interface is up with carrier). Where rxe hears the kernel's netdev and
 * address notifications, this reads the interface every {@link #POLL_INTERVAL_NS} ns, in the
 * engine's steps ({@link #poll}, time passed in). What changed becomes async events, as
 * libibverbs reports them from rxe: {@code IBV_EVENT_GID_CHANGE} for each entry changed,
 * {@code IBV_EVENT_PORT_ACTIVE} / {@code IBV_EVENT_PORT_ERR} when the state changes; each
 * names port 1.
 */
public final class NetdevPort implements PortWatch {
    /** How often the interface is read: half a second. */
    public static final long POLL_INTERVAL_NS = 500_000_000L;
    /** The port number the events name. */
    static final int PORT = 1;

    private final String netdev;
    private final NetdevReader reader;
    private final GidSlots table;
    private final Consumer<AsyncEvent> events;
    private Consumer<InetAddress[]> bindable = a -> { };
    private long dueNs;
    private boolean polled;
    private InetAddress[] bound = new InetAddress[0];

    private volatile InetAddress[] gids;
    private volatile Mtu activeMtu = Mtu.MTU_256;
    private volatile boolean active;
    private volatile int index;
    private volatile long reads;

    /**
     * @param netdev the interface's name
     * @param reader how it is read
     * @param gidTableLength the GID table's length
     * @param events where the async events go
     */
    public NetdevPort(String netdev, NetdevReader reader, int gidTableLength, Consumer<AsyncEvent> events) {
        this.netdev = netdev;
        this.reader = reader;
        this.table = new GidSlots(gidTableLength);
        this.events = events;
        this.gids = table.snapshot();
    }

    /**
     * Reads the interface now, as the device starts: no events for what it finds. The first
     * {@link #poll} sets the time of the next read: the device takes no clock of its own.
     *
     * @return the addresses the device may bind, by GID index (null where the entry is empty
     *         or the interface lacks the address, as it lacks the default GID without IPv6)
     * @throws IOException when the interface cannot be read or does not exist
     */
    public InetAddress[] start() throws IOException {
        Optional<NetdevSnapshot> s = reader.read(netdev);
        if (s.isEmpty()) {
            throw new IOException("no network interface " + netdev);
        }
        apply(s.get(), false);
        return bound.clone();
    }

    /** Who binds the addresses the table names and the interface has (the device's link), called when they change. */
    public void onBindable(Consumer<InetAddress[]> listener) {
        this.bindable = listener;
    }

    @Override
    public int poll(long nowNs) {
        if (!polled) {
            polled = true;
            dueNs = nowNs + POLL_INTERVAL_NS;
            return 0;
        }
        if (nowNs - dueNs < 0) {
            return 0;
        }
        dueNs = nowNs + POLL_INTERVAL_NS;
        Optional<NetdevSnapshot> s;
        try {
            s = reader.read(netdev);
        } catch (IOException | RuntimeException e) {
            s = Optional.empty(); // unreadable, or gone mid-read: as an interface without link or addresses
        }
        return apply(s.orElseGet(() -> new NetdevSnapshot(netdev, index, null, 0, false, false, List.of(), List.of())), true);
    }

    private int apply(NetdevSnapshot s, boolean announce) {
        reads++;
        int changes = 0;
        index = s.index();
        if (s.mtu() > 0) {
            activeMtu = RxeMtu.of(s.mtu());
        }
        List<Integer> changed = table.update(s);
        gids = table.snapshot();
        if (announce) {
            for (int ignored : changed) {
                events.accept(new AsyncEvent(AsyncEventType.GID_CHANGE, PORT));
            }
        }
        changes += changed.size();
        if (s.active() != active) {
            active = s.active();
            changes++;
            if (announce) {
                events.accept(new AsyncEvent(active ? AsyncEventType.PORT_ACTIVE : AsyncEventType.PORT_ERR, PORT));
            }
        }
        InetAddress[] usable = new InetAddress[gids.length];
        for (int i = 0; i < usable.length; i++) {
            InetAddress a = gids[i];
            usable[i] = a != null && has(s, a) ? a : null;
        }
        if (!java.util.Arrays.equals(usable, bound)) {
            bound = usable;
            if (announce) {
                bindable.accept(usable.clone());
            }
        }
        return changes;
    }

    private static boolean has(NetdevSnapshot s, InetAddress a) {
        return s.ipv4().contains(a) || s.ipv6().stream().anyMatch(six -> java.util.Arrays.equals(six.getAddress(), a.getAddress()));
    }

    @Override
    public InetAddress gidAddress(int i) {
        InetAddress[] g = gids;
        return i >= 0 && i < g.length ? g[i] : null;
    }

    @Override
    public int linkScope() {
        return index;
    }

    /** The table, empty entries null (a copy). */
    public InetAddress[] gids() {
        return gids.clone();
    }

    /** The active MTU the interface's MTU gives. */
    public Mtu activeMtu() {
        return activeMtu;
    }

    /** Whether the port is active: the interface is up and has carrier. */
    public boolean active() {
        return active;
    }

    /** The interface's name. */
    public String netdev() {
        return netdev;
    }

    /** How many times the interface was read. */
    public long reads() {
        return reads;
    }
}

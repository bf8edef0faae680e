package dev.verbs4j.tools.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

/**
 * The raw limit the soft provider is measured against: bare DatagramChannels on the same
 * loopback addresses, moving datagrams of the same sizes the engine would send for a
 * message (payload up to the MTU plus BTH, RETH and ICRC), with either thread structure (one
 * thread sends and receives, or a thread per side) and the same in-flight limit (128 packets).
 * <p>
 * The stream can also do the per-byte work every RoCE end does and a bare stream does not:
 * a CRC32 of each datagram put in its last four bytes by the sender and checked by the
 * receiver, as the ICRC is. It is what the soft engine can at best come to with every other
 * line of it at no cost.
 */
final class UdpBaseline implements AutoCloseable {
    private static final int HEADERS = 12 + 16 + 4;
    private static final int WINDOW = 128;
    /** The most datagrams one hold sends: a requester's budget of one step. */
    private static final int BURST = 64;

    private final DatagramChannel a;
    private final DatagramChannel b;
    private final InetSocketAddress addressA;
    private final InetSocketAddress addressB;
    private final ByteBuffer tx = ByteBuffer.allocateDirect(1 << 16);
    private final ByteBuffer rx = ByteBuffer.allocateDirect(1 << 16);
    private final CRC32 txCrc = new CRC32();
    private final CRC32 rxCrc = new CRC32();
    /** Whether the stream under way puts a CRC32 in each datagram and checks it at the receiver. */
    private boolean checksummed;

    /**
     * The baseline perf runs: 127.0.0.1 and 127.0.0.2, on ports under the range Linux hands out
     * as ephemeral ones, so that no other socket holds them.
     */
    static UdpBaseline onLoopback() {
        return new UdpBaseline(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), 27981),
                new InetSocketAddress(InetAddress.ofLiteral("127.0.0.2"), 27982));
    }

    UdpBaseline(InetSocketAddress addressA, InetSocketAddress addressB) {
        try {
            a = open(addressA);
            b = open(addressB);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.addressA = addressA;
        this.addressB = addressB;
    }

    private static DatagramChannel open(InetSocketAddress address) throws IOException {
        DatagramChannel c = DatagramChannel.open();
        c.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
        c.setOption(StandardSocketOptions.SO_SNDBUF, 8 << 20);
        c.bind(address);
        c.configureBlocking(false);
        return c;
    }

    /**
     * The stream: one thread sends and receives in turn (caller progress's shape), or, with
     * {@code threadPerSide}, a thread receives while this one sends (engine threads' shape,
     * and the most this machine's loopback moves). With {@code batched}, through the soft
     * provider's raw sockets with each burst of sends handed to the kernel together, as a
     * device's step hands what it sends ({@link StreamEnds#rawSockets}); else through
     * DatagramChannels, a system call per datagram.
     */
    Result bandwidth(int size, int mtu, int iterations, int warmUp, boolean threadPerSide, boolean batched) throws IOException {
        return bandwidth(size, mtu, iterations, warmUp, threadPerSide, batched, false);
    }

    /**
     * The stream of {@link #bandwidth(int, int, int, int, boolean, boolean)}; with
     * {@code crc}, each datagram carries a CRC32 of the rest in its last four bytes, and the
     * receiver checks it (a mismatch fails the run).
     */
    Result bandwidth(int size, int mtu, int iterations, int warmUp, boolean threadPerSide, boolean batched, boolean crc)
            throws IOException {
        checksummed = crc;
        int perMessage = Math.max(1, (size + mtu - 1) / mtu);
        long packets = (long) perMessage * iterations;
        try (StreamEnds ends = batched
                ? StreamEnds.rawSockets(withPort(addressA, 2), withPort(addressB, 2))
                : StreamEnds.channels(a, b, addressB)) {
            String shape = "udp_bw " + size + " " + ends.describe() + (crc ? " crc" : "") + (threadPerSide ? " per side" : " one thread");
            WarmUp.run(iterations, warmUp, shape, n -> stream(ends, size, mtu, (long) perMessage * n, threadPerSide));
            long allocBefore = Allocation.allocatedBytes();
            long start = System.nanoTime();
            stream(ends, size, mtu, packets, threadPerSide);
            double seconds = (System.nanoTime() - start) / 1e9;
            double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
            return Result.bandwidth("udp_bw", ends.describe() + (crc ? ", a CRC32 per datagram" : "") + " " + addressA.getAddress().getHostAddress() + " -> "
                    + addressB.getAddress().getHostAddress() + ", MTU " + mtu + (threadPerSide ? ", a thread per side" : ", one thread"),
                    size, iterations, seconds, 0, alloc);
        }
    }

    /**
     * Whether the stream batches its sends: where a soft device's sockets go through the C
     * library ({@link dev.verbs4j.softroce.RawUdpSocket#usedByDevices}), so that the baseline
     * makes the engine's system calls.
     */
    static boolean batched() {
        return dev.verbs4j.softroce.RawUdpSocket.usedByDevices();
    }

    private static InetSocketAddress withPort(InetSocketAddress address, int offset) {
        return new InetSocketAddress(address.getAddress(), address.getPort() + offset);
    }

    private void stream(StreamEnds ends, int size, int mtu, long packets, boolean threadPerSide) {
        if (!threadPerSide) {
            transfer(ends, size, mtu, packets);
            return;
        }
        AtomicLong received = new AtomicLong();
        AtomicReference<RuntimeException> failed = new AtomicReference<>();
        Thread receiver = Thread.ofPlatform().name("udp_bw receiver").start(() -> {
            try {
                drain(ends, packets, received);
            } catch (RuntimeException e) {
                failed.set(e);
            }
        });
        long sent = 0;
        while (sent < packets && failed.get() == null) {
            if (sent - received.get() >= WINDOW) {
                Thread.onSpinWait();
                continue;
            }
            sent = sendBurst(ends, size, mtu, sent, Math.min(packets, received.get() + WINDOW));
        }
        try {
            receiver.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed.get() != null) {
            throw failed.get();
        }
    }

    /**
     * Sends datagrams {@code sent} up to {@code limit} in one hold of the ends (what a step
     * sends), as many as go. @return the count sent
     */
    private long sendBurst(StreamEnds ends, int size, int mtu, long sent, long limit) {
        ends.hold();
        long from = sent;
        while (sent < limit && sent - from < BURST) {
            int length = payload(size, mtu, sent) + HEADERS;
            if (checksummed) {
                txCrc.reset();
                txCrc.update(tx.clear().limit(length - 4));
                tx.clear().putInt(length - 4, (int) txCrc.getValue());
            }
            if (!ends.send(tx, length)) {
                break;
            }
            sent++;
        }
        return sent - ends.flush();
    }

    /** The payload of datagram {@code index} of a stream of {@code size}-byte messages cut at {@code mtu}. */
    private static int payload(int size, int mtu, long index) {
        int perMessage = Math.max(1, (size + mtu - 1) / mtu);
        return index % perMessage == perMessage - 1 ? size - (perMessage - 1) * mtu : mtu;
    }

    /** The receiving thread of a stream: takes {@code packets} datagrams, publishing its count. */
    private void drain(StreamEnds ends, long packets, AtomicLong received) {
        for (long n = 0; n < packets; ) {
            if (ends.receive(rx)) {
                check(rx);
                received.setRelease(++n);
            }
        }
    }

    /** With {@link #checksummed}, checks the CRC32 in the last four bytes of the datagram received into {@code datagram}. */
    private void check(ByteBuffer datagram) {
        if (checksummed) {
            int length = datagram.position();
            int carried = datagram.getInt(length - 4);
            rxCrc.reset();
            rxCrc.update(datagram.flip().limit(length - 4));
            if ((int) rxCrc.getValue() != carried) {
                throw new IllegalStateException("udp_bw: a datagram of " + length + " bytes came with a wrong CRC32");
            }
        }
    }

    private void transfer(StreamEnds ends, int size, int mtu, long packets) {
        long sent = 0;
        long received = 0;
        while (received < packets) {
            sent = sendBurst(ends, size, mtu, sent, Math.min(packets, received + WINDOW));
            while (ends.receive(rx)) {
                check(rx);
                received++;
            }
        }
    }

    /**
     * The ping-pong, half of each round trip: one thread plays both sides in turn, or, with
     * {@code threadPerSide}, each side has a thread of its own (as ib_write_lat's two processes).
     */
    Result latency(int size, int iterations, int warmUp, boolean threadPerSide) throws IOException {
        long[] ns = new long[iterations];
        WarmUp.run(iterations, warmUp, "udp_lat " + size + (threadPerSide ? " per side" : " one thread"),
                n -> pingPong(size, new long[n], threadPerSide));
        long allocBefore = Allocation.allocatedBytes();
        pingPong(size, ns, threadPerSide);
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        return Result.latency("udp_lat", "DatagramChannel ping-pong " + addressA.getAddress().getHostAddress() + " <-> "
                + addressB.getAddress().getHostAddress() + (threadPerSide ? ", a thread per side" : ", one thread"),
                size, ns, alloc);
    }

    private void pingPong(int size, long[] ns, boolean threadPerSide) throws IOException {
        Thread echo = threadPerSide ? Thread.ofPlatform().name("udp_lat responder").start(() -> echo(size, ns.length)) : null;
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            send(a, tx, size, addressB);
            if (echo == null) {
                awaitDatagram(b, rx);
                send(b, tx, size, addressA);
            }
            awaitDatagram(a, rx);
            ns[i] = (System.nanoTime() - t0) / 2;
        }
        if (echo != null) {
            try {
                echo.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The responding side's thread: answers {@code count} datagrams, each as soon as it comes. */
    private void echo(int size, int count) {
        ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
        ByteBuffer out = ByteBuffer.allocateDirect(size + HEADERS);
        try {
            for (int i = 0; i < count; i++) {
                awaitDatagram(b, in);
                send(b, out, size, addressA);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void send(DatagramChannel from, ByteBuffer buffer, int size, InetSocketAddress to) throws IOException {
        buffer.clear().limit(size + HEADERS);
        from.send(buffer, to);
    }

    /** Spins until a datagram comes to {@code channel} (a non-blocking one). */
    private static void awaitDatagram(DatagramChannel channel, ByteBuffer buffer) throws IOException {
        do {
            buffer.clear();
        } while (channel.receive(buffer) == null);
    }

    @Override
    public void close() throws IOException {
        a.close();
        b.close();
    }
}

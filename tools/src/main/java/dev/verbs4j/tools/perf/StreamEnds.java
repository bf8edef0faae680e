package dev.verbs4j.tools.perf;

import dev.verbs4j.softroce.RawUdpSocket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The two ends of the raw UDP stream: a sender and a receiver, with the system calls of one
 * kind. {@link #hold} and {@link #flush} bracket what the sender sends in one go, as a soft
 * device's step does: ends that batch hand it to the kernel together, the others send each
 * datagram at once.
 */
interface StreamEnds extends AutoCloseable {
    /** Sends {@code buffer[0, length)} from the sender to the receiver. @return false when it could not go now */
    boolean send(ByteBuffer buffer, int length);

    /** Takes one datagram at the receiver into {@code buffer}. @return false when none is waiting */
    boolean receive(ByteBuffer buffer);

    default void hold() {
    }

    /** Sends what was held. @return how many of those datagrams the kernel refused (they did not go) */
    default int flush() {
        return 0;
    }

    /** What the ends are, for the result's description. */
    String describe();

    @Override
    void close();

    /** Bare non-blocking DatagramChannels: a {@code sendto} and a {@code recvfrom} per datagram, through the JDK. */
    static StreamEnds channels(DatagramChannel from, DatagramChannel to, InetSocketAddress toAddress) {
        return new StreamEnds() {
            @Override
            public boolean send(ByteBuffer buffer, int length) {
                try {
                    return from.send(buffer.clear().limit(length), toAddress) != 0;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public boolean receive(ByteBuffer buffer) {
                try {
                    return to.receive(buffer.clear()) != null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public String describe() {
                return "DatagramChannel";
            }

            @Override
            public void close() {
                // the channels belong to the baseline
            }
        };
    }

    /**
     * The soft provider's raw sockets ({@link RawUdpSocket}): a {@code recvfrom} per datagram
     * as a device receives, and what is sent between {@link #hold} and {@link #flush} handed
     * to the kernel in {@code sendmmsg} calls, as a device's step sends.
     */
    static StreamEnds rawSockets(InetSocketAddress fromAddress, InetSocketAddress toAddress) {
        RawUdpSocket from = new RawUdpSocket(fromAddress);
        RawUdpSocket to;
        try {
            to = new RawUdpSocket(toAddress);
        } catch (RuntimeException e) {
            from.close();
            throw e;
        }
        return new StreamEnds() {
            @Override
            public boolean send(ByteBuffer buffer, int length) {
                return from.send(buffer, length, toAddress);
            }

            @Override
            public boolean receive(ByteBuffer buffer) {
                return to.receive(buffer) >= 0;
            }

            @Override
            public void hold() {
                from.holdSends();
            }

            @Override
            public int flush() {
                return from.flushSends();
            }

            @Override
            public String describe() {
                return "raw sockets, sends held per step (sendmmsg)";
            }

            @Override
            public void close() {
                from.close();
                to.close();
            }
        };
    }
}

package dev.verbs4j.softroce;

import dev.verbs4j.softroce.transport.ForwardingLink;
import dev.verbs4j.softroce.transport.Link;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link Link} that passes everything through to another link and shows each packet its
 * device sends to an observer first: a tap on the wire for tests that record real traffic
 * (to replay and mutate it) or learn a device's state from what it answers.
 */
final class RecordingLink extends ForwardingLink {
    /** One sent packet: the UDP payload and where it went. */
    record Sent(byte[] bytes, InetSocketAddress destination) {
    }

    private final List<Sent> recorded = new ArrayList<>();
    private boolean recording;
    private Consumer<ByteBuffer> observer;
    private long sentTo;
    private InetSocketAddress counted;

    RecordingLink(Link inner) {
        super(inner);
    }

    /** Starts or stops keeping a copy of every packet sent. */
    void recording(boolean on) {
        recording = on;
    }

    /** The packets kept while recording, oldest first. */
    List<Sent> recorded() {
        return recorded;
    }

    /** Shows every packet sent from now on to {@code packetObserver} (the buffer holds it from position 0 to its limit). */
    void observe(Consumer<ByteBuffer> packetObserver) {
        observer = packetObserver;
    }

    /** Counts the packets sent to {@code destination} from now on. */
    void countSendsTo(InetSocketAddress destination) {
        counted = destination;
        sentTo = 0;
    }

    /** Packets sent to the address given to {@link #countSendsTo}. */
    long sentToCounted() {
        return sentTo;
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        if (recording) {
            byte[] copy = new byte[length];
            buffer.get(0, copy, 0, length);
            recorded.add(new Sent(copy, destination));
        }
        if (observer != null) {
            observer.accept(buffer.slice(0, length));
        }
        if (destination.equals(counted)) {
            sentTo++;
        }
        return inner.send(buffer, length, destination);
    }
}

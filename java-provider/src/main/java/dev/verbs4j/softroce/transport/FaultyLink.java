package dev.verbs4j.softroce.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A link that applies a {@link FaultInjector} to what it sends: packets are lost,
 * sent twice, held back behind the next packet, or sent with one bit flipped. Only the
 * held-back packet is copied (into a buffer allocated once).
 */
public final class FaultyLink extends ForwardingLink {
    private final FaultInjector faults;
    private final ByteBuffer held = ByteBuffer.allocateDirect(1 << 16);
    private int heldLength = -1;
    private InetSocketAddress heldDestination;
    private long lost;
    private long duplicated;
    private long reordered;
    private long corrupted;

    public FaultyLink(Link inner, FaultInjector faults) {
        super(inner);
        this.faults = faults;
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        if (faults.lose()) {
            lost++;
            return true;
        }
        if (faults.corrupt()) {
            corrupted++;
            int at = faults.nextInt(length);
            buffer.put(at, (byte) (buffer.get(at) ^ (1 << faults.nextInt(8))));
        }
        if (heldLength < 0 && faults.reorder()) {
            reordered++;
            held.clear();
            held.put(0, buffer, 0, length);
            heldLength = length;
            heldDestination = destination;
            return true;
        }
        boolean ok = inner.send(buffer, length, destination);
        if (faults.duplicate()) {
            duplicated++;
            inner.send(buffer, length, destination);
        }
        if (heldLength >= 0) {
            inner.send(held, heldLength, heldDestination);
            heldLength = -1;
        }
        return ok;
    }

    public long lost() { return lost; }
    public long duplicated() { return duplicated; }
    public long reordered() { return reordered; }
    public long corrupted() { return corrupted; }
}

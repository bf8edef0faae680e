package dev.verbs4j.softroce.transport;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A link over another link: receiving, waiting, waking and closing pass through unchanged,
 * and each subclass decides what happens to what its device sends (lose it, record it,
 * rewrite it).
 */
public abstract class ForwardingLink implements Link {
    protected final Link inner;

    protected ForwardingLink(Link inner) {
        this.inner = inner;
    }

    @Override
    public java.net.InetAddress receivedAt() {
        return inner.receivedAt();
    }

    @Override
    public java.net.InetAddress sourceFor(InetSocketAddress destination) {
        return inner.sourceFor(destination);
    }

    @Override
    public InetSocketAddress localAddress() {
        return inner.localAddress();
    }

    @Override
    public int receiveBufferBytes() {
        return inner.receiveBufferBytes();
    }

    @Override
    public void segmentSends(Ipv4IdStamp stamp) {
        inner.segmentSends(stamp);
    }

    @Override
    public long segmentedRuns() {
        return inner.segmentedRuns();
    }

    @Override
    public void holdSends() {
        inner.holdSends();
    }

    @Override
    public int flushSends() {
        return inner.flushSends();
    }

    @Override
    public int receive(ByteBuffer buffer) {
        return inner.receive(buffer);
    }

    @Override
    public int receiveInPlace(ByteBuffer buffer) {
        return inner.receiveInPlace(buffer);
    }

    @Override
    public MemorySegment heldSegment() {
        return inner.heldSegment();
    }

    @Override
    public long heldOffset() {
        return inner.heldOffset();
    }

    @Override
    public boolean lastWaiting() {
        return inner.lastWaiting();
    }

    @Override
    public InetSocketAddress source() {
        return inner.source();
    }

    @Override
    public int sourceSlot() {
        return inner.sourceSlot();
    }

    @Override
    public void await(long timeoutNs) {
        inner.await(timeoutNs);
    }

    @Override
    public void wakeup() {
        inner.wakeup();
    }

    @Override
    public void close() {
        inner.close();
    }
}

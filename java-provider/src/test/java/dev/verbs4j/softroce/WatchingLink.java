package dev.verbs4j.softroce;

import dev.verbs4j.softroce.transport.ForwardingLink;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.wire.PacketView;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A link that records the opcode and PSN of every packet it sends, and drops or holds back
 * the ones a test chooses, or sends them twice (held packets and second copies go out, in
 * order, when the test releases them);
 * for state machine tests.
 */
final class WatchingLink extends ForwardingLink {
    private final PacketView view = new PacketView();
    volatile Predicate<PacketView> drop = p -> false;
    volatile Predicate<PacketView> hold = p -> false;
    /** Packets that go out now and again, as a copy, when the test releases the held ones. */
    volatile Predicate<PacketView> duplicate = p -> false;
    final List<int[]> sent = new ArrayList<>();
    /** The opcodes sent in each {@link #holdSends} to {@link #flushSends} that sent any, one list per hold. */
    final List<List<Integer>> holds = new ArrayList<>();
    private List<Integer> holding;
    private final List<Held> held = new ArrayList<>();

    private record Held(ByteBuffer packet, int length, InetSocketAddress destination) {
    }

    WatchingLink(Link inner) {
        super(inner);
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        if (view.wrap(MemorySegment.ofBuffer(buffer.duplicate().clear()), 0, length)) {
            int syndrome = view.has(dev.verbs4j.softroce.wire.OpcodeTable.HAS_AETH) ? view.aeth().syndrome() : -1;
            sent.add(new int[] {view.opcode(), view.bth().psn(), view.bth().ackReq() ? 1 : 0, syndrome});
            if (holding != null) {
                holding.add(view.opcode());
            }
            if (drop.test(view)) {
                return true;
            }
            boolean twice = duplicate.test(view);
            if (twice || hold.test(view)) {
                ByteBuffer copy = ByteBuffer.allocateDirect(length);
                copy.put(buffer.duplicate().clear().limit(length));
                held.add(new Held(copy, length, destination));
                if (!twice) {
                    return true;
                }
            }
        }
        return inner.send(buffer, length, destination);
    }

    @Override
    public void holdSends() {
        holding = new ArrayList<>();
        holds.add(holding);
        super.holdSends();
    }

    @Override
    public int flushSends() {
        if (holding != null && holding.isEmpty()) {
            holds.remove(holds.size() - 1);
        }
        holding = null;
        return super.flushSends();
    }

    /** How many packets are held back. */
    int heldCount() {
        return held.size();
    }

    /** Sends the held packets, oldest first. */
    void release() {
        release(held.size());
    }

    /** Sends the {@code count} oldest held packets. */
    void release(int count) {
        for (int i = 0; i < count; i++) {
            Held h = held.removeFirst();
            inner.send(h.packet().clear(), h.length(), h.destination());
        }
    }

    /** Sends raw bytes as if this device had sent them (bypassing its engine). */
    void inject(MemorySegment packet, int length, InetSocketAddress destination) {
        ByteBuffer b = ByteBuffer.allocateDirect(length);
        MemorySegment.copy(packet, 0, MemorySegment.ofBuffer(b), 0, length);
        inner.send(b, length, destination);
    }

    /** The AETH syndromes of the ACK/NAK packets sent, in order. */
    List<Integer> syndromes() {
        return sent.stream().filter(p -> p[0] == dev.verbs4j.softroce.wire.Opcodes.RC_ACKNOWLEDGE).map(p -> p[3]).toList();
    }

    /** How many sent packets had this opcode. */
    long count(int opcode) {
        return sent.stream().filter(p -> p[0] == opcode).count();
    }

    /** The simulated pair steps its engines itself: nothing waits. */
    @Override
    public void await(long timeoutNs) {
    }

    @Override
    public void wakeup() {
    }
}

package dev.verbs4j.softroce;

import dev.verbs4j.softroce.transport.ForwardingLink;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A link that sends every packet as the kernel's rxe would: with an IPv4 Identification that
 * is not 0 (here a counter from {@code firstId}, as {@code __ip_select_ident()} might give),
 * so the ICRC is recomputed over that ID. The IDs used are kept, in order, for a test to
 * compare with what the receiver recovered.
 */
final class KernelIdLink extends ForwardingLink {
    private final Icrc icrc = new Icrc();
    private final UdpFlow flow = new UdpFlow();
    private final List<Integer> ids = new ArrayList<>();
    private int nextId;

    KernelIdLink(Link inner, int firstId) {
        super(inner);
        this.nextId = firstId;
    }

    /** The IPv4 Identifications of the packets sent so far, oldest first. */
    List<Integer> ids() {
        return ids;
    }

    @Override
    public int sourcePort(int wanted) {
        return inner.sourcePort(wanted);
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        return send(buffer, length, destination, localAddress().getPort());
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination, int sourcePort) {
        int id = nextId;
        nextId = (nextId + 7) & 0xFFFF;
        if (id == 0) {
            id = nextId;
            nextId = (nextId + 7) & 0xFFFF;
        }
        flow.set(localAddress().getAddress(), sourcePort, destination.getAddress(), destination.getPort());
        icrc.generate(flow, id, MemorySegment.ofBuffer(buffer.duplicate().clear()), 0, length);
        ids.add(id);
        return inner.send(buffer, length, destination, sourcePort);
    }
}

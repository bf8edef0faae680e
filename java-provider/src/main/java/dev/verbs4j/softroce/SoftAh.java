package dev.verbs4j.softroce;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.softroce.engine.AddressTarget;
import dev.verbs4j.softroce.wire.UdpFlow;
import dev.verbs4j.spi.Resource;

import java.net.InetSocketAddress;

/** An address handle: the peer's UDP address and the flow the ICRC covers. */
final class SoftAh extends Resource implements AddressHandle, AddressTarget {
    final SoftPd pd;
    private final AddressHandleAttributes attributes;
    private final InetSocketAddress address;
    private final UdpFlow flow;

    SoftAh(SoftPd pd, AddressHandleAttributes attributes) {
        // What can fail comes before the domain is retained: a refused handle leaves no count on it.
        InetSocketAddress peer = pd.context.engine.peerAddressOf(attributes.dgid());
        UdpFlow peerFlow = pd.context.engine.flowTo(peer);
        super("address handle", pd);
        this.pd = pd;
        this.attributes = attributes;
        this.address = peer;
        this.flow = peerFlow;
    }

    @Override
    public AddressHandleAttributes attributes() {
        return attributes;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public UdpFlow flow() {
        return flow;
    }

    @Override
    protected void destroy() {
    }
}

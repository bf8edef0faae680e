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
        super("address handle", pd);
        this.pd = pd;
        this.attributes = attributes;
        this.address = pd.context.engine.peerAddressOf(attributes.dgid());
        this.flow = pd.context.engine.flowTo(address);
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

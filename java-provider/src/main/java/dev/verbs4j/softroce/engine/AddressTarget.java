package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.wire.UdpFlow;

import java.net.InetSocketAddress;

/** Where a UD send goes: implemented by the soft provider's address handles. */
public interface AddressTarget {
    /** The peer's UDP address. */
    InetSocketAddress address();

    /** The flow from this device to the peer, for the ICRC. */
    UdpFlow flow();
}

package dev.verbs4j.softroce.transport;

import java.lang.foreign.MemorySegment;

/**
 * What a datagram's bytes owe to the IPv4 Identification it travels with. A link that hands
 * the kernel a run of datagrams as one segmented send ({@link Link#segmentSends}) gets them
 * numbered 0, 1, 2, ... by the kernel that cuts them apart, where a datagram sent alone from
 * the link's sockets (Don't Fragment, no connected peer) travels with ID 0. The RoCE ICRC
 * covers the ID, so each datagram after the first of a run is changed for its ID first.
 */
public interface Ipv4IdStamp {
    /** Datagrams whose bytes do not depend on the ID (a raw UDP stream). */
    Ipv4IdStamp NONE = new Ipv4IdStamp() {
        @Override
        public boolean changeable(MemorySegment datagram, int length) {
            return true;
        }

        @Override
        public void change(MemorySegment datagram, int length, int idChange) {
        }
    };

    /** Whether {@code datagram[0, length)} may travel with another ID than the one it was built for. */
    boolean changeable(MemorySegment datagram, int length);

    /**
     * Makes {@code datagram[0, length)}, built for ID x, right for ID x XOR {@code idChange};
     * changed twice with the same value, it is as before.
     */
    void change(MemorySegment datagram, int length, int idChange);
}

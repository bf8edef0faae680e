package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.transport.Ipv4IdStamp;
import dev.verbs4j.softroce.wire.Bth;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.Ipv4IdTables;
import dev.verbs4j.softroce.wire.Opcodes;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What a RoCE packet owes to its IPv4 Identification: the ICRC, built for ID 0 and changed
 * for another with {@link Icrc#changeIpv4Id}. A FLUSH keeps ID 0 (it travels alone), since
 * the kernel rxe's FLUSH ICRC, which a device may build, covers the ID differently. One per
 * device.
 */
final class IcrcIdStamp implements Ipv4IdStamp {
    /** The products for the changes: the engine's lock keeps its sends, and so these, to one thread at a time. */
    private final Ipv4IdTables tables = new Ipv4IdTables();

    @Override
    public boolean changeable(MemorySegment datagram, int length) {
        return length >= Bth.LENGTH + Icrc.LENGTH && Byte.toUnsignedInt(datagram.get(ValueLayout.JAVA_BYTE, 0)) != Opcodes.RC_FLUSH;
    }

    @Override
    public void change(MemorySegment datagram, int length, int idChange) {
        Icrc.changeIpv4Id(datagram, length, idChange, tables);
    }
}

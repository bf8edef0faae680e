package dev.verbs4j.softroce.cm;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

/** Where the {@link CmAgent} sends its MADs: QP1 of the device at an address. */
@FunctionalInterface
public interface MadSink {
    /** @return whether the link took the MAD */
    boolean send(InetAddress destination, MemorySegment mad);
}

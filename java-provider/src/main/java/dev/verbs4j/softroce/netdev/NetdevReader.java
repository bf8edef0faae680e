package dev.verbs4j.softroce.netdev;

import java.io.IOException;
import java.util.Optional;

/**
 * Reads a network interface's state. {@link LinuxNetdevReader} reads the machine's; tests
 * give their own.
 */
@FunctionalInterface
public interface NetdevReader {
    /**
     * The interface's state now.
     *
     * @param name the interface's name
     * @return its state, or empty when there is no such interface
     * @throws IOException when it cannot be read
     */
    Optional<NetdevSnapshot> read(String name) throws IOException;
}

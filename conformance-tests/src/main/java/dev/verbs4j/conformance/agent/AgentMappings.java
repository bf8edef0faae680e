package dev.verbs4j.conformance.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The agent's side of the shared memory: the range reserved at the test process's address,
 * and the files mapped into it (or, for persistent memory, through {@code FileChannel.map})
 * as the test process first names them.
 */
final class AgentMappings {
    private long reservedBase;
    private long reservedSize;
    private final Map<String, Mapped> mapped = new HashMap<>();

    private record Mapped(SharedMapping.Kind kind, MemorySegment whole, Arena arena) implements SharedMapping.Held {
    }

    /** Reserves the range the test process reserved; false when something of this process is there. */
    synchronized boolean reserve(long base, long size) {
        if (reservedSize != 0) {
            throw new IllegalStateException("the agent already reserved a range");
        }
        long at = Posix.mmap(base, size, Posix.PROT_NONE,
                Posix.MAP_PRIVATE | Posix.MAP_ANONYMOUS | Posix.MAP_NORESERVE | Posix.MAP_FIXED_NOREPLACE, -1, 0);
        if (at != base) {
            if (at != -1) {
                Posix.munmap(at, size);
            }
            return false;
        }
        reservedBase = base;
        reservedSize = size;
        return true;
    }

    /** This process's view of the memory {@code m} names, mapping its file on first use. */
    synchronized MemorySegment resolve(SharedMapping m) {
        Mapped known = mapped.get(m.path());
        if (known == null) {
            known = m.kind() == SharedMapping.Kind.AT_SAME_ADDRESS ? mapAtSameAddress(m) : mapFile(m);
            mapped.put(m.path(), known);
        }
        return m.slice(known.whole());
    }

    private Mapped mapAtSameAddress(SharedMapping m) {
        if (m.base() < reservedBase || m.base() + m.size() > reservedBase + reservedSize) {
            throw new IllegalArgumentException("shared memory at 0x" + Long.toHexString(m.base()) + " lies outside the reserved range");
        }
        int fd = Posix.open(m.path(), false);
        try {
            if (Posix.mmap(m.base(), m.size(), Posix.PROT_READ_WRITE, Posix.MAP_SHARED | Posix.MAP_FIXED, fd, 0) != m.base()) {
                throw new IllegalStateException("cannot map " + m.path());
            }
        } finally {
            Posix.close(fd);
        }
        return new Mapped(m.kind(), Posix.at(m.base(), m.size()), null);
    }

    private static Mapped mapFile(SharedMapping m) {
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(Path.of(m.path()), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new Mapped(m.kind(), channel.map(FileChannel.MapMode.READ_WRITE, 0, m.size(), arena), arena);
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException("cannot map " + m.path(), e);
        }
    }

    /** How the test process finds {@code segment}; an address outside every shared file crosses as it is. */
    synchronized SharedMapping name(MemorySegment segment) {
        return SharedMapping.find(segment, mapped).orElseGet(() -> new SharedMapping("", SharedMapping.Kind.AT_SAME_ADDRESS,
                segment.address(), segment.byteSize(), 0, segment.byteSize()));
    }

    /** The test process freed {@code path}: unmap it (a same-address range goes back to the reservation). */
    synchronized void forget(String path) {
        Mapped m = mapped.remove(path);
        if (m == null) {
            return;
        }
        if (m.arena() != null) {
            m.arena().close();
        } else {
            Posix.reserve(m.whole().address(), m.whole().byteSize());
        }
    }
}

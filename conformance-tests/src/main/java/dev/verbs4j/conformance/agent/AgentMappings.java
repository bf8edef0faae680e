package dev.verbs4j.conformance.agent;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's side of the shared memory: the range reserved at the test process's address,
 * and the files mapped into it (or, for persistent memory, through {@code FileChannel.map})
 * as the test process first names them. In channel mode ({@link SharedMemory.Mode#CHANNEL})
 * each named piece is memory of this process instead (for persistent memory, a file of its
 * own), with a shadow of what the test process was last told, and the changes travel as
 * {@link MemoryRuns} with each call.
 */
final class AgentMappings {
    private long reservedBase;
    private long reservedSize;
    private boolean channel;
    private final Map<String, Mapped> mapped = new LinkedHashMap<>();

    /** A mapping; {@code shadow} and {@code file} only in channel mode (the file only for persistent memory). */
    private record Mapped(SharedMapping.Kind kind, MemorySegment whole, Arena arena, MemorySegment shadow, Path file)
            implements SharedMapping.Held {
    }

    /** Reserves the range the test process reserved; false when something of this process is there. */
    synchronized boolean reserve(long base, long size, boolean overChannel) {
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
        channel = overChannel;
        return true;
    }

    /** This process's view of the memory {@code m} names, mapping its file on first use. */
    synchronized MemorySegment resolve(SharedMapping m) {
        Mapped known = mapped.get(m.path());
        if (known == null) {
            if (channel) {
                known = m.kind() == SharedMapping.Kind.AT_SAME_ADDRESS ? ownAtSameAddress(m) : ownFile(m);
            } else {
                known = m.kind() == SharedMapping.Kind.AT_SAME_ADDRESS ? mapAtSameAddress(m) : mapFile(m);
            }
            mapped.put(m.path(), known);
        }
        return m.slice(known.whole());
    }

    private void checkInReservation(SharedMapping m) {
        if (m.base() < reservedBase || m.base() + m.size() > reservedBase + reservedSize || m.size() <= 0) {
            throw new IllegalArgumentException("shared memory at 0x" + Long.toHexString(m.base()) + " lies outside the reserved range");
        }
    }

    /** Channel mode: zeroed memory of this process at the test process's address. */
    private Mapped ownAtSameAddress(SharedMapping m) {
        checkInReservation(m);
        if (Posix.mmap(m.base(), m.size(), Posix.PROT_READ_WRITE, Posix.MAP_PRIVATE | Posix.MAP_ANONYMOUS | Posix.MAP_FIXED, -1, 0)
                != m.base()) {
            throw new IllegalStateException("cannot map memory at 0x" + Long.toHexString(m.base()));
        }
        return new Mapped(m.kind(), Posix.at(m.base(), m.size()), null, shadow(m.size()), null);
    }

    /** Channel mode: a zero-filled file of this process's own, for persistent memory. */
    private static Mapped ownFile(SharedMapping m) {
        Arena arena = Arena.ofShared();
        try {
            Path file = Files.createTempFile(AgentDevice.defaultFolder(), "verbs4j-agent-pmem-", "");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                channel.truncate(m.size());
                return new Mapped(m.kind(), channel.map(FileChannel.MapMode.READ_WRITE, 0, m.size(), arena), arena, shadow(m.size()), file);
            }
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException("cannot make a file for persistent memory", e);
        }
    }

    private static MemorySegment shadow(long size) {
        return Arena.ofAuto().allocate(size, 4096);
    }

    private Mapped mapAtSameAddress(SharedMapping m) {
        checkInReservation(m);
        int fd = Posix.open(m.path(), false);
        try {
            if (Posix.mmap(m.base(), m.size(), Posix.PROT_READ_WRITE, Posix.MAP_SHARED | Posix.MAP_FIXED, fd, 0) != m.base()) {
                throw new IllegalStateException("cannot map " + m.path());
            }
        } finally {
            Posix.close(fd);
        }
        return new Mapped(m.kind(), Posix.at(m.base(), m.size()), null, null, null);
    }

    private static Mapped mapFile(SharedMapping m) {
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(Path.of(m.path()), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new Mapped(m.kind(), channel.map(FileChannel.MapMode.READ_WRITE, 0, m.size(), arena), arena, null, null);
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
        if (m.file() != null) {
            try {
                Files.deleteIfExists(m.file());
            } catch (IOException e) {
                // Left for the temporary folder's cleaning.
            }
        }
    }

    /** Applies the runs the test process wrote (channel mode), mapping a piece named for the first time. */
    synchronized MemoryRuns.Moved readChanges(DataInputStream in) throws IOException {
        return MemoryRuns.read(in, whole -> {
            if (!channel) {
                throw new IllegalStateException("memory changes on the channel, but the memory is shared through files");
            }
            resolve(whole);
            Mapped m = mapped.get(whole.path());
            return new MemoryRuns.Mirrored(whole, m.whole(), m.shadow());
        });
    }

    /** Writes the runs this process's memory gained since the test process last heard (an empty block in file mode). */
    synchronized MemoryRuns.Moved writeChanges(DataOutputStream out) throws IOException {
        List<MemoryRuns.Mirrored> all = new ArrayList<>();
        for (Map.Entry<String, Mapped> e : mapped.entrySet()) {
            Mapped m = e.getValue();
            if (m.shadow() != null) {
                all.add(new MemoryRuns.Mirrored(SharedMapping.whole(e.getKey(), m), m.whole(), m.shadow()));
            }
        }
        return MemoryRuns.write(out, all);
    }
}

package dev.verbs4j.conformance.agent;

import dev.verbs4j.conformance.fixture.MemorySource;
import dev.verbs4j.conformance.fixture.Testbed;

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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The test process's side of the memory it shares with an agent. Every allocation lies
 * inside an address range both processes reserved at the same address, so an address in a
 * work request (a scatter/gather entry, a fast-register page list) means the same bytes in
 * both. How the bytes themselves are shared depends on the mode:
 * <ul>
 *   <li>{@link Mode#FILES}: each allocation is a file of its own in a folder both processes
 *   see (tmpfs), mapped by both, so a case reads and writes the remote side's bytes
 *   directly;</li>
 *   <li>{@link Mode#CHANNEL}: each process has its own copy, and what changed travels over
 *   the control channel with every call on the agent, and with every call on the local side
 *   that can move the remote side's bytes ({@link LocalCalls}): the runs this process wrote
 *   before the call, the runs the agent's memory gained after it. Nothing needs to be
 *   shared but the TCP connection, so the agent may run on another host.</li>
 * </ul>
 * Persistent memory is a file mapped with {@code FileChannel.map} on each side, at addresses
 * of its own (in channel mode, a file of each process's own).
 * Closing ends the session with the agent.
 * It has no libibverbs counterpart: it is how two processes of a run see the same bytes, which libibverbs leaves to the application.
 */
public final class SharedMemory implements MemorySource {
    /** The reserved range: large enough for any case's memory, only address space until used. */
    static final long RESERVATION = 64L << 30;
    /** Where the reservation is tried first: far from the heap (low) and from the libraries (near the top). */
    private static final long FIRST_BASE = 0x3000_0000_0000L;
    private static final long PAGE = Testbed.PAGE;
    private static final AtomicLong NAMES = new AtomicLong();
    private static final String PREFIX = "verbs4j-shared-";

    private final AgentClient agent;
    private final Path folder;
    private final long base;
    private final Map<String, Owned> owned = new LinkedHashMap<>();
    /** The files named to the agent: only those may be mapped there, so only those are forgotten there. */
    private final Set<String> namedToAgent = new HashSet<>();
    private long next;

    /** The copies the agent has been told of (channel mode), by path: what this process believes the agent holds. */
    private final Map<String, MemorySegment> shadows = new LinkedHashMap<>();
    private final Mode mode;

    /** How the two processes see the same bytes. */
    public enum Mode {
        /** Files in a folder both processes see. */
        FILES,
        /** Copies kept equal over the control channel. */
        CHANNEL
    }

    private record Owned(SharedMapping.Kind kind, MemorySegment whole) implements SharedMapping.Held {
    }

    private SharedMemory(AgentClient agent, Path folder, long base, Mode mode) {
        this.agent = agent;
        this.folder = folder;
        this.base = base;
        this.mode = mode;
    }

    /** Reserves a range at an address the agent can reserve too. */
    static SharedMemory reserve(AgentClient agent, Path folder, Mode mode) {
        removeLeftovers(folder);
        for (int attempt = 0; attempt < 16; attempt++) {
            long candidate = FIRST_BASE + attempt * (RESERVATION * 4);
            long at = Posix.mmap(candidate, RESERVATION, Posix.PROT_NONE,
                    Posix.MAP_PRIVATE | Posix.MAP_ANONYMOUS | Posix.MAP_NORESERVE | Posix.MAP_FIXED_NOREPLACE, -1, 0);
            if (at != candidate) {
                if (at != -1) {
                    Posix.munmap(at, RESERVATION);
                }
                continue;
            }
            if (agent.reserve(candidate, RESERVATION, mode == Mode.CHANNEL)) {
                return new SharedMemory(agent, folder, candidate, mode);
            }
            Posix.munmap(candidate, RESERVATION);
        }
        throw new IllegalStateException("found no address range both this process and the agent can reserve");
    }

    /** Files of test processes that ended without freeing them (a crashed run). */
    private static void removeLeftovers(Path folder) {
        try (var files = Files.list(folder)) {
            files.filter(f -> f.getFileName().toString().startsWith(PREFIX)).forEach(f -> {
                String[] parts = f.getFileName().toString().substring(PREFIX.length()).split("-");
                boolean ownerGone = parts.length == 2 && parts[0].matches("\\d+")
                        && ProcessHandle.of(Long.parseLong(parts[0])).isEmpty();
                if (ownerGone) {
                    try {
                        Files.deleteIfExists(f);
                    } catch (IOException e) {
                        // Another process's file after all, or gone already.
                    }
                }
            });
        } catch (IOException e) {
            // An unreadable folder: the allocations will say so.
        }
    }

    @Override
    public synchronized MemorySegment memory(long bytes, Arena arena) {
        return sameAddress(Math.max(1, bytes), arena);
    }

    @Override
    public synchronized MemorySegment freshPages(long bytes, Arena arena) {
        // A new file has no pages at all: the first touch in either process faults one in.
        return sameAddress(bytes, arena);
    }

    private MemorySegment sameAddress(long bytes, Arena arena) {
        long size = Math.max(PAGE, (bytes + PAGE - 1) / PAGE * PAGE);
        if (next + size > RESERVATION) {
            throw new IllegalStateException("a case's shared memory is limited to " + (RESERVATION >> 30) + " GiB");
        }
        long at = base + next;
        String path = newFile().toString();
        if (mode == Mode.CHANNEL) {
            // Memory of this process only: the path names it on the channel, no file is made.
            if (Posix.mmap(at, size, Posix.PROT_READ_WRITE, Posix.MAP_PRIVATE | Posix.MAP_ANONYMOUS | Posix.MAP_FIXED, -1, 0) != at) {
                throw new IllegalStateException("cannot map memory into the reserved range");
            }
        } else {
            int fd = Posix.open(path, true);
            try {
                Posix.truncate(fd, size);
                if (Posix.mmap(at, size, Posix.PROT_READ_WRITE, Posix.MAP_SHARED | Posix.MAP_FIXED, fd, 0) != at) {
                    throw new IllegalStateException("cannot map " + path + " into the shared range");
                }
            } finally {
                Posix.close(fd);
            }
        }
        next += size;
        owned.put(path, new Owned(SharedMapping.Kind.AT_SAME_ADDRESS, Posix.at(at, size)));
        // The case gets a view in its arena's scope: once the case ends, a thread that still
        // holds it (a reader the case started) fails with IllegalStateException instead of
        // touching the range, which release() makes inaccessible again.
        return MemorySegment.ofAddress(at).reinterpret(size, arena, unused -> release(path)).asSlice(0, bytes);
    }

    @Override
    public synchronized MemorySegment mappedFile(long bytes, Arena arena) {
        Path file = newFile();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            channel.truncate(bytes);
            MemorySegment whole = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
            owned.put(file.toString(), new Owned(SharedMapping.Kind.MAPPED_FILE, whole));
            MemorySegment.ofAddress(0).reinterpret(0, arena, unused -> release(file.toString()));
            return whole;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map a file for persistent memory", e);
        }
    }

    private Path newFile() {
        return folder.resolve(PREFIX + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet());
    }

    /** The case that allocated {@code path} is over: the agent lets go, the range is reserved again, the file removed. */
    private synchronized void release(String path) {
        Owned o = owned.remove(path);
        if (o == null) {
            return;
        }
        shadows.remove(path);
        try {
            if (namedToAgent.remove(path)) {
                agent.forget(path);
            }
        } finally {
            if (o.kind() == SharedMapping.Kind.AT_SAME_ADDRESS) {
                Posix.reserve(o.whole().address(), o.whole().byteSize());
            }
            try {
                Files.deleteIfExists(Path.of(path));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (owned.values().stream().noneMatch(x -> x.kind() == SharedMapping.Kind.AT_SAME_ADDRESS)) {
                next = 0;
            }
        }
    }

    /** How the agent finds {@code segment}, which must lie in memory this object handed out. */
    synchronized SharedMapping name(MemorySegment segment) {
        SharedMapping mapping = SharedMapping.find(segment, owned).orElseThrow(() -> new IllegalArgumentException("memory at 0x"
                + Long.toHexString(segment.address()) + " is not shared with the agent: "
                + "give the remote side memory from Testbed.memory, freshPages or mappedFile"));
        namedToAgent.add(mapping.path());
        if (mode == Mode.CHANNEL && !shadows.containsKey(mapping.path())) {
            // The agent's copy starts zeroed, as this one did: what differs is what to send.
            shadows.put(mapping.path(), Arena.ofAuto().allocate(owned.get(mapping.path()).whole().byteSize(), PAGE));
        }
        return mapping;
    }

    /** How the bytes are shared. */
    Mode mode() {
        return mode;
    }

    /** Whether this process wrote bytes the agent has not been sent. */
    synchronized boolean changedHere() {
        return mirrored().stream().anyMatch(MemoryRuns::differs);
    }

    /** Writes the runs this process changed since the agent last heard (an empty block in file mode). */
    synchronized MemoryRuns.Moved writeChanges(DataOutputStream out) throws IOException {
        return MemoryRuns.write(out, mirrored());
    }

    /** Applies the runs the agent's memory gained. */
    synchronized MemoryRuns.Moved readChanges(DataInputStream in) throws IOException {
        return MemoryRuns.read(in, whole -> {
            Owned o = owned.get(whole.path());
            MemorySegment shadow = shadows.get(whole.path());
            return o == null || shadow == null ? null : new MemoryRuns.Mirrored(whole, o.whole(), shadow);
        });
    }

    private List<MemoryRuns.Mirrored> mirrored() {
        List<MemoryRuns.Mirrored> all = new ArrayList<>(shadows.size());
        for (Map.Entry<String, MemorySegment> e : shadows.entrySet()) {
            Owned o = owned.get(e.getKey());
            all.add(new MemoryRuns.Mirrored(SharedMapping.whole(e.getKey(), o), o.whole(), e.getValue()));
        }
        return all;
    }

    /** This process's view of memory the agent names. */
    synchronized MemorySegment resolve(SharedMapping mapping) {
        Owned o = owned.get(mapping.path());
        if (o == null) {
            throw new IllegalStateException("the agent names memory this process no longer maps: " + mapping.path());
        }
        return mapping.slice(o.whole());
    }

    @Override
    public void close() {
        try {
            agent.close();
        } finally {
            Posix.munmap(base, RESERVATION);
        }
    }
}

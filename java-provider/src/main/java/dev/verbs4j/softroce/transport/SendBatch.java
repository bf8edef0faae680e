package dev.verbs4j.softroce.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Datagrams held for one {@code sendmmsg}: an array of {@code struct mmsghdr} (the layout
 * {@link ReceiveBatch} describes), each with one {@code iovec} over its own room for the
 * datagram (copied there, or built there: {@link #slot}) and its own copy of the
 * destination's socket address, all allocated once, when
 * the link first holds its sends, with room for datagrams of a given size. All datagrams of a
 * batch leave from one socket.
 * <p>
 * With {@linkplain #segmentRuns segmented runs}, consecutive datagrams of one size to one
 * destination (the last of a run may be shorter) leave as one message: its iovecs are theirs,
 * and a {@code UDP_SEGMENT} control message tells the kernel where to cut. The kernel numbers
 * the datagrams of a run 0, 1, 2, ... in their IPv4 Identification, so each after the first
 * is changed for its number first ({@link Ipv4IdStamp}). Where the kernel refuses a run and
 * then takes its datagrams one by one, it cannot segment on this path, and the batch sends
 * each alone from then on.
 */
final class SendBatch {
    static final int CAPACITY = 16;
    private static final long MMSGHDR_SIZE = 64;
    private static final long IOVEC_SIZE = 16;
    private static final long NAME_SIZE = 32;
    /** A run's datagrams as the kernel's limit for one segmented send allows (UDP_MAX_SEGMENTS, 64 before Linux 6.12). */
    static final int MAX_RUN = 64;
    /** A run's bytes: one UDP datagram's payload at most (65,535 less the IPv6 and UDP headers, with room). */
    static final int MAX_RUN_BYTES = 65_000;
    /** {@code CMSG_SPACE(sizeof(uint16_t))}: the 16-byte header and the size, aligned to 8. */
    private static final long CONTROL_SPACE = 24;

    private final long room;
    private final MemorySegment messages;
    /** {@link #messages} from each index on, {@linkplain NativeUdpLink#forCalls for calls}. */
    private final MemorySegment[] messagesFrom = new MemorySegment[CAPACITY];
    private final MemorySegment iovecs;
    /** Each datagram's room, and one more: where the next may be built while the batch is full ({@link #slot}). */
    private final MemorySegment[] data = new MemorySegment[CAPACITY + 1];
    private final MemorySegment[] names = new MemorySegment[CAPACITY];
    /**
     * Each datagram's destination as the first 8 bytes of its socket address: family, port
     * and, for a {@code sockaddr_in}, the whole address (runs are made on IPv4 sockets only).
     */
    private final long[] destinations = new long[CAPACITY];
    private final int[] lengths = new int[CAPACITY];
    private int count;
    private int socket = -1;

    /** One message per run, each with its control message; null until runs are asked for. */
    private MemorySegment runs;
    private MemorySegment[] runsFrom;
    private MemorySegment[] runControls;
    /** The iovecs from each datagram on. */
    private final MemorySegment[] iovecsFrom = new MemorySegment[CAPACITY];
    /** Where each run starts in the batch, and one past the last: {@code runStart[runCount]} is {@link #count}. */
    private final int[] runStart = new int[CAPACITY + 1];
    private Ipv4IdStamp stamp;
    private long runsSent;
    /** Runs the kernel refused and then took datagram by datagram; at {@link #GIVE_UP_AFTER} the batch sends each alone. */
    private int refusedButTakenAlone;
    private static final int GIVE_UP_AFTER = 3;

    /** Room for {@link #CAPACITY} datagrams of up to {@code room} bytes each. */
    SendBatch(Arena arena, long room) {
        this.room = room;
        messages = arena.allocate(CAPACITY * MMSGHDR_SIZE, 8);
        iovecs = arena.allocate(CAPACITY * IOVEC_SIZE, 8);
        MemorySegment addresses = arena.allocate(CAPACITY * NAME_SIZE, 8);
        MemorySegment buffers = arena.allocate((CAPACITY + 1) * room, 64);
        data[CAPACITY] = buffers.asSlice(CAPACITY * room, room);
        for (int i = 0; i < CAPACITY; i++) {
            data[i] = buffers.asSlice(i * room, room);
            names[i] = addresses.asSlice(i * NAME_SIZE, NAME_SIZE);
            MemorySegment iovec = iovecs.asSlice(i * IOVEC_SIZE, IOVEC_SIZE);
            iovecsFrom[i] = iovecs.asSlice(i * IOVEC_SIZE);
            iovec.set(ValueLayout.ADDRESS, 0, data[i]);
            MemorySegment header = messages.asSlice(i * MMSGHDR_SIZE, MMSGHDR_SIZE);
            header.set(ValueLayout.ADDRESS, 0, names[i]);
            header.set(ValueLayout.ADDRESS, 16, iovec);
            header.set(ValueLayout.JAVA_LONG, 24, 1L);
            messagesFrom[i] = NativeUdpLink.forCalls(messages.asSlice(i * MMSGHDR_SIZE));
        }
    }

    /**
     * Sends runs of datagrams as one segmented message each from now on, changing each
     * datagram after a run's first with {@code stamp}; null sends each alone.
     */
    void segmentRuns(Arena arena, Ipv4IdStamp stamp) {
        if (stamp != null && runs == null) {
            runs = arena.allocate(CAPACITY * MMSGHDR_SIZE, 8);
            MemorySegment controls = arena.allocate(CAPACITY * CONTROL_SPACE, 8);
            runsFrom = new MemorySegment[CAPACITY];
            runControls = new MemorySegment[CAPACITY];
            for (int i = 0; i < CAPACITY; i++) {
                runsFrom[i] = NativeUdpLink.forCalls(runs.asSlice(i * MMSGHDR_SIZE));
                MemorySegment control = controls.asSlice(i * CONTROL_SPACE, CONTROL_SPACE);
                runControls[i] = control;
                control.set(ValueLayout.JAVA_LONG, 0, 18L);
                control.set(ValueLayout.JAVA_INT, 8, LibC.SOL_UDP);
                control.set(ValueLayout.JAVA_INT, 12, LibC.UDP_SEGMENT);
            }
        }
        this.stamp = stamp;
    }

    /** Whether runs are sent as segmented messages ({@link #segmentRuns}). */
    boolean segmentsRuns() {
        return stamp != null;
    }

    /** How many runs of two or more datagrams went as one message. */
    long runsSent() {
        return runsSent;
    }

    /** The largest datagram a slot holds. */
    long room() {
        return room;
    }

    /** Whether a datagram from {@code fd} can join the batch without sending it first. */
    boolean accepts(int fd) {
        return count < CAPACITY && (count == 0 || socket == fd);
    }

    /**
     * Where the next datagram may be built ({@link #room} bytes): {@link #add}ed from there,
     * it is not copied. It stays the next one's place until something is added or sent.
     */
    MemorySegment slot() {
        return data[count];
    }

    /**
     * Puts the datagram {@code packet[0, length)} to {@code name[0, nameLength)} into the
     * batch ({@link #accepts} must be true): a copy, unless it was built in its {@link #slot}.
     */
    void add(int fd, MemorySegment packet, int length, MemorySegment name, int nameLength) {
        assert accepts(fd) && length <= room;
        socket = fd;
        if (packet != data[count]) {
            // Another buffer, or the slot of before the batch was sent to make room.
            MemorySegment.copy(packet, 0, data[count], 0, length);
        }
        MemorySegment.copy(name, 0, names[count], 0, nameLength);
        destinations[count] = names[count].get(ValueLayout.JAVA_LONG, 0);
        lengths[count] = length;
        iovecs.set(ValueLayout.JAVA_LONG, count * IOVEC_SIZE + 8, length);
        messages.set(ValueLayout.JAVA_INT, count * MMSGHDR_SIZE + 8, nameLength);
        count++;
    }

    /**
     * Hands the batch to the kernel, as many {@code sendmmsg} calls as it takes: one, unless
     * the kernel refuses a datagram, which is then dropped as a refused {@code sendto} would
     * be, and the rest follow it.
     *
     * @return how many datagrams the kernel refused
     */
    int send() {
        int refused = stamp != null && count > 1 ? sendRuns() : sendEach(0, count);
        count = 0;
        return refused;
    }

    /** Datagrams {@code [from, to)}, each alone. @return how many the kernel refused */
    private int sendEach(int from, int to) {
        int refused = 0;
        for (int next = from; next < to; ) {
            int sent = LibC.sendMany(socket, messagesFrom[next], to - next);
            if (sent > 0) {
                next += sent;
            } else {
                refused++;
                next++;
            }
        }
        return refused;
    }

    private int sendRuns() {
        int runCount = planRuns(destinations, lengths, count, stamp, data, runStart);
        for (int r = 0; r < runCount; r++) {
            describeRun(r, runStart[r], runStart[r + 1]);
        }
        int refused = 0;
        for (int next = 0; next < runCount; ) {
            int sent = LibC.sendMany(socket, runsFrom[next], runCount - next);
            if (sent > 0) {
                for (int r = next; r < next + sent; r++) {
                    runsSent += runStart[r + 1] - runStart[r] > 1 ? 1 : 0;
                }
                next += sent;
                continue;
            }
            // Refused: the run's datagrams go alone, as built. If the kernel takes them all so,
            // it may not segment here (no UDP_SEGMENT, no checksum offload on the route's
            // device), and after a few such runs the batch stops trying; if it refuses some of
            // them too, its buffer was full.
            int from = runStart[next];
            int to = runStart[next + 1];
            changeIds(from, to);
            int refusedAlone = sendEach(from, to);
            refused += refusedAlone;
            next++;
            if (to - from > 1 && refusedAlone == 0 && ++refusedButTakenAlone >= GIVE_UP_AFTER) {
                for (int r = next; r < runCount; r++) {
                    changeIds(runStart[r], runStart[r + 1]);
                }
                stamp = null;
                return refused + sendEach(to, count);
            }
        }
        return refused;
    }

    /** Message {@code r} of {@link #runs}: datagrams {@code [from, to)}, cut at the first's size when more than one. */
    private void describeRun(int r, int from, int to) {
        long header = r * MMSGHDR_SIZE;
        runs.set(ValueLayout.ADDRESS, header, names[from]);
        runs.set(ValueLayout.JAVA_INT, header + 8, messages.get(ValueLayout.JAVA_INT, from * MMSGHDR_SIZE + 8));
        runs.set(ValueLayout.ADDRESS, header + 16, iovecsFrom[from]);
        runs.set(ValueLayout.JAVA_LONG, header + 24, to - from);
        if (to - from > 1) {
            MemorySegment control = runControls[r];
            control.set(ValueLayout.JAVA_SHORT, 16, (short) lengths[from]);
            runs.set(ValueLayout.ADDRESS, header + 32, control);
            runs.set(ValueLayout.JAVA_LONG, header + 40, CONTROL_SPACE);
            changeIds(from, to);
        } else {
            runs.set(ValueLayout.ADDRESS, header + 32, MemorySegment.NULL);
            runs.set(ValueLayout.JAVA_LONG, header + 40, 0L);
        }
    }

    /** Changes each datagram of the run {@code [from, to)} after the first for its place in the run (again: back). */
    private void changeIds(int from, int to) {
        for (int i = from + 1; i < to; i++) {
            stamp.change(data[i], lengths[i], i - from);
        }
    }

    /**
     * Cuts {@code count} datagrams into runs the kernel can segment: consecutive, to the same
     * destination, each as long as the run's first but the last, which may
     * be shorter, at most {@link #MAX_RUN} of them and {@link #MAX_RUN_BYTES} in all, and
     * each after the first {@linkplain Ipv4IdStamp#changeable changeable}. Run {@code r} is
     * {@code [runStart[r], runStart[r + 1])}.
     *
     * @return how many runs
     */
    static int planRuns(long[] destinations, int[] lengths, int count, Ipv4IdStamp stamp, MemorySegment[] data,
                        int[] runStart) {
        int runs = 0;
        int from = 0;
        while (from < count) {
            int size = lengths[from];
            int end = from + 1;
            int bytes = size;
            while (end < count && end - from < MAX_RUN && size > 0
                    && destinations[end] == destinations[from]
                    && lengths[end] <= size && lengths[end - 1] == size
                    && bytes + lengths[end] <= MAX_RUN_BYTES
                    && stamp.changeable(data[end], lengths[end])) {
                bytes += lengths[end];
                end++;
            }
            runStart[runs++] = from;
            from = end;
        }
        runStart[runs] = count;
        return runs;
    }

    /** Forgets the held datagrams (the link is closing). @return how many there were */
    int discard() {
        int held = count;
        count = 0;
        return held;
    }
}

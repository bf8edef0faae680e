package dev.verbs4j.softroce.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Datagrams held for one {@code sendmmsg}: an array of {@code struct mmsghdr} (the layout
 * {@link ReceiveBatch} describes), each with one {@code iovec} over its own copy of the
 * datagram and its own copy of the destination's socket address, all allocated once, when
 * the link first holds its sends, with room for datagrams of a given size. All datagrams of a
 * batch leave from one socket.
 */
final class SendBatch {
    static final int CAPACITY = 16;
    private static final long MMSGHDR_SIZE = 64;
    private static final long IOVEC_SIZE = 16;
    private static final long NAME_SIZE = 32;

    private final long room;
    private final MemorySegment messages;
    /** {@link #messages} from each index on, {@linkplain NativeUdpLink#forCalls for calls}. */
    private final MemorySegment[] messagesFrom = new MemorySegment[CAPACITY];
    private final MemorySegment iovecs;
    private final MemorySegment[] data = new MemorySegment[CAPACITY];
    private final MemorySegment[] names = new MemorySegment[CAPACITY];
    private int count;
    private int socket = -1;

    /** Room for {@link #CAPACITY} datagrams of up to {@code room} bytes each. */
    SendBatch(Arena arena, long room) {
        this.room = room;
        messages = arena.allocate(CAPACITY * MMSGHDR_SIZE, 8);
        iovecs = arena.allocate(CAPACITY * IOVEC_SIZE, 8);
        MemorySegment addresses = arena.allocate(CAPACITY * NAME_SIZE, 8);
        MemorySegment buffers = arena.allocate(CAPACITY * room, 64);
        for (int i = 0; i < CAPACITY; i++) {
            data[i] = buffers.asSlice(i * room, room);
            names[i] = addresses.asSlice(i * NAME_SIZE, NAME_SIZE);
            MemorySegment iovec = iovecs.asSlice(i * IOVEC_SIZE, IOVEC_SIZE);
            iovec.set(ValueLayout.ADDRESS, 0, data[i]);
            MemorySegment header = messages.asSlice(i * MMSGHDR_SIZE, MMSGHDR_SIZE);
            header.set(ValueLayout.ADDRESS, 0, names[i]);
            header.set(ValueLayout.ADDRESS, 16, iovec);
            header.set(ValueLayout.JAVA_LONG, 24, 1L);
            messagesFrom[i] = NativeUdpLink.forCalls(messages.asSlice(i * MMSGHDR_SIZE));
        }
    }

    /** The largest datagram a slot holds. */
    long room() {
        return room;
    }

    /** Whether a datagram from {@code fd} can join the batch without sending it first. */
    boolean accepts(int fd) {
        return count < CAPACITY && (count == 0 || socket == fd);
    }

    /** Copies the datagram {@code packet[0, length)} to {@code name[0, nameLength)} into the batch ({@link #accepts} must be true). */
    void add(int fd, MemorySegment packet, int length, MemorySegment name, int nameLength) {
        assert accepts(fd) && length <= room;
        socket = fd;
        MemorySegment.copy(packet, 0, data[count], 0, length);
        MemorySegment.copy(name, 0, names[count], 0, nameLength);
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
        int refused = 0;
        for (int next = 0; next < count; ) {
            int sent = LibC.sendMany(socket, messagesFrom[next], count - next);
            if (sent > 0) {
                next += sent;
            } else {
                refused++;
                next++;
            }
        }
        count = 0;
        return refused;
    }

    /** Forgets the held datagrams (the link is closing). @return how many there were */
    int discard() {
        int held = count;
        count = 0;
        return held;
    }
}

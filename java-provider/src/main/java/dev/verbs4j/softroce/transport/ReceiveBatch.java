package dev.verbs4j.softroce.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Room for up to {@code capacity} messages that one {@code recvmmsg} fetches: an array of
 * {@code struct mmsghdr}, each with one {@code iovec} over its own 64 KiB buffer (a whole UDP
 * datagram fits), a socket address for its sender and room for a control message, all
 * allocated once. The layout is that of x86-64 and AArch64 Linux: {@code msghdr} is 56 bytes
 * (name at 0, name length at 8, iovec pointer at 16, iovec count at 24, control at 32 and 40,
 * flags at 48) and {@code mmsghdr} adds the received length at 56, 64 bytes in all.
 * <p>
 * On a socket that lets the kernel join datagrams ({@code UDP_GRO}), a message may hold a
 * run of datagrams of one size, the last maybe shorter, with that size in its control
 * message; the batch hands them out one by one, as if each had come alone.
 */
final class ReceiveBatch {
    static final int DATAGRAM_ROOM = 1 << 16;
    private static final long MMSGHDR_SIZE = 64;
    private static final long IOVEC_SIZE = 16;
    /** Room for one control message with an int: {@code CMSG_SPACE(sizeof(int))} is 24; more is harmless. */
    private static final long CONTROL_ROOM = 32;

    private final int capacity;
    private final MemorySegment messages;
    /** {@link #messages} {@linkplain NativeUdpLink#forCalls for calls}. */
    private final MemorySegment messagesForCall;
    private final MemorySegment controls;
    private final MemorySegment[] data;
    private final MemorySegment[] names;
    /** Messages fetched. */
    private int count;
    /** The message the current datagram is in; -1 before the first. */
    private int message = -1;
    private int messageLength;
    /** The size the message's datagrams were joined at; its whole length when it holds one. */
    private int segmentSize;
    private int offset;
    private int length;
    private long fetches;
    private long joinedMessages;
    /** Whether the last fetch had room for more messages than it got: the socket was empty then. */
    private boolean emptied;

    ReceiveBatch(Arena arena, int capacity) {
        this.capacity = capacity;
        messages = arena.allocate(capacity * MMSGHDR_SIZE, 8);
        messagesForCall = NativeUdpLink.forCalls(messages);
        MemorySegment iovecs = arena.allocate(capacity * IOVEC_SIZE, 8);
        MemorySegment addresses = arena.allocate(capacity * 32L, 8);
        MemorySegment buffers = arena.allocate((long) capacity * DATAGRAM_ROOM, 64);
        controls = arena.allocate(capacity * CONTROL_ROOM, 8);
        data = new MemorySegment[capacity];
        names = new MemorySegment[capacity];
        for (int i = 0; i < capacity; i++) {
            data[i] = buffers.asSlice((long) i * DATAGRAM_ROOM, DATAGRAM_ROOM);
            names[i] = addresses.asSlice(i * 32L, 32);
            MemorySegment iovec = iovecs.asSlice(i * IOVEC_SIZE, IOVEC_SIZE);
            iovec.set(ValueLayout.ADDRESS, 0, data[i]);
            iovec.set(ValueLayout.JAVA_LONG, 8, DATAGRAM_ROOM);
            MemorySegment header = messages.asSlice(i * MMSGHDR_SIZE, MMSGHDR_SIZE);
            header.set(ValueLayout.ADDRESS, 0, names[i]);
            header.set(ValueLayout.ADDRESS, 16, iovec);
            header.set(ValueLayout.JAVA_LONG, 24, 1L);
            header.set(ValueLayout.ADDRESS, 32, controls.asSlice(i * CONTROL_ROOM, CONTROL_ROOM));
        }
        reset(capacity);
    }

    /** Whether datagrams fetched earlier are still to be taken. */
    boolean pending() {
        return message >= 0 && offset + length < messageLength || message + 1 < count;
    }

    /** Fetches a new batch from {@code fd} with one {@code recvmmsg} (the last one must be used up). @return how many messages it holds */
    int fetch(int fd) {
        assert !pending();
        reset(count);
        fetches++;
        int fetched = fetched(LibC.receiveMany(fd, messagesForCall, capacity));
        emptied = fetched < capacity;
        return fetched;
    }

    /**
     * Fetches one message from {@code fd} with one {@code recvmsg}, as {@link #fetch} would
     * have it in the batch's first place: the cheaper call when a datagram comes alone.
     *
     * @return 1, or 0 when none was waiting
     */
    int fetchOne(int fd) {
        assert !pending();
        reset(Math.max(count, 1));
        long received = LibC.receiveMessage(fd, messagesForCall);
        if (received >= 0) {
            messages.set(ValueLayout.JAVA_INT, 56, (int) received);
        }
        emptied = false;
        return fetched(received >= 0 ? 1 : 0);
    }

    /** Room again in the first {@code used} messages: the kernel wrote back each sender's and control's length. */
    private void reset(int used) {
        for (int i = 0; i < used; i++) {
            long header = i * MMSGHDR_SIZE;
            messages.set(ValueLayout.JAVA_INT, header + 8, (int) LibC.SOCKADDR_SIZE);
            messages.set(ValueLayout.JAVA_LONG, header + 40, CONTROL_ROOM);
        }
    }

    private int fetched(int fetched) {
        count = Math.max(0, fetched);
        message = -1;
        messageLength = 0;
        offset = 0;
        length = 0;
        return count;
    }

    /** Whether the current datagram is the last of a fetch that left the socket empty ({@code recvmmsg} got fewer than it had room for). */
    boolean lastOfEmptied() {
        return emptied && !pending();
    }

    /** Whether the current datagram is one of a run the kernel joined into one message: they came as a burst. */
    boolean inJoinedRun() {
        return segmentSize < messageLength;
    }

    /** Moves to the next datagram ({@link #pending} must be true). @return its length */
    int next() {
        assert pending();
        if (message >= 0 && offset + length < messageLength) {
            offset += length;
        } else {
            message++;
            messageLength = messages.get(ValueLayout.JAVA_INT, message * MMSGHDR_SIZE + 56);
            int joined = joinedSize(message);
            segmentSize = joined > 0 && joined < messageLength ? joined : messageLength;
            joinedMessages += inJoinedRun() ? 1 : 0;
            offset = 0;
        }
        length = Math.min(segmentSize, messageLength - offset);
        return length;
    }

    /** The size the kernel joined message {@code m}'s datagrams at, from its {@code UDP_GRO} control message; 0 when it has none. */
    private int joinedSize(int m) {
        long controlLength = messages.get(ValueLayout.JAVA_LONG, m * MMSGHDR_SIZE + 40);
        long at = m * CONTROL_ROOM;
        if (controlLength >= 20 && controls.get(ValueLayout.JAVA_LONG, at) >= 20
                && controls.get(ValueLayout.JAVA_INT, at + 8) == LibC.SOL_UDP && controls.get(ValueLayout.JAVA_INT, at + 12) == LibC.UDP_GRO) {
            return controls.get(ValueLayout.JAVA_INT, at + 16);
        }
        return 0;
    }

    /** The current datagram's length. */
    int length() {
        return length;
    }

    /** The buffer the current datagram is in, at {@link #offset}. */
    MemorySegment data() {
        return data[message];
    }

    /** Where in {@link #data} the current datagram starts. */
    int offset() {
        return offset;
    }

    /** The sender of the current datagram, a {@code sockaddr_in} or {@code sockaddr_in6}. */
    MemorySegment sender() {
        return names[message];
    }

    /** How many messages held a run of datagrams the kernel joined. */
    long joinedMessages() {
        return joinedMessages;
    }

    /** How many times {@link #fetch} asked the kernel. */
    long fetches() {
        return fetches;
    }
}

package dev.verbs4j.softroce.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Room for up to {@code capacity} datagrams that one {@code recvmmsg} fetches: an array of
 * {@code struct mmsghdr}, each with one {@code iovec} over its own 64 KiB buffer (a whole UDP
 * datagram fits) and a socket address for its sender, all allocated once. The layout is that
 * of x86-64 and AArch64 Linux: {@code msghdr} is 56 bytes (name at 0, name length at 8, iovec
 * pointer at 16, iovec count at 24, control at 32 and 40, flags at 48) and {@code mmsghdr}
 * adds the received length at 56, 64 bytes in all.
 */
final class ReceiveBatch {
    static final int DATAGRAM_ROOM = 1 << 16;
    private static final long MMSGHDR_SIZE = 64;
    private static final long IOVEC_SIZE = 16;

    private final int capacity;
    private final MemorySegment messages;
    /** {@link #messages} {@linkplain NativeUdpLink#forCalls for calls}. */
    private final MemorySegment messagesForCall;
    private final MemorySegment[] data;
    private final MemorySegment[] names;
    private int count;
    private int next;
    private long fetches;

    ReceiveBatch(Arena arena, int capacity) {
        this.capacity = capacity;
        messages = arena.allocate(capacity * MMSGHDR_SIZE, 8);
        messagesForCall = NativeUdpLink.forCalls(messages);
        MemorySegment iovecs = arena.allocate(capacity * IOVEC_SIZE, 8);
        MemorySegment addresses = arena.allocate(capacity * 32L, 8);
        MemorySegment buffers = arena.allocate((long) capacity * DATAGRAM_ROOM, 64);
        data = new MemorySegment[capacity];
        names = new MemorySegment[capacity];
        for (int i = 0; i < capacity; i++) {
            data[i] = buffers.asSlice((long) i * DATAGRAM_ROOM, DATAGRAM_ROOM);
            names[i] = addresses.asSlice(i * 32L, 32);
            MemorySegment iovec = iovecs.asSlice(i * IOVEC_SIZE, IOVEC_SIZE);
            iovec.set(ValueLayout.ADDRESS, 0, data[i]);
            iovec.set(ValueLayout.JAVA_LONG, 8, DATAGRAM_ROOM);
            MemorySegment header = header(i);
            header.set(ValueLayout.ADDRESS, 0, names[i]);
            header.set(ValueLayout.JAVA_INT, 8, (int) LibC.SOCKADDR_SIZE);
            header.set(ValueLayout.ADDRESS, 16, iovec);
            header.set(ValueLayout.JAVA_LONG, 24, 1L);
        }
    }

    private MemorySegment header(int i) {
        return messages.asSlice(i * MMSGHDR_SIZE, MMSGHDR_SIZE);
    }

    /** Whether datagrams fetched earlier are still to be taken. */
    boolean pending() {
        return next < count;
    }

    /** Fetches a new batch from {@code fd} (the last one must be used up). @return how many datagrams it holds */
    int fetch(int fd) {
        assert !pending();
        for (int i = 0; i < count; i++) {
            // The kernel wrote back each sender's length: room for the largest again.
            messages.set(ValueLayout.JAVA_INT, i * MMSGHDR_SIZE + 8, (int) LibC.SOCKADDR_SIZE);
        }
        int fetched = LibC.receiveMany(fd, messagesForCall, capacity);
        fetches++;
        next = 0;
        count = Math.max(0, fetched);
        return count;
    }

    /** The index of the next datagram of the batch ({@link #pending} must be true). */
    int next() {
        assert pending();
        return next++;
    }

    /** The length of datagram {@code i} (whole: it had 64 KiB of room). */
    int length(int i) {
        return messages.get(ValueLayout.JAVA_INT, i * MMSGHDR_SIZE + 56);
    }

    MemorySegment data(int i) {
        return data[i];
    }

    /** The sender of datagram {@code i}, a {@code sockaddr_in} or {@code sockaddr_in6}. */
    MemorySegment sender(int i) {
        return names[i];
    }

    /** How many times {@link #fetch} asked the kernel. */
    long fetches() {
        return fetches;
    }
}

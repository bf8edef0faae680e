package dev.verbs4j.softroce.transport;

import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The Linux C library's UDP socket calls that {@link NativeUdpLink} makes, with the
 * constants of x86-64 and AArch64 (the same on both). Setup calls capture {@code errno} for
 * their error messages; the per-packet calls do not, and are marked critical (short,
 * never blocking: the sockets are non-blocking).
 */
final class LibC {
    static final short AF_INET = 2;
    static final short AF_INET6 = 10;
    /** Room for a {@code sockaddr_in6}, the larger of the two. */
    static final long SOCKADDR_SIZE = 28;
    static final short POLLIN = 1;
    /** A port as a socket address holds it: in network byte order. */
    private static final ValueLayout.OfShort NETWORK_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_NONBLOCK = 0x800;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDBUF = 7;
    private static final int SO_RCVBUF = 8;
    private static final int IPPROTO_IP = 0;
    private static final int IP_MTU_DISCOVER = 10;
    private static final int IPPROTO_IPV6 = 41;
    private static final int IPV6_MTU_DISCOVER = 23;
    /** Always set Don't Fragment ({@code IP_PMTUDISC_DO}, the same value for IPv6). */
    private static final int PMTUDISC_DO = 2;
    private static final int EFD_NONBLOCK = 0x800;
    private static final int EFD_CLOEXEC = 0x80000;
    private static final int EADDRINUSE = 98;
    private static final int MSG_DONTWAIT = 0x40;
    /** The UDP socket level, and its options for segmented sends and joined receives (also their control messages' types). */
    static final int SOL_UDP = 17;
    /**
     * Take IPv6 datagrams whose UDP checksum is zero. The kernel rxe sends every RoCEv2
     * datagram with checksum 0, which RFC 8200 forbids over IPv6 unless the receiver allows
     * it for a tunnel (RFC 6936), as rxe's own socket does: the ICRC covers the payload.
     */
    private static final int UDP_NO_CHECK6_RX = 102;
    static final int UDP_SEGMENT = 103;
    static final int UDP_GRO = 104;

    static final boolean AVAILABLE;
    private static final MethodHandle SOCKET;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle BIND;
    private static final MethodHandle GETSOCKNAME;
    private static final MethodHandle EVENTFD;
    private static final MethodHandle STRERROR;
    private static final MethodHandle RECVFROM;
    private static final MethodHandle SENDTO;
    private static final MethodHandle RECVMMSG;
    private static final MethodHandle SENDMMSG;
    private static final MethodHandle POLL;
    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    private static final MethodHandle CLOSE;
    private static final MethodHandle GETSOCKOPT;
    private static final MethodHandle RECVMSG;
    private static final MemoryLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    static {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        boolean linux = os.equals("linux") && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        Linker.Option critical = Linker.Option.critical(false);
        ValueLayout i = ValueLayout.JAVA_INT;
        ValueLayout l = ValueLayout.JAVA_LONG;
        ValueLayout p = ValueLayout.ADDRESS;
        MethodHandle[] h = new MethodHandle[16];
        boolean found = linux;
        if (linux) {
            try {
                h[0] = handle(linker, libc, "socket", FunctionDescriptor.of(i, i, i, i), errno);
                h[1] = handle(linker, libc, "setsockopt", FunctionDescriptor.of(i, i, i, i, p, i), errno);
                h[2] = handle(linker, libc, "bind", FunctionDescriptor.of(i, i, p, i), errno);
                h[3] = handle(linker, libc, "getsockname", FunctionDescriptor.of(i, i, p, p));
                h[4] = handle(linker, libc, "eventfd", FunctionDescriptor.of(i, i, i), errno);
                h[5] = handle(linker, libc, "strerror", FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256,
                        ValueLayout.JAVA_BYTE)), i));
                h[6] = handle(linker, libc, "recvfrom", FunctionDescriptor.of(l, i, p, l, i, p, p), critical);
                h[7] = handle(linker, libc, "sendto", FunctionDescriptor.of(l, i, p, l, i, p, i), critical);
                h[8] = handle(linker, libc, "poll", FunctionDescriptor.of(i, p, l, i));
                h[9] = handle(linker, libc, "read", FunctionDescriptor.of(l, i, p, l), critical);
                h[10] = handle(linker, libc, "write", FunctionDescriptor.of(l, i, p, l), critical);
                h[11] = handle(linker, libc, "close", FunctionDescriptor.of(i, i));
                h[12] = handle(linker, libc, "recvmmsg", FunctionDescriptor.of(i, i, p, i, i, p), critical);
                h[13] = handle(linker, libc, "sendmmsg", FunctionDescriptor.of(i, i, p, i, i), critical);
                h[14] = handle(linker, libc, "getsockopt", FunctionDescriptor.of(i, i, i, i, p, p));
                h[15] = handle(linker, libc, "recvmsg", FunctionDescriptor.of(l, i, p, i), critical);
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                found = false;
            }
        }
        AVAILABLE = found;
        SOCKET = h[0];
        SETSOCKOPT = h[1];
        BIND = h[2];
        GETSOCKNAME = h[3];
        EVENTFD = h[4];
        STRERROR = h[5];
        RECVFROM = h[6];
        SENDTO = h[7];
        POLL = h[8];
        READ = h[9];
        WRITE = h[10];
        CLOSE = h[11];
        RECVMMSG = h[12];
        SENDMMSG = h[13];
        GETSOCKOPT = h[14];
        RECVMSG = h[15];
    }

    private LibC() {
    }

    private static MethodHandle handle(Linker linker, SymbolLookup libc, String name, FunctionDescriptor descriptor,
                                       Linker.Option... options) {
        MemorySegment symbol = libc.find(name).orElseThrow(() -> new IllegalArgumentException("no " + name + " in the C library"));
        return linker.downcallHandle(symbol, descriptor, options);
    }

    /**
     * A non-blocking, close-on-exec UDP socket with these buffer sizes that sets Don't Fragment
     * and, over IPv6, takes datagrams with a zero UDP checksum ({@link #UDP_NO_CHECK6_RX}).
     */
    static int udpSocket(boolean ipv6, int receiveBuffer, int sendBuffer) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int fd = (int) SOCKET.invokeExact(state, (int) (ipv6 ? AF_INET6 : AF_INET), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            if (fd < 0) {
                throw failure("cannot open a UDP socket", state);
            }
            try {
                setOption(arena, state, fd, SOL_SOCKET, SO_RCVBUF, receiveBuffer);
                setOption(arena, state, fd, SOL_SOCKET, SO_SNDBUF, sendBuffer);
                setOption(arena, state, fd, ipv6 ? IPPROTO_IPV6 : IPPROTO_IP, ipv6 ? IPV6_MTU_DISCOVER : IP_MTU_DISCOVER, PMTUDISC_DO);
                if (ipv6) {
                    setOption(arena, state, fd, SOL_UDP, UDP_NO_CHECK6_RX, 1);
                }
            } catch (UncheckedIOException e) {
                close(fd);
                throw e;
            }
            return fd;
        } catch (UncheckedIOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void setOption(Arena arena, MemorySegment state, int fd, int level, int name, int value) throws Throwable {
        MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
        v.set(ValueLayout.JAVA_INT, 0, value);
        if ((int) SETSOCKOPT.invokeExact(state, fd, level, name, v, 4) != 0) {
            throw failure("cannot set socket option " + level + "/" + name, state);
        }
    }

    /**
     * Lets the kernel join datagrams of one flow and size that come together into one
     * message for {@code fd} ({@code UDP_GRO}, Linux 5.0 on), each such message carrying the
     * size in a control message. @return whether the kernel agreed
     */
    static boolean joinReceives(int fd) {
        return setIntOption(fd, SOL_UDP, UDP_GRO, 1);
    }

    /** Sets the int socket option {@code level}/{@code name} of {@code fd}. @return whether the kernel took it */
    static boolean setIntOption(int fd, int level, int name, int value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            setOption(arena, state, fd, level, name, value);
            return true;
        } catch (UncheckedIOException e) {
            return false;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Binds {@code fd} to the {@code length}-byte socket address in {@code address} (-1: none of its family). */
    static void bind(int fd, MemorySegment address, int length, String what) {
        if (length < 0) {
            throw new UncheckedIOException(new SocketException("cannot bind " + what + ": not an address of this socket's family"));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            if ((int) BIND.invokeExact(state, fd, address, length) != 0) {
                throw failure("cannot bind " + what, state);
            }
        } catch (UncheckedIOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code fd}'s receive buffer as the kernel reports it (twice what was asked, within its limits); 0 if it cannot say. */
    static int receiveBuffer(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment length = arena.allocate(ValueLayout.JAVA_INT);
            length.set(ValueLayout.JAVA_INT, 0, 4);
            if ((int) GETSOCKOPT.invokeExact(fd, SOL_SOCKET, SO_RCVBUF, value, length) != 0) {
                return 0;
            }
            return value.get(ValueLayout.JAVA_INT, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A non-blocking eventfd. */
    static int eventFd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int fd = (int) EVENTFD.invokeExact(state, 0, EFD_NONBLOCK | EFD_CLOEXEC);
            if (fd < 0) {
                throw failure("cannot open an eventfd", state);
            }
            return fd;
        } catch (UncheckedIOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The address {@code fd} is bound to; {@code scratch} and {@code length} are reused space. */
    static InetSocketAddress localAddress(int fd, MemorySegment scratch, MemorySegment length, InetSocketAddress asked) {
        length.set(ValueLayout.JAVA_INT, 0, (int) SOCKADDR_SIZE);
        try {
            if ((int) GETSOCKNAME.invokeExact(fd, scratch, length) != 0) {
                return asked;
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        InetSocketAddress bound = decode(scratch);
        return bound == null ? asked : new InetSocketAddress(asked.getAddress(), bound.getPort());
    }

    /**
     * Writes {@code address} as a {@code sockaddr_in} (or, for an IPv6 socket, a
     * {@code sockaddr_in6}, IPv4 addresses mapped) into {@code sa}.
     *
     * @return its length, or -1 when an IPv4 socket is given an IPv6 address
     */
    static int encode(MemorySegment sa, boolean ipv6Socket, InetSocketAddress address) {
        byte[] ip = address.getAddress().getAddress();
        sa.fill((byte) 0);
        sa.set(NETWORK_SHORT, 2, (short) address.getPort());
        if (!ipv6Socket) {
            if (ip.length != 4) {
                return -1;
            }
            sa.set(ValueLayout.JAVA_SHORT, 0, AF_INET);
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 4, 4);
            return 16;
        }
        sa.set(ValueLayout.JAVA_SHORT, 0, AF_INET6);
        if (ip.length == 4) {
            sa.set(ValueLayout.JAVA_BYTE, 18, (byte) 0xFF);
            sa.set(ValueLayout.JAVA_BYTE, 19, (byte) 0xFF);
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 20, 4);
        } else {
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 8, 16);
            if (address.getAddress() instanceof java.net.Inet6Address six) {
                // Link-local addresses name their interface.
                sa.set(ValueLayout.JAVA_INT_UNALIGNED, 24, six.getScopeId());
            }
        }
        return 28;
    }

    /** The address in a {@code sockaddr_in} or {@code sockaddr_in6}; null for another family. */
    static InetSocketAddress decode(MemorySegment sa) {
        int family = sa.get(ValueLayout.JAVA_SHORT, 0);
        int port = Short.toUnsignedInt(sa.get(NETWORK_SHORT, 2));
        byte[] ip;
        if (family == AF_INET) {
            ip = sa.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
        } else if (family == AF_INET6) {
            ip = sa.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
        } else {
            return null;
        }
        try {
            int scope = family == AF_INET6 ? sa.get(ValueLayout.JAVA_INT_UNALIGNED, 24) : 0;
            // A v4-mapped IPv6 address comes back as an Inet4Address, as DatagramChannel reports it.
            InetAddress address = InetAddress.getByAddress(ip);
            if (scope != 0 && address instanceof java.net.Inet6Address) {
                address = java.net.Inet6Address.getByAddress(null, ip, scope);
            }
            return new InetSocketAddress(address, port);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** @return the datagram's length, or -1 when none is waiting (or the call failed) */
    static long receiveFrom(int fd, MemorySegment buffer, long capacity, MemorySegment source, MemorySegment sourceLength) {
        try {
            return (long) RECVFROM.invokeExact(fd, buffer, capacity, 0, source, sourceLength);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code recvmmsg} without waiting, flag and timeout. @return the datagrams received, or -1 when none is waiting (or the call failed) */
    static int receiveMany(int fd, MemorySegment messages, int count) {
        try {
            return (int) RECVMMSG.invokeExact(fd, messages, count, MSG_DONTWAIT, MemorySegment.NULL);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code recvmsg} without waiting. @return the message's length, or -1 when none is waiting (or the call failed) */
    static long receiveMessage(int fd, MemorySegment message) {
        try {
            return (long) RECVMSG.invokeExact(fd, message, MSG_DONTWAIT);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code sendmmsg} without flags. @return how many of the first {@code count} datagrams the kernel took, or -1 when it refused the first */
    static int sendMany(int fd, MemorySegment messages, int count) {
        try {
            return (int) SENDMMSG.invokeExact(fd, messages, count, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** @return the bytes sent, or -1 when the packet could not be handed to the kernel */
    static long sendTo(int fd, MemorySegment buffer, long length, MemorySegment destination, int destinationLength) {
        try {
            return (long) SENDTO.invokeExact(fd, buffer, length, 0, destination, destinationLength);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static int poll(MemorySegment fds, long count, int timeoutMs) {
        try {
            return (int) POLL.invokeExact(fds, count, timeoutMs);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static long read(int fd, MemorySegment into, long length) {
        try {
            return (long) READ.invokeExact(fd, into, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static long write(int fd, MemorySegment from, long length) {
        try {
            return (long) WRITE.invokeExact(fd, from, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Closes {@code fd} when it is one (>= 0). */
    static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try {
            int status = (int) CLOSE.invokeExact(fd);
            assert status == 0 || status == -1;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static UncheckedIOException failure(String what, MemorySegment state) {
        int errno = (int) ERRNO.get(state, 0L);
        String reason;
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            reason = text.getString(0);
        } catch (Throwable t) {
            reason = "errno " + errno;
        }
        SocketException e = errno == EADDRINUSE ? new BindException(what + ": " + reason) : new SocketException(what + ": " + reason);
        return new UncheckedIOException(e.getMessage(), e);
    }
}

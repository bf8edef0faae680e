package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Socket addresses as the connection-manager glue passes them: the raw address bytes
 * (4 for {@code sockaddr_in}, 16 for {@code sockaddr_in6}), a host-order port, and an
 * IPv6 scope id.
 */
final class CmAddresses {
    private CmAddresses() {
    }

    /**
     * The address bytes of {@code address}.
     *
     * @throws VerbsException {@code EINVAL} for an unresolved host name, which librdmacm
     *         could not take either
     */
    static byte[] bytes(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (ip == null) {
            throw new VerbsException(Errno.EINVAL, "address " + address + " is unresolved");
        }
        return ip.getAddress();
    }

    /** The IPv6 scope id of {@code address}, 0 for IPv4 or none. */
    static int scope(InetSocketAddress address) {
        return address.getAddress() instanceof Inet6Address v6 ? v6.getScopeId() : 0;
    }

    /**
     * The socket address of the first {@code length} bytes of {@code raw} (4 or 16) and
     * {@code port}, or null when {@code length} is 0 (no IP address).
     */
    static InetSocketAddress socketAddress(byte[] raw, int length, int port) {
        if (length == 0) {
            return null;
        }
        if (length != 4 && length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + length);
        }
        byte[] ip = new byte[length];
        System.arraycopy(raw, 0, ip, 0, length);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(ip), port);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible); // thrown only for a wrong length, excluded above
        }
    }

    /** A timeout in whole milliseconds for librdmacm's {@code int timeout_ms}: at least 0, at most {@code Integer.MAX_VALUE}. */
    static int millis(java.time.Duration timeout) {
        if (timeout.isNegative()) {
            return 0;
        }
        try {
            return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        } catch (ArithmeticException tooLong) {
            return Integer.MAX_VALUE;
        }
    }
}

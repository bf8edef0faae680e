package dev.verbs4j.conformance.agent;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Constructor;

/**
 * The agent's control channel: TCP connections (or Unix domain socket connections, once both
 * processes know they share a folder), each a strict request-response sequence. A request is
 * the memory the test process changed ({@link MemoryRuns}, empty unless the memory travels
 * over the channel), a one-byte type and its fields; the response is the memory the agent's
 * side changed, then {@link #OK} with the result, or {@link #THROWN} with the exception the
 * call threw.
 */
final class Protocol {
    /** Open a device: provider and device name; answers the context's handle. */
    static final int OPEN = 1;
    /** Call a method on a handle: handle, declaring interface, name, parameter types, arguments. */
    static final int CALL = 2;
    /** Reserve an address range: base, length, and whether the memory travels over the channel; answers whether it could. */
    static final int RESERVE = 3;
    /** Unmap a shared file: its path. */
    static final int FORGET = 4;
    /** The session is over: the agent exits once it has answered. */
    static final int SHUTDOWN = 5;
    /**
     * Open a local channel in a folder: the agent answers the path of a Unix domain socket it
     * listens on there (or an empty path), which a test process that sees the same folder
     * uses for its further connections: on one machine it costs less per call than TCP.
     */
    static final int LOCAL_CHANNEL = 6;
    /** Opens a connection-manager event channel of the named provider in the agent. */
    static final int CM_CHANNEL = 7;
    /** Nothing but the memory changes that frame every request and answer (channel mode). */
    static final int SYNC = 8;

    static final int OK = 0;
    static final int THROWN = 1;

    /** What the agent prints first on standard output, followed by {@code host:port}. */
    static final String LISTENING = "verbs4j conformance agent listening on ";

    private Protocol() {
    }

    static void writeThrown(DataOutputStream out, Throwable t) throws IOException {
        out.writeByte(THROWN);
        out.writeUTF(t.getClass().getName());
        out.writeUTF(t.getMessage() == null ? "" : t.getMessage());
        out.writeInt(t instanceof VerbsException v ? v.errno() : -1);
    }

    /**
     * The exception the agent's call threw, rebuilt here: a {@link VerbsException} with its
     * errno, or the same runtime exception type with its message.
     */
    static RuntimeException readThrown(DataInputStream in) throws IOException {
        String type = in.readUTF();
        String message = in.readUTF();
        int errno = in.readInt();
        if (type.equals(VerbsException.class.getName())) {
            return new VerbsException(errno, withoutErrnoSuffix(message, errno));
        }
        try {
            Class<?> c = Codec.type(type);
            if (RuntimeException.class.isAssignableFrom(c)) {
                Constructor<?> withMessage = c.getConstructor(String.class);
                return (RuntimeException) withMessage.newInstance(message);
            }
        } catch (ReflectiveOperationException | IOException e) {
            // Not rebuildable here: reported as what it was below.
        }
        return new IllegalStateException("the agent's call threw " + type + ": " + message);
    }

    /** A VerbsException's message ends with its errno's name, which the rebuilt one adds again. */
    private static String withoutErrnoSuffix(String message, int errno) {
        Errno e = Errno.of(errno);
        String suffix = " (" + e + (e == Errno.UNKNOWN ? " " + errno : "") + ")";
        return message.endsWith(suffix) ? message.substring(0, message.length() - suffix.length()) : message;
    }
}

package dev.verbs4j.tools.compat.rping;

import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.tools.cm.CmSetup;

import java.io.PrintStream;

/**
 * {@code verbs4j rping}: rdma-core's rping (librdmacm/examples/rping.c) on the wire, on any
 * provider, so either side can be the C program. The connection comes up through the
 * connection manager on rping's port; each ping is SEND (the client's buffer), RDMA READ
 * (the server fetches it), SEND (go-ahead), SEND (the client's second buffer), RDMA WRITE
 * (the server echoes), SEND (go-ahead).
 */
public final class RpingCommand {
    private RpingCommand() {
    }

    /** @return the exit status: 0 only when every ping completed and, with -V, checked */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        RpingOptions o;
        try {
            o = RpingOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("verbs4j rping: " + e.getMessage());
            err.print(RpingOptions.USAGE);
            return 2;
        }
        try (CmEventChannel channel = CmSetup.channel(o.provider, o.softDeviceAddress())) {
            int status = o.server ? new RpingServer(o, out).run(channel) : new RpingClient(o, out).run(channel);
            out.flush();
            return status;
        }
    }
}

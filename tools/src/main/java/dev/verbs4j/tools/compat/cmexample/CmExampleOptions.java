package dev.verbs4j.tools.compat.cmexample;

import static dev.verbs4j.tools.OptionArgs.value;

/**
 * The options of librdmacm's rdma_server and rdma_client ({@code -s} address, {@code -p}
 * port; 0.0.0.0 and 127.0.0.1, port 7471, when not given) and the provider choice of the
 * other commands.
 */
final class CmExampleOptions {
    static final String USAGE = """
            usage: verbs4j rdma-server [-s ADDRESS] [-p PORT] [--provider NAME] [--device NAME] [--address IP]
                   verbs4j rdma-client [-s ADDRESS] [-p PORT] [--provider NAME] [--device NAME] [--address IP]
              -s ADDRESS       the server binds to it (default 0.0.0.0); the client connects to it (default 127.0.0.1)
              -p PORT          the connection manager's port (default 7471)
              --provider NAME  soft (default) or ibverbs
              --device NAME    refuse to run when the address resolves to another device
              --address IP     the soft provider's device address (default: the server's -s); the client
                               resolves from it
            """;

    final boolean server;
    String address;
    int port = 7471;
    String provider = "soft";
    String device;
    String softAddress;

    private CmExampleOptions(boolean server) {
        this.server = server;
        this.address = server ? "0.0.0.0" : "127.0.0.1";
    }

    /** @throws IllegalArgumentException for a wrong argument */
    static CmExampleOptions parse(boolean server, String[] args) {
        CmExampleOptions o = new CmExampleOptions(server);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-s" -> o.address = value(args, ++i, a);
                case "-p" -> o.port = port(value(args, ++i, a));
                case "--provider" -> o.provider = value(args, ++i, a);
                case "--device" -> o.device = value(args, ++i, a);
                case "--address" -> o.softAddress = value(args, ++i, a);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (o.softAddress != null && !o.provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + o.provider);
        }
        return o;
    }

    /** Where the soft provider's device goes: --address, else the server's own -s, else none. */
    String softDeviceAddress() {
        return softAddress != null ? softAddress : server ? address : null;
    }

    private static int port(String v) {
        try {
            int p = Integer.parseInt(v);
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("-p needs a port number, not " + v);
    }
}

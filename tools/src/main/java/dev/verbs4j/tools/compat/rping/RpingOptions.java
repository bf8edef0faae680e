package dev.verbs4j.tools.compat.rping;

import dev.verbs4j.tools.OptionArgs;

import static dev.verbs4j.tools.OptionArgs.value;

/**
 * {@code verbs4j rping}'s command line: rping's own options (librdmacm/examples/rping.c) and
 * the provider and device choice of the other commands.
 */
public final class RpingOptions {
    static final String USAGE = """
            usage: verbs4j rping -s [-vVd] [-S size] [-C count] [-a addr] [-p port] [-q] [provider options]
                   verbs4j rping -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port] [-q] [provider options]
              -s                 server: waits for one client on addr (default: every address)
              -c                 client of the server at -a addr
              -a addr            the server's address
              -I addr            the client's source address
              -p port            the connection manager's port (default 7174, as rping)
              -C count           pings (default: the server serves until the client disconnects, the client pings forever)
              -S size            ping data size, 26..65535 (default 64)
              -v                 print the ping data
              -V                 check the ping data (the client: what came back is what it sent; the server:
                                 what it read is rping's text for that ping)
              -d                 print the connection events
              -q                 make the queue pair outside the connection manager and hand it to the id
              --provider NAME    soft (default) or ibverbs
              --device NAME      refuse to run when the address resolves to another device
              --address IP       the soft provider's device address (default: -a for a server, -I for a client)
            """;

    boolean server;
    boolean client;
    String address;
    String source;
    int port = 7174;
    int count;
    int size = 64;
    boolean verbose;
    boolean validate;
    boolean debug;
    boolean ownQp;
    String provider = "soft";
    String device;
    String softAddress;

    /**
     * @throws IllegalArgumentException with a message for the user when the arguments are wrong
     */
    public static RpingOptions parse(String[] args) {
        RpingOptions o = new RpingOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-s" -> o.server = true;
                case "-c" -> o.client = true;
                case "-a" -> o.address = value(args, ++i, a);
                case "-I" -> o.source = value(args, ++i, a);
                case "-p" -> o.port = number(args, ++i, a, 0, 65535);
                case "-C" -> o.count = number(args, ++i, a, 0, Integer.MAX_VALUE);
                case "-S" -> o.size = number(args, ++i, a, PingText.MIN_SIZE, PingText.MAX_SIZE);
                case "-v" -> o.verbose = true;
                case "-V" -> o.validate = true;
                case "-d" -> o.debug = true;
                case "-q" -> o.ownQp = true;
                case "-P" -> throw new IllegalArgumentException("the persistent server (-P) is not implemented: one client per run");
                case "--provider" -> o.provider = value(args, ++i, a);
                case "--device" -> o.device = value(args, ++i, a);
                case "--address" -> o.softAddress = value(args, ++i, a);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (o.server == o.client) {
            throw new IllegalArgumentException("give one of -s (server) and -c (client)");
        }
        if (o.client && o.address == null) {
            throw new IllegalArgumentException("the client needs the server's address: -a addr");
        }
        if (o.server && o.source != null) {
            throw new IllegalArgumentException("-I is the client's source address; a server binds to -a");
        }
        if (o.softAddress != null && !o.provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + o.provider);
        }
        return o;
    }

    /** The address the soft provider's device is made on, or null. */
    String softDeviceAddress() {
        if (softAddress != null) {
            return softAddress;
        }
        return server ? address : source;
    }

    private static int number(String[] args, int i, String option, int min, int max) {
        return OptionArgs.number(args, i, option, min, max, Integer::parseInt);
    }
}

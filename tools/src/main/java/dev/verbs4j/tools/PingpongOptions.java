package dev.verbs4j.tools;

import dev.verbs4j.Mtu;

import static dev.verbs4j.tools.OptionArgs.value;

/**
 * The command line of {@code verbs4j pingpong}, parsed. The defaults are those of
 * {@code ibv_rc_pingpong}: TCP port 18515, 4096-byte messages, 1000 round trips.
 *
 * @param provider   the verbs provider ({@code soft} unless given)
 * @param device     the device name, or null for the first (or the one {@code address} makes)
 * @param address    an IP address to put a soft device on (inside a network namespace), or null
 * @param port       the TCP port the endpoints are exchanged on
 * @param sizeBytes  the message size
 * @param iterations the number of round trips
 * @param mtu        the path MTU, or null for the smaller of both ports' active MTUs
 * @param allOps     atomics, ATOMIC WRITE and FLUSH too
 * @param cm         connect through the connection manager on {@code port} instead of the TCP exchange
 * @param server     the server's host name or address, or null to be the server
 */
record PingpongOptions(String provider, String device, String address, int port, int sizeBytes, int iterations, Mtu mtu,
                       boolean allOps, boolean cm,
                       String server) {
    static final String USAGE = "usage: verbs4j pingpong [--provider soft] [--device NAME] [--address IP] [--port TCPPORT]"
            + " [--size BYTES] [--iters N] [--mtu 256|512|1024|2048|4096] [--all-ops] [--cm] [server-host]";

    /**
     * Parses the arguments after the subcommand.
     *
     * @throws IllegalArgumentException with a message for the user when they are malformed
     */
    static PingpongOptions parse(String[] args) {
        String provider = "soft";
        String device = null;
        String address = null;
        int port = 18515;
        int size = 4096;
        int iterations = 1000;
        Mtu mtu = null;
        String server = null;
        boolean allOps = false;
        boolean cm = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--provider" -> provider = value(args, ++i, arg);
                case "--device" -> device = value(args, ++i, arg);
                case "--address" -> address = value(args, ++i, arg);
                case "--port" -> port = number(args, ++i, arg, 1, 65535);
                case "--size" -> size = number(args, ++i, arg, 1, 1 << 30);
                case "--iters" -> iterations = number(args, ++i, arg, 1, Integer.MAX_VALUE);
                case "--mtu" -> mtu = Mtu.ofBytes(number(args, ++i, arg, 256, 4096));
                case "--all-ops" -> allOps = true;
                case "--cm" -> cm = true;
                default -> {
                    if (arg.startsWith("-") || server != null) {
                        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
                    }
                    server = arg;
                }
            }
        }
        if (address != null && !provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + provider);
        }
        if (cm && mtu != null) {
            throw new IllegalArgumentException("--mtu sets the TCP exchange's path MTU; with --cm the route gives it");
        }
        return new PingpongOptions(provider, device, address, port, size, iterations, mtu, allOps, cm, server);
    }

    boolean isServer() {
        return server == null;
    }

    private static int number(String[] args, int i, String option, int min, int max) {
        String text = value(args, i, option);
        try {
            int n = Integer.parseInt(text);
            if (n < min || n > max) {
                throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ": " + text);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number: " + text, e);
        }
    }
}

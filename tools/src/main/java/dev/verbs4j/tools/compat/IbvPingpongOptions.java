package dev.verbs4j.tools.compat;

import dev.verbs4j.Mtu;

import java.util.Map;

import static dev.verbs4j.tools.OptionArgs.value;

/**
 * The command line of {@code verbs4j pingpong --compat ibv...}: the options of the rdma-core
 * program it stands in for, spelled as that program spells them ({@code -s 4096},
 * {@code -s4096}, {@code --size=4096}, {@code --size 4096}), plus where the soft or ibverbs
 * device comes from.
 *
 * @param program    the program this side plays
 * @param provider   the verbs provider ({@code soft} unless given)
 * @param device     {@code -d}: the device, or null for the first (or the one {@code address} makes)
 * @param address    {@code --address}: an IP address to put a soft device on, or null
 * @param tcpPort    {@code -p}: the TCP port of the exchange
 * @param ibPort     {@code -i}: the device port
 * @param size       {@code -s}: the message size
 * @param mtu        {@code -m}: the path MTU (RC, UC, SRQ)
 * @param rxDepth    {@code -r}: receives posted at a time
 * @param iters      {@code -n}: messages each way
 * @param sl         {@code -l}: the service level
 * @param events     {@code -e}: wait for completion events instead of polling
 * @param gidIndex   {@code -g}: the local GID index, or -1 for the port's IPv4 GID (else its first)
 * @param odp        {@code -o}: register the buffer with On-Demand Paging
 * @param implicitOdp {@code -O}: one implicit On-Demand Paging region over all memory
 * @param prefetch   {@code -P}: prefetch the On-Demand Paging region
 * @param timestamps {@code -t}: completions with timestamps
 * @param validate   {@code -c}: the client marks each page, the server checks the marks
 * @param numQp      {@code -q}: queue pairs on the shared receive queue (SRQ)
 * @param server     the server to connect to, or null to be the server
 */
public record IbvPingpongOptions(IbvProgram program, String provider, String device, String address, int tcpPort, int ibPort,
                                 int size, Mtu mtu, int rxDepth, int iters, int sl, boolean events, int gidIndex, boolean odp,
                                 boolean implicitOdp, boolean prefetch, boolean timestamps, boolean validate, int numQp,
                                 String server) {
    static final String USAGE = "usage: verbs4j pingpong --compat ibv|ibv_rc_pingpong|ibv_uc_pingpong|ibv_ud_pingpong|ibv_srq_pingpong"
            + " [--provider soft] [--address IP] [the program's options: -p PORT -d DEV -i PORT -s SIZE -m MTU -r DEPTH -n ITERS"
            + " -l SL -e -g GIDX -o -O -P -t -c -q NUMQP] [server-host]";

    private static final Map<String, Character> LONG_NAMES = Map.ofEntries(
            Map.entry("port", 'p'), Map.entry("ib-dev", 'd'), Map.entry("ib-port", 'i'), Map.entry("size", 's'),
            Map.entry("mtu", 'm'), Map.entry("rx-depth", 'r'), Map.entry("iters", 'n'), Map.entry("sl", 'l'),
            Map.entry("events", 'e'), Map.entry("gid-idx", 'g'), Map.entry("odp", 'o'), Map.entry("iodp", 'O'),
            Map.entry("prefetch", 'P'), Map.entry("ts", 't'), Map.entry("chk", 'c'), Map.entry("dm", 'j'),
            Map.entry("new_send", 'N'), Map.entry("allow-cc-unprotected", 'U'), Map.entry("num_qp", 'q'));

    /**
     * Parses the arguments after {@code pingpong}.
     *
     * @throws IllegalArgumentException with a message for the user when they are malformed or ask for what the API lacks
     */
    public static IbvPingpongOptions parse(String[] args) {
        IbvProgram program = null;
        String provider = "soft";
        String device = null;
        String address = null;
        int tcpPort = 18515;
        int ibPort = 1;
        Integer size = null;
        Mtu mtu = Mtu.MTU_1024;
        int rxDepth = 500;
        int iters = 1000;
        int sl = 0;
        boolean events = false;
        int gidIndex = -1;
        boolean odp = false;
        boolean implicitOdp = false;
        boolean prefetch = false;
        boolean timestamps = false;
        boolean validate = false;
        int numQp = 16;
        String server = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--compat")) {
                program = IbvProgram.named(value(args, ++i, arg));
                continue;
            }
            if (arg.equals("--provider")) {
                provider = value(args, ++i, arg);
                continue;
            }
            if (arg.equals("--address")) {
                address = value(args, ++i, arg);
                continue;
            }
            char option;
            String inline = null;
            if (arg.startsWith("--")) {
                String name = arg.substring(2);
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    inline = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                Character c = LONG_NAMES.get(name);
                if (c == null) {
                    throw new IllegalArgumentException("unknown option " + arg);
                }
                option = c;
            } else if (arg.startsWith("-") && arg.length() > 1) {
                option = arg.charAt(1);
                if (arg.length() > 2) {
                    inline = arg.substring(2);
                }
            } else {
                if (server != null) {
                    throw new IllegalArgumentException("unexpected argument '" + arg + "'");
                }
                server = arg;
                continue;
            }
            if (program == null) {
                throw new IllegalArgumentException("--compat PROGRAM comes before the program's options");
            }
            if (!program.accepts(option)) {
                throw new IllegalArgumentException(program.command + " has no option -" + option);
            }
            String v = null;
            if (program.takesValue(option)) {
                v = inline != null ? inline : value(args, ++i, arg);
            }
            switch (option) {
                case 'p' -> tcpPort = number(v, arg, 0, 65535);
                case 'd' -> device = v;
                case 'i' -> ibPort = number(v, arg, 1, 255);
                case 's' -> size = number(v, arg, 1, 1 << 30);
                case 'm' -> mtu = Mtu.ofBytes(number(v, arg, 256, 4096));
                case 'r' -> rxDepth = number(v, arg, 1, 1 << 20);
                case 'n' -> iters = number(v, arg, 1, Integer.MAX_VALUE);
                case 'l' -> sl = number(v, arg, 0, 15);
                case 'e' -> events = true;
                case 'g' -> gidIndex = number(v, arg, 0, 1 << 16);
                case 'o' -> odp = true;
                case 'O' -> {
                    odp = true;
                    implicitOdp = true;
                }
                case 'P' -> prefetch = true;
                case 't' -> timestamps = true;
                case 'c' -> validate = true;
                case 'q' -> numQp = number(v, arg, 1, IbvProgram.SRQ_SLOTS - 1);
                case 'N' -> { } // ibv_wr_* or ibv_post_send: the same packets on the wire
                case 'j' -> throw new IllegalArgumentException("-j (device memory, ibv_alloc_dm) is not in the API");
                case 'U' -> throw new IllegalArgumentException("-U (CoCo unprotected memory) is not in the API");
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (program == null) {
            throw new IllegalArgumentException("--compat PROGRAM is missing");
        }
        if (!odp && prefetch) {
            throw new IllegalArgumentException("prefetch is valid only with on-demand memory region");
        }
        if (program == IbvProgram.SRQ && numQp > rxDepth) {
            throw new IllegalArgumentException("rx_depth " + rxDepth + " is too small for " + numQp + " QPs -- must have at least one receive per QP.");
        }
        if (address != null && !provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + provider);
        }
        return new IbvPingpongOptions(program, provider, device, address, tcpPort, ibPort, size != null ? size : program.defaultSize,
                mtu, rxDepth, iters, sl, events, gidIndex, odp, implicitOdp, prefetch, timestamps, validate,
                program == IbvProgram.SRQ ? numQp : 1, server);
    }

    /** A number as strtoul reads it: decimal, 0x hex or 0 octal. */
    private static int number(String text, String option, long min, long max) {
        long n;
        try {
            n = Long.decode(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a number, not '" + text + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(option + " " + n + " outside " + min + ".." + max);
        }
        return (int) n;
    }
}

package dev.verbs4j.conformance.twohost;

import dev.verbs4j.conformance.agent.AgentMain;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A peer that goes away: the reboot checks of the suite across two hosts. One host runs a
 * responder per device; the other runs a requester per device, connected to it, and one of
 * the requesters asks the responders' host to reboot. Each requester then checks what a
 * requester must do when its peer vanishes and comes back ({@link RebootRequester}).
 * <pre>
 * PeerRebootMain responder --provider ibverbs --device rxe0 --listen 10.9.1.2:18720 --control 10.9.1.2:18721 [--reboot-on-request]
 * PeerRebootMain requester --provider soft --device soft0 --name softToRxe --peer 10.9.1.2:18720 --control 10.9.1.2:18721
 *     --report FILE --meet FOLDER [--leader [--wait-for NAME,...]] [--timeout CODE] [--retry COUNT]
 * </pre>
 * The requester exits 0 when every check passed and 1 otherwise; the report file has one line per check.
 * It has no libibverbs counterpart: it is a harness, as the reboot of a machine is.
 */
public final class PeerRebootMain {
    private static final String USAGE = """
            usage: PeerRebootMain responder --provider P --device D --listen HOST:PORT --control HOST:PORT [--reboot-on-request]
                   PeerRebootMain requester --provider P --device D --name NAME --peer HOST:PORT --control HOST:PORT
                       --report FILE --meet FOLDER [--leader [--wait-for NAME,...]] [--timeout CODE] [--retry COUNT]""";
    /** 4.096 µs × 2^14, about 67 ms a timeout: short enough that the window ends long before a peer boots again. */
    private static final String DEFAULT_TIMEOUT = "14";
    private static final String DEFAULT_RETRY = "6";

    private PeerRebootMain() {
    }

    /**
     * Runs a responder or a requester; exits 2 for a usage error.
     *
     * @param args the role, then its options
     * @throws IOException when an address cannot be bound
     */
    public static void main(String[] args) throws IOException {
        if (args.length == 0 || !(args[0].equals("responder") || args[0].equals("requester"))) {
            usage("a role, responder or requester, comes first");
        }
        Map<String, String> options = options(args);
        // Timeout 0 waits forever and retry count 7 is endless on rxe: the checks need a bound.
        int timeout = number(options, "--timeout", DEFAULT_TIMEOUT, 1, 31);
        int retry = number(options, "--retry", DEFAULT_RETRY, 0, 6);
        try (RebootSide side = RebootSide.open(required(options, "--provider"), required(options, "--device"))) {
            if (args[0].equals("responder")) {
                new RebootResponder(side, options.containsKey("--reboot-on-request") ? RebootResponder.SYSRQ_REBOOT : null)
                        .serve(address(options, "--listen"), address(options, "--control"));
                return;
            }
            String name = required(options, "--name");
            InetSocketAddress control = address(options, "--control");
            List<String> others = options.containsKey("--wait-for") ? List.of(options.get("--wait-for").split(",")) : List.of();
            Rendezvous meeting = new Rendezvous(Path.of(required(options, "--meet")), name, options.containsKey("--leader"),
                    others, control, System::nanoTime);
            RebootRequester requester = new RebootRequester(side, name, timeout, retry, System::nanoTime,
                    new RebootReport(Path.of(required(options, "--report"))));
            boolean passed = requester.run(address(options, "--peer"), control, meeting);
            System.exit(passed ? 0 : 1);
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        while (!rest.isEmpty()) {
            String option = rest.removeFirst();
            if (option.equals("--reboot-on-request") || option.equals("--leader")) {
                options.put(option, "");
            } else if (option.startsWith("--") && !rest.isEmpty()) {
                options.put(option, rest.removeFirst());
            } else {
                usage("unexpected '" + option + "'");
            }
        }
        return options;
    }

    private static String required(Map<String, String> options, String option) {
        String value = options.get(option);
        if (value == null) {
            usage(option + " is required");
        }
        return value;
    }

    private static int number(Map<String, String> options, String option, String fallback, int min, int max) {
        String text = options.getOrDefault(option, fallback);
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // the usage below says what is expected
        }
        usage(option + " must be a number from " + min + " to " + max + ", not '" + text + "'");
        return -1;
    }

    private static InetSocketAddress address(Map<String, String> options, String option) {
        return AgentMain.parseAddress(required(options, option));
    }

    private static void usage(String why) {
        System.err.println("PeerRebootMain: " + why);
        System.err.println(USAGE);
        System.exit(2);
    }
}

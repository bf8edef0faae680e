package dev.verbs4j.tools;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The conformance suite's two commands, found on the class path rather than linked (the suite
 * is a module of its own, which brings JUnit; the {@code verbs4j} launcher adds it once it
 * has been built):
 * <ul>
 *   <li>{@code verbs4j conformance-agent --listen ADDRESS:PORT [--sessions N]}: the peer agent,
 *   which holds the remote side of a run whose two sides are in different processes or on
 *   different hosts (of N runs, one after another);</li>
 *   <li>{@code verbs4j conformance [options]}: the suite itself ({@code ConformanceMain}), whose
 *   remote side may be such an agent ({@code --peer-agent ADDRESS:PORT}).</li>
 * </ul>
 */
final class ConformanceAgentCommand {
    static final String AGENT_CLASS = "dev.verbs4j.conformance.agent.AgentMain";
    static final String SUITE_CLASS = "dev.verbs4j.conformance.ConformanceMain";

    private ConformanceAgentCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        int sessions = 1;
        if (args.length == 4 && args[2].equals("--sessions")) {
            try {
                sessions = Integer.parseInt(args[3]);
            } catch (NumberFormatException e) {
                sessions = 0;
            }
        }
        if ((args.length != 2 && args.length != 4) || !args[0].equals("--listen") || sessions < 1) {
            err.println("usage: verbs4j conformance-agent --listen ADDRESS:PORT [--sessions N]"
                    + "   (port 0 picks a free one; N runs of the suite one after another, default 1)");
            return 2;
        }
        Method parse = suiteMethod(AGENT_CLASS, "parseAddress", err, String.class);
        Method run = suiteMethod(AGENT_CLASS, "run", err, java.net.InetSocketAddress.class, int.class);
        if (parse == null || run == null) {
            return 1;
        }
        int n = sessions;
        return invoke("conformance-agent", err, () -> run.invoke(null, parse.invoke(null, args[1]), n));
    }

    /** {@code verbs4j conformance [ConformanceMain's options] [--next options]...}. */
    static int suite(String[] args, PrintStream out, PrintStream err) {
        Method run = suiteMethod(SUITE_CLASS, "runEach", err, String[].class, PrintStream.class);
        return run == null ? 1 : invoke("conformance", err, () -> run.invoke(null, args, out));
    }

    private interface Call {
        Object call() throws InvocationTargetException, IllegalAccessException;
    }

    private static Method suiteMethod(String type, String name, PrintStream err, Class<?>... parameters) {
        try {
            return Class.forName(type).getMethod(name, parameters);
        } catch (ReflectiveOperationException e) {
            err.println("verbs4j: the conformance suite is not on the class path; build it first"
                    + " (./test.sh, or mvn -pl conformance-tests -am package)");
            return null;
        }
    }

    private static int invoke(String command, PrintStream err, Call call) {
        try {
            return (Integer) call.call();
        } catch (InvocationTargetException e) {
            err.println("verbs4j " + command + ": " + e.getCause().getMessage());
            return 1;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

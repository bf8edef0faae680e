package dev.verbs4j.tools;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * {@code verbs4j conformance-agent --listen ADDRESS:PORT}: starts the conformance suite's
 * peer agent, which holds the remote side of a run whose two sides are in different
 * processes. The suite is a module of its own (it brings JUnit), so the agent is found on
 * the class path rather than linked: the {@code verbs4j} launcher adds the suite once it
 * has been built.
 */
final class ConformanceAgentCommand {
    static final String AGENT_CLASS = "dev.verbs4j.conformance.agent.AgentMain";

    private ConformanceAgentCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length != 2 || !args[0].equals("--listen")) {
            err.println("usage: verbs4j conformance-agent --listen ADDRESS:PORT   (port 0 picks a free one)");
            return 2;
        }
        Method run;
        Method parse;
        try {
            Class<?> agent = Class.forName(AGENT_CLASS);
            run = agent.getMethod("run", java.net.InetSocketAddress.class);
            parse = agent.getMethod("parseAddress", String.class);
        } catch (ReflectiveOperationException e) {
            err.println("verbs4j conformance-agent: the conformance suite is not on the class path; build it first"
                    + " (./test.sh, or mvn -pl conformance-tests -am package)");
            return 1;
        }
        try {
            return (Integer) run.invoke(null, parse.invoke(null, args[1]));
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            err.println("verbs4j conformance-agent: " + cause.getMessage());
            return 1;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

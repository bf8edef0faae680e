package dev.verbs4j.tools;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The {@code verbs4j} command. Subcommands:
 * <ul>
 * <li>{@code devices [-v] [--counters [--pid PID]]}: providers and devices with their capabilities, like
 * {@code ibv_devinfo}, and the soft devices' counters (of this process, or of the Java process PID)</li>
 * <li>{@code demo}: two soft devices on loopback addresses doing every kind of operation</li>
 * <li>{@code pingpong}: RC SEND/RECV round trips plus an RDMA WRITE and READ between two processes, like {@code ibv_rc_pingpong}</li>
 * <li>{@code perf}: perftest's measurements, in one process or as {@code --server} and client</li>
 * <li>{@code perf-report}: an HTML page with charts of what {@code perf --json} wrote</li>
 * <li>{@code conformance}: the conformance suite, once built</li>
 * <li>{@code conformance-agent}: the remote side of a conformance run whose sides are in two processes</li>
 * <li>{@code rping}, {@code rdma-server}, {@code rdma-client}: librdmacm's example programs on the wire, through the connection manager</li>
 * <li>{@code batch}: the commands read from standard input, one after another in one JVM</li>
 * </ul>
 */
public final class Verbs4jCli {
    private Verbs4jCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a subcommand; returns the process exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        try {
            return switch (command) {
                case "devices" -> DevicesCommand.run(rest, out);
                case "demo" -> DemoCommand.run(rest, out);
                case "pingpong" -> PingpongCommand.run(rest, out, err);
                case "perf" -> dev.verbs4j.tools.perf.PerfCommand.run(rest, out, err);
                case "perf-report" -> dev.verbs4j.tools.perf.PerfReport.run(rest, out);
                case "conformance-agent" -> ConformanceAgentCommand.run(rest, out, err);
                case "conformance" -> ConformanceAgentCommand.suite(rest, out, err);
                case "rping" -> dev.verbs4j.tools.compat.rping.RpingCommand.run(rest, out, err);
                case "rdma-server" -> dev.verbs4j.tools.compat.cmexample.CmExampleCommand.run(true, rest, out, err);
                case "rdma-client" -> dev.verbs4j.tools.compat.cmexample.CmExampleCommand.run(false, rest, out, err);
                case "batch" -> BatchCommand.run(rest, System.in, out, err);
                case "help", "-h", "--help" -> {
                    usage(out);
                    yield 0;
                }
                default -> {
                    err.println("verbs4j: unknown command '" + command + "'");
                    usage(err);
                    yield 2;
                }
            };
        } catch (RuntimeException e) {
            err.println("verbs4j " + command + ": " + e.getMessage());
            return 1;
        }
    }

    private static void usage(PrintStream out) {
        out.println("usage: verbs4j <command> [options]");
        out.println("  devices [-v] [--counters [--pid PID]] [--watch SECONDS [-d NAME]]");
        out.println("                 list providers and devices (like ibv_devinfo; -v for every attribute); --counters adds");
        out.println("                 each soft device's counters and its queue pairs' (from their MBeans), and with --pid");
        out.println("                 prints only those of the soft devices of the running Java process PID; --watch prints, for");
        out.println("                 SECONDS, each async event and each change of a port's state or active MTU");
        out.println("  demo           two soft devices on 127.0.0.1 and 127.0.0.2: send, write, read, atomics, ATOMIC WRITE, FLUSH");
        out.println("  pingpong [--provider soft] [--device NAME] [--address IP] [--port TCPPORT] [--size BYTES] [--iters N]"
                + " [--mtu BYTES] [--all-ops] [--cm] [server-host]");
        out.println("                 like ibv_rc_pingpong: server without a host, client with one; checks every byte;");
        out.println("                 --cm connects through the connection manager on --port instead of over TCP");
        out.println("  pingpong --compat ibv|ibv_rc_pingpong|ibv_uc_pingpong|ibv_ud_pingpong|ibv_srq_pingpong [--provider soft]");
        out.println("                 [--address IP] [that program's own options] [server-host]");
        out.println("                 one side of rdma-core's program, the other side being the C program itself");
        out.println("  perf TEST [HOST]");
        out.println("                 perftest-style measurement, both ends in this process, or against perf --server on HOST:");
        out.println("                 write_bw read_bw send_bw");
        out.println("                 atomic_bw atomic_write_bw flush_bw write_lat read_lat send_lat atomic_lat atomic_write_lat");
        out.println("                 write8_lat flush_lat flush_mr_lat, mr_cycle mw_cycle fr_cycle (register/bind/");
        out.println("                 fast-register + revoke rates), odp_bw (cold/warm on-demand vs pinned writes,");
        out.println("                 1 and 64 GiB registration), and the raw UDP baseline udp_bw udp_lat;");
        out.println("                 options -s SIZE, -a, -n ITERS, -m MTU, -t TX_DEPTH, -q QPS (bandwidth over QPS queue pairs),");
        out.println("                 -Q N (bandwidth: a completion every N requests, default 100), -D SECONDS (runs of -n");
        out.println("                 until the time is up), -l N (bandwidth: N requests per post call),");
        out.println("                 --provider NAME, -p PORT (side channel), --device NAME and --address IP (with a HOST),");
        out.println("                 --progress caller|thread, --json FILE, --persistent (FLUSH to a mapped file),");
        out.println("                 --threads 1|2 (write_lat, send_lat, udp_lat, udp_bw: one thread for both sides,");
        out.println("                 or one each)");
        out.println("  perf --server [--provider NAME] [--device NAME] [--address IP] [-p PORT]");
        out.println("                 the responder of one client's perf run, as a perftest server is");
        out.println("  perf --compat perftest TEST [perftest's options] [HOST]   (or perf --compat ib_TEST ...)");
        out.println("                 the server (no HOST) or the client of perftest's ib_TEST against the C program, speaking");
        out.println("                 its TCP exchange, or with -R its connection-manager one: TEST write_bw read_bw send_bw atomic_bw");
        out.println("                 write_lat read_lat send_lat");
        out.println("                 atomic_lat; options -d DEV, -i PORT, -p TCPPORT, -s SIZE, -a, -n ITERS, -q QPS, -x GID_INDEX,");
        out.println("                 -m MTU, -t TX_DEPTH, -r RX_DEPTH, -A FETCH_AND_ADD|CMP_AND_SWAP, --odp, -F, --report_gbits,");
        out.println("                 -R, --provider NAME, --address IP; what cannot be honoured (-z, -b, -D, -e, -c UC/UD...) exits 1");
        out.println("  rping -s|-c [-a ADDR] [-I ADDR] [-p PORT] [-C COUNT] [-S SIZE] [-v] [-V] [-d] [-q] [--provider NAME]");
        out.println("        [--device NAME] [--address IP]");
        out.println("                 rdma-core's rping through the connection manager: meets the C rping either way round");
        out.println("  rdma-server [-s ADDR] [-p PORT] | rdma-client [-s ADDR] [-p PORT]   [--provider NAME] [--device NAME] [--address IP]");
        out.println("                 librdmacm's rdma_server and rdma_client: one 16-byte SEND each way (port 7471)");
        out.println("  conformance [--provider NAME] [--device NAME] [--peer-provider NAME] [--peer-device NAME]");
        out.println("              [--peer-agent ADDRESS:PORT] [--connect cm] [--select FAMILY]... (--help for all)");
        out.println("                 the conformance suite (needs the suite built); its remote side in this process, or in");
        out.println("                 an agent on another process or host");
        out.println("  conformance-agent --listen ADDRESS:PORT");
        out.println("                 the remote side of a conformance run in two processes, namespaces or hosts: the test");
        out.println("                 process runs verbs4j conformance ... --peer-agent ADDRESS:PORT (needs the suite built)");
        out.println("  batch [--timeout-s SECONDS]");
        out.println("                 runs the commands on standard input one after another in this JVM, one per line:");
        out.println("                 OUTPUT-FILE<TAB>ARG<TAB>ARG...; each one's status goes to OUTPUT-FILE.rc and as 'exit N' to");
        out.println("                 standard output; the first that fails, or outlasts the timeout (default 90 s), ends the batch");
        out.println("  perf-report IN.jsonl [OUT.html]");
        out.println("                 an HTML page with charts (bandwidth, latency against size) of what perf --json wrote");
    }
}

package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Mtu;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.tools.DeviceChoice;
import dev.verbs4j.tools.cm.CmSetup;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;

/**
 * {@code verbs4j perf --compat perftest TEST [options] [HOST]}: takes the place of perftest's
 * {@code ib_TEST} on one side, server (no host) or client, against the C program on the other.
 * The sequence of side-channel exchanges follows each program's {@code main} (perftest's
 * write_bw.c, read_bw.c, send_bw.c, atomic_bw.c and the _lat twins), since every step is a
 * lock-step exchange and a missing or extra one would leave both sides waiting:
 * <pre>
 * all:                    version, page size, cache line, MTU
 * write/read/atomic_bw:   keys x QPs, (connect), keys x QPs, keys; client runs; keys, reports, keys, "done"
 * send_bw:                keys x QPs, (connect), keys, keys x QPs; per size: (server posts receives)
 *                         keys, run, [keys with -a]; keys, "done"
 * write_lat:              keys, keys x QPs, (connect), keys x QPs, keys; both run; nothing more
 * read_lat, atomic_lat:   keys, keys x QPs, (connect), keys x QPs, keys; client runs; keys, "done"
 * send_lat:               keys x QPs, (connect), keys, keys x QPs; per size: post receives, keys, run;
 *                         keys, "done"
 * </pre>
 * With {@code -R} the same steps travel over a connection-manager connection
 * ({@link CmSideChannel}) and without the closing "done"; before the first of them, an
 * exchange, the test's queue pairs connected through the connection manager
 * ({@link CmDataConnection}), and another exchange; "(connect)" is then left to the ids.
 */
public final class PerftestCompat {
    /** Our side's page size and cache line, offered in {@code check_sys_data}. */
    private static final int PAGE_SIZE = 4096;
    private static final int CACHE_LINE = 64;
    /** ib_write_lat ends without a last exchange: time for the acknowledgement of the peer's last write to leave. */
    private static final long LINGER_MS = 200;

    private PerftestCompat() {
    }

    /** Whether {@code perf} was given {@code --compat} first. */
    public static boolean requested(String[] perfArgs) {
        return perfArgs.length > 0 && perfArgs[0].equals("--compat");
    }

    /**
     * @param perfArgs {@code --compat} and what follows it
     * @return the exit status: 0 when the run completed
     * @throws IllegalArgumentException for options that are wrong or refused (the CLI exits 1 with the reason)
     */
    public static int run(String[] perfArgs, PrintStream out, PrintStream err) {
        PerftestOptions o = PerftestOptions.parse(java.util.Arrays.copyOfRange(perfArgs, 1, perfArgs.length));
        if (o.progress != null) {
            System.setProperty("verbs4j.soft.progress", o.progress);
        }
        if (o.rdmaCm) {
            return runWithCm(o, out);
        }
        Device device = DeviceChoice.choose(o.provider, o.device, o.address);
        DeviceContext ctx = device.open();
        String role = o.isServer() ? "server" : "client";
        out.printf("verbs4j perf --compat perftest: %s %s (%s) on %s%n", o.test.program(), role,
                o.isServer() ? "waiting on TCP port " + o.port : "of " + o.host + ":" + o.port, device.name());
        out.flush();
        SideChannel channel;
        try {
            channel = o.isServer() ? SideChannel.accept(o.port) : SideChannel.connect(o.host, o.port);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
        try (channel) {
            runOn(o, channel, ctx, null, out);
        }
        return 0;
    }

    /**
     * With {@code -R}: the exchange on a connection-manager connection of its own, the test's
     * queue pairs connected through the connection manager too, all on the device the
     * exchange's connection came up on.
     */
    private static int runWithCm(PerftestOptions o, PrintStream out) {
        String role = o.isServer() ? "server" : "client";
        InetSocketAddress here = o.address == null ? null : CmSetup.address(o.address, o.isServer() ? o.port : 0);
        out.printf("verbs4j perf --compat perftest: %s %s with rdma_cm (%s)%n", o.test.program(), role,
                o.isServer() ? "port " + o.port : "of " + o.host + ":" + o.port);
        out.flush();
        try (CmEventChannel exchange = CmSetup.channel(o.provider, o.address);
             CmEventChannel data = CmSetup.channel(o.provider, null)) {
            CmSideChannel channel = o.isServer()
                    ? CmSideChannel.accept(exchange, here != null ? here : CmSetup.address(null, o.port), o.device, o.gidIndex, out)
                    : CmSideChannel.connect(exchange, here, CmSetup.address(o.host, o.port), o.device, o.gidIndex);
            try (channel) {
                out.printf(" rdma_cm exchange connected on %s%n", channel.device().name());
                runOn(o, channel, channel.device().open(), data, out);
            }
        }
        return 0;
    }

    /** The common part: versions, system data, MTU, then the test's own sequence; {@code ctx} is closed here. */
    private static void runOn(PerftestOptions o, PerftestChannel channel, DeviceContext ctx, CmEventChannel cm,
                              PrintStream out) {
        double peerVersion;
        int[] sys;
        Mtu path;
        try {
            peerVersion = channel.versions();
            sys = channel.sysData(PAGE_SIZE, CACHE_LINE);
            path = Mtu.of(channel.mtu(PerftestSide.proposedMtu(o, ctx).value()));
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
        try (PerftestSide side = new PerftestSide(o, ctx, sys[0], sys[1])) {
            out.printf(Locale.ROOT, " peer perftest %.2f; %s; path MTU %d; %d iterations, tx depth %d%n", peerVersion,
                    side.describe(), path.bytes(), o.iterations(), o.txDepth());
            Sequence sequence = new Sequence(o, channel, side, path, cm, out);
            try {
                sequence.run();
            } finally {
                sequence.disconnect();
                side.printSoftCounters(out);
            }
        }
    }

    /** One run's exchanges and data path, in the order of the C program's {@code main}. */
    private static final class Sequence {
        private final PerftestOptions o;
        private final PerftestChannel channel;
        private final PerftestSide side;
        private final Mtu path;
        /** With -R, the channel the test's queue pairs connect on; else null. */
        private final CmEventChannel cm;
        private final PrintStream out;
        private CmDataConnection connection;

        Sequence(PerftestOptions o, PerftestChannel channel, PerftestSide side, Mtu path, CmEventChannel cm, PrintStream out) {
            this.o = o;
            this.channel = channel;
            this.side = side;
            this.path = path;
            this.cm = cm;
            this.out = out;
        }

        void run() {
            if (cm != null) {
                connectThroughCm();
            }
            switch (o.test) {
                case WRITE_BW, READ_BW, ATOMIC_BW -> oneSidedBandwidth();
                case SEND_BW -> sendBandwidth();
                case WRITE_LAT -> writeLatency();
                case READ_LAT, ATOMIC_LAT -> oneSidedLatency();
                case SEND_LAT -> sendLatency();
            }
        }

        private KeyMessage[] keysOfEveryQp() {
            KeyMessage[] theirs = new KeyMessage[side.qps.length];
            for (int i = 0; i < theirs.length; i++) {
                theirs[i] = channel.keys(side.keys(i));
            }
            return theirs;
        }

        private void sync() {
            channel.keys(side.keys(0));
        }

        /** {@code create_rdma_cm_connection}: an exchange, the connections, another exchange. */
        private void connectThroughCm() {
            InetSocketAddress here = o.address == null ? null : CmSetup.address(o.address, o.isServer() ? o.port : 0);
            if (o.isServer()) {
                CmId listener = CmDataConnection.listen(cm, side, here != null ? here : CmSetup.address(null, o.port));
                try {
                    sync();
                } catch (RuntimeException e) {
                    listener.close();
                    throw e;
                }
                connection = CmDataConnection.accept(cm, side, listener);
            } else {
                sync();
                connection = CmDataConnection.connect(cm, side, here, CmSetup.address(o.host, o.port));
            }
            out.printf(" %d queue pair(s) connected through rdma_cm%n", side.qps.length);
            sync();
        }

        void disconnect() {
            if (connection != null) {
                connection.close();
            }
        }

        private KeyMessage[] connect(KeyMessage[] theirs) {
            if (cm == null) {
                side.connect(theirs, path);
            }
            for (int i = 0; i < theirs.length; i++) {
                out.printf(Locale.ROOT, "  local QPN 0x%06x PSN 0x%06x RKey 0x%08x VAddr 0x%016x%n", side.keys(i).qpn(),
                        side.keys(i).psn(), side.keys(i).rkey(), side.keys(i).vaddr());
                out.printf(Locale.ROOT, " remote QPN 0x%06x PSN 0x%06x RKey 0x%08x VAddr 0x%016x GID %s%n", theirs[i].qpn(),
                        theirs[i].psn(), theirs[i].rkey(), theirs[i].vaddr(), theirs[i].gid());
            }
            return theirs;
        }

        private void oneSidedBandwidth() {
            KeyMessage[] theirs = connect(keysOfEveryQp());
            keysOfEveryQp();
            sync();
            Tables.bandwidthHeader(out, o.reportGbits);
            BwReport mine = BwReport.EMPTY;
            if (!o.isServer()) {
                for (int size : o.runSizes()) {
                    mine = BandwidthRun.client(side, theirs, size, o.iterations());
                    Tables.bandwidthLine(out, mine);
                }
            }
            sync();
            // The server prints what the client measured; the client sends its last size's figures.
            BwReport peer = channel.reports(mine);
            if (o.isServer()) {
                Tables.bandwidthLine(out, peer);
            }
            Tables.rule(out);
            channel.finish(side.keys(0));
        }

        private void sendBandwidth() {
            KeyMessage[] theirs = connect(keysOfEveryQp());
            sync();
            keysOfEveryQp();
            Tables.bandwidthHeader(out, o.reportGbits);
            for (int size : o.runSizes()) {
                int[] posted = o.isServer() ? BandwidthRun.postReceives(side, size, o.iterations()) : null;
                sync();
                BwReport r = o.isServer() ? BandwidthRun.server(side, posted, size, o.iterations())
                        : BandwidthRun.client(side, theirs, size, o.iterations());
                Tables.bandwidthLine(out, r);
                if (o.allSizes) {
                    sync();
                }
            }
            Tables.rule(out);
            channel.finish(side.keys(0));
        }

        private void writeLatency() {
            sync();
            KeyMessage[] theirs = connect(keysOfEveryQp());
            keysOfEveryQp();
            sync();
            Tables.latencyHeader(out);
            for (int size : o.runSizes()) {
                Tables.latencyLine(out, size, o.iterations(), LatencyRun.write(side, theirs[0], size, o.iterations(), o.isServer()));
            }
            Tables.rule(out);
            linger();
        }

        private void oneSidedLatency() {
            sync();
            KeyMessage[] theirs = connect(keysOfEveryQp());
            keysOfEveryQp();
            sync();
            if (!o.isServer()) {
                Tables.latencyHeader(out);
                List<Integer> sizes = o.runSizes();
                for (int size : sizes) {
                    Tables.latencyLine(out, size, o.iterations(), LatencyRun.oneSided(side, theirs[0], size, o.iterations()));
                }
                Tables.rule(out);
            }
            channel.finish(side.keys(0));
        }

        private void sendLatency() {
            connect(keysOfEveryQp());
            sync();
            keysOfEveryQp();
            Tables.latencyHeader(out);
            for (int size : o.runSizes()) {
                int posted = LatencyRun.postReceives(side, size, o.iterations());
                sync();
                Tables.latencyLine(out, size, o.iterations(), LatencyRun.send(side, size, o.iterations(), posted, o.isServer()));
            }
            Tables.rule(out);
            channel.finish(side.keys(0));
        }

        private static void linger() {
            try {
                Thread.sleep(LINGER_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package dev.verbs4j.tools;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.GidEntry;
import dev.verbs4j.GidType;
import dev.verbs4j.OdpCapabilities;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.VerbsException;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code verbs4j devices}: what {@code ibv_devinfo} prints, for every provider; with
 * {@code --counters}, each soft device's counters too, and with {@code --counters --pid PID}
 * only the counters of the soft devices of another Java process.
 */
final class DevicesCommand {
    private DevicesCommand() {
    }

    static int run(String[] args, PrintStream out) {
        List<String> options = List.of(args);
        boolean verbose = options.contains("-v");
        boolean counters = options.contains("--counters");
        int watch = options.indexOf("--watch");
        if (watch >= 0) {
            return watch(args, watch, out);
        }
        int pid = options.indexOf("--pid");
        if (pid >= 0) {
            if (!counters || pid + 1 >= args.length) {
                throw new IllegalArgumentException("usage: verbs4j devices --counters --pid PID");
            }
            try {
                CountersReport.printProcess(args[pid + 1], out);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e.getMessage(), e);
            }
            return 0;
        }
        for (Provider provider : Verbs.providers()) {
            List<Device> devices = provider.devices();
            out.println("provider " + provider.name() + ": " + devices.size() + " device(s)"
                    + provider.unavailableReason().map(r -> " (" + r + ")").orElse(""));
            for (Device device : devices) {
                describe(device, verbose, counters, out);
            }
        }
        return 0;
    }

    /**
     * {@code devices --watch SECONDS [-d NAME]}: opens the devices (or the one named) and, for
     * that long, prints a line for each async event and for each change of a port's state or
     * active MTU (which has no event): {@code soft0 port 1 state PORT_ACTIVE active_mtu 1024},
     * {@code soft0 event GID_CHANGE 1}.
     */
    private static int watch(String[] args, int at, PrintStream out) {
        if (at + 1 >= args.length) {
            throw new IllegalArgumentException("usage: verbs4j devices --watch SECONDS [-d NAME]");
        }
        long watchNs = (long) (Double.parseDouble(args[at + 1]) * 1e9);
        int d = List.of(args).indexOf("-d");
        String only = d >= 0 && d + 1 < args.length ? args[d + 1] : null;
        List<DeviceContext> open = new java.util.ArrayList<>();
        try {
            for (Provider provider : Verbs.providers()) {
                for (Device device : provider.devices()) {
                    if (only == null || only.equals(device.name())) {
                        open.add(device.open());
                    }
                }
            }
            if (open.isEmpty()) {
                throw new IllegalArgumentException("no device " + only);
            }
            String[] last = new String[open.size()];
            out.println("watching " + open.size() + " device(s)");
            long endNs = System.nanoTime() + watchNs;
            do {
                for (int i = 0; i < open.size(); i++) {
                    DeviceContext ctx = open.get(i);
                    PortAttributes p = ctx.queryPort(1);
                    String line = ctx.device().name() + " port 1 state " + p.state() + " active_mtu " + p.activeMtu().bytes();
                    if (!line.equals(last[i])) {
                        out.println(line);
                        last[i] = line;
                    }
                    ctx.nextAsyncEvent(java.time.Duration.ofMillis(50 / open.size() + 1)).ifPresent(e ->
                            out.println(ctx.device().name() + " event " + e.type() + " " + e.element()));
                }
                out.flush();
            } while (System.nanoTime() - endNs < 0);
        } finally {
            for (DeviceContext ctx : open) {
                ctx.close();
            }
        }
        return 0;
    }

    private static void describe(Device device, boolean verbose, boolean counters, PrintStream out) {
        out.println("hca_id:\t" + device.name());
        out.printf("\tnode_guid:\t\t%016x%n", device.guid());
        try (DeviceContext ctx = device.open()) {
            DeviceAttributes a = ctx.queryDevice();
            out.println("\tfw_ver:\t\t\t" + a.firmwareVersion());
            out.printf("\tdevice_cap_flags_ex:\t0x%X%n", a.capabilityFlags());
            out.println("\t\t\t\t" + String.join(" ", a.capabilities().stream().map(DeviceCapability::name).toList()));
            out.println("\tFLUSH global/persistent:\t" + yesNo(a.has(DeviceCapability.FLUSH_GLOBAL)) + "/"
                    + yesNo(a.has(DeviceCapability.FLUSH_PERSISTENT)) + "\tATOMIC WRITE: " + yesNo(a.has(DeviceCapability.ATOMIC_WRITE)));
            out.println("\tmemory windows:\t\t" + (a.has(DeviceCapability.MEM_WINDOW) ? "type 1" : "none")
                    + (a.has(DeviceCapability.MEM_WINDOW_TYPE_2A) ? ", type 2A" : "")
                    + (a.has(DeviceCapability.MEM_WINDOW_TYPE_2B) ? ", type 2B" : "")
                    + "\tMEM_MGT_EXTENSIONS: " + yesNo(a.has(DeviceCapability.MEM_MGT_EXTENSIONS)));
            out.println("\tatomic_cap:\t\t" + a.atomicCapability());
            out.println("\todp:\t\t\t" + odp(a.odp()));
            if (verbose) {
                out.println("\tmax_mr_size:\t\t0x" + Long.toHexString(a.maxMrSize()));
                out.println("\tmax_qp:\t\t\t" + a.maxQp() + "\tmax_qp_wr: " + a.maxQpWr() + "\tmax_sge: " + a.maxSge());
                out.println("\tmax_cq:\t\t\t" + a.maxCq() + "\tmax_cqe: " + a.maxCqe());
                out.println("\tmax_mr:\t\t\t" + a.maxMr() + "\tmax_mw: " + a.maxMw() + "\tmax_pd: " + a.maxPd());
                out.println("\tmax_qp_rd_atom:\t\t" + a.maxQpRdAtom() + "\tmax_qp_init_rd_atom: " + a.maxQpInitRdAtom());
                out.println("\tmax_srq:\t\t" + a.maxSrq() + "\tmax_srq_wr: " + a.maxSrqWr() + "\tmax_srq_sge: " + a.maxSrqSge());
                out.println("\thca_core_clock:\t\t" + a.hcaCoreClockKhz() + "kHZ\tcompletion_timestamp_mask: 0x"
                        + Long.toHexString(a.completionTimestampMask()));
            }
            int gidRoom = 0;
            for (int port = 1; port <= a.physicalPortCount(); port++) {
                gidRoom += ctx.queryPort(port).gidTableLength();
            }
            List<GidEntry> gids = ctx.queryGidTable(gidRoom);
            for (int port = 1; port <= a.physicalPortCount(); port++) {
                PortAttributes p = ctx.queryPort(port);
                out.println("\t\tport:\t" + port);
                out.println("\t\t\tstate:\t\t" + p.state());
                out.println("\t\t\tmax_mtu:\t" + p.maxMtu().bytes() + "\tactive_mtu: " + p.activeMtu().bytes());
                out.println("\t\t\tlink_layer:\t" + (p.linkLayerEthernet() ? "Ethernet" : "InfiniBand"));
                for (GidEntry e : gids) {
                    if (e.port() == port) {
                        out.println(gidLine(e));
                    }
                }
            }
            if (counters) {
                printCounters(device, out);
            }
        } catch (VerbsException e) {
            out.println("\tcannot open: " + e.getMessage());
        }
    }

    /** A soft device's counters from its MBeans (the device is open, so they are there). */
    private static void printCounters(Device device, PrintStream out) {
        if (device.providerName().equals("soft")) {
            CountersReport.printLocal(device.name(), out);
        } else {
            out.println("\tcounters:		the kernel's, in /sys/class/infiniband/" + device.name() + "/ports/*/hw_counters");
        }
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }

    private static String odp(OdpCapabilities odp) {
        if (!odp.supported()) {
            return "no";
        }
        return "yes" + (odp.implicit() ? " (implicit)" : "") + "; rc " + odp.rc() + "; ud " + odp.ud();
    }

    /** A GID table entry as {@code ibv_devinfo -v} prints it: {@code GID[  0]:\t\tfe80::1, RoCE v2}. */
    static String gidLine(GidEntry e) {
        return String.format("\t\t\tGID[%3d]:\t\t%s, %s", e.index(), ntop(e.gid().toBytes()), gidTypeName(e.type()));
    }

    /**
     * A 16-byte address as {@code inet_ntop(AF_INET6)} writes it (RFC 5952): lower-case hex
     * groups without leading zeros, the longest run of two or more zero groups (the first of
     * equals) as {@code ::}, and an IPv4-mapped address as {@code ::ffff:a.b.c.d}.
     */
    static String ntop(byte[] a) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (a[2 * i] & 0xff) << 8 | (a[2 * i + 1] & 0xff);
        }
        if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff) {
            return "::ffff:" + (a[12] & 0xff) + "." + (a[13] & 0xff) + "." + (a[14] & 0xff) + "." + (a[15] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                b.append("::");
                i += bestLength - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
                b.append(':');
            }
            b.append(Integer.toHexString(g[i]));
        }
        return b.toString();
    }

    /** The GID type as ibv_devinfo names it. */
    private static String gidTypeName(GidType type) {
        return switch (type) {
            case IB -> "IB/RoCE v1";
            case ROCE_V1 -> "RoCE v1";
            case ROCE_V2 -> "RoCE v2";
        };
    }
}

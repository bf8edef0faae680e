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
                        out.println("\t\t\tGID[" + e.index() + "]:\t" + e.gid() + ", " + gidTypeName(e.type()) + " ("
                                + e.gid().toInetAddress().getHostAddress() + ")");
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

    /** The GID type as ibv_devinfo names it. */
    private static String gidTypeName(GidType type) {
        return switch (type) {
            case IB -> "IB/RoCE v1";
            case ROCE_V1 -> "RoCE v1";
            case ROCE_V2 -> "RoCE v2";
        };
    }
}

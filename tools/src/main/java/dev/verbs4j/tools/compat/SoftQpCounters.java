package dev.verbs4j.tools.compat;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.QueuePair;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;

/**
 * The transport counters of a compat program's queue pairs on a soft device, summed, as one
 * line printed when the program ends: what its retransmission and acknowledgement machinery
 * did (retransmits, time-outs, NAKs and RNR NAKs each way, duplicates and packets out of
 * sequence received, responses that answered nothing). They come from each queue pair's MBean
 * ({@code dev.verbs4j:type=SoftQueuePair}), which goes when the queue pair is destroyed, so
 * the line is printed before. A device of another provider has no such beans: nothing is
 * printed. The line's form, {@code soft counters (DEVICE, N queue pairs): name=value ...},
 * is what scripts read; the C programs print nothing like it.
 */
public final class SoftQpCounters {
    /** The counters the line shows, in its order. */
    static final String[] SHOWN = {"retransmits", "timeouts", "naks_sent", "naks_received", "rnr_naks_sent",
        "rnr_naks_received", "duplicates", "out_of_sequence", "drop_ghost_response"};

    private SoftQpCounters() {
    }

    /** Prints the line for {@code qps} of {@code ctx}'s device to {@code out}, if they are soft queue pairs. */
    public static void print(DeviceContext ctx, Iterable<QueuePair> qps, PrintStream out) {
        if (ctx == null || qps == null) {
            return;
        }
        String line = line(ctx.device().name(), qps);
        if (line != null) {
            out.println(line);
        }
    }

    /** The line, or null when none of the queue pairs has an MBean. */
    static String line(String device, Iterable<QueuePair> qps) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long[] sums = new long[SHOWN.length];
        int found = 0;
        for (QueuePair qp : qps) {
            if (qp == null) {
                continue;
            }
            try {
                ObjectName bean = new ObjectName("dev.verbs4j:type=SoftQueuePair,device=" + ObjectName.quote(device)
                        + ",qpn=" + qp.qpn());
                if (!server.isRegistered(bean)) {
                    continue;
                }
                for (int i = 0; i < SHOWN.length; i++) {
                    sums[i] += (Long) server.getAttribute(bean, SHOWN[i]);
                }
                found++;
            } catch (JMException | RuntimeException e) {
                // a queue pair already gone, or beans unreadable: left out of the sum
            }
        }
        if (found == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder("soft counters (").append(device).append(", ").append(found)
                .append(found == 1 ? " queue pair):" : " queue pairs):");
        for (int i = 0; i < SHOWN.length; i++) {
            sb.append(' ').append(SHOWN[i]).append('=').append(sums[i]);
        }
        return sb.toString();
    }
}

package dev.verbs4j.tools.perf;

import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

/**
 * One line of a soft device's counters after a run (packets, retransmits, time-outs, drops,
 * then every other counter that is not zero),
 * read from its MBean ({@code dev.verbs4j:type=SoftDevice,name="soft0"}), so that it works
 * with the provider on the module path, where its engine is not exported. Devices of other
 * providers have no such bean and give nothing.
 */
final class SoftCounterLine {
    /** The counters every line shows; any other that is not zero follows them, by name. */
    private static final java.util.Set<String> SHOWN = java.util.Set.of("packets_out", "packets_in", "bytes_out", "bytes_in",
            "retransmits", "timeouts");

    private SoftCounterLine() {
    }

    static String of(End... ends) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        StringBuilder sb = new StringBuilder();
        for (End e : ends) {
            String device = e.ctx.device().name();
            try {
                ObjectName bean = new ObjectName("dev.verbs4j:type=SoftDevice,name=" + ObjectName.quote(device));
                if (!server.isRegistered(bean)) {
                    continue;
                }
                java.util.Map<String, Long> counters = new java.util.HashMap<>();
                long drops = 0;
                StringBuilder others = new StringBuilder();
                for (MBeanAttributeInfo a : server.getMBeanInfo(bean).getAttributes()) {
                    String name = a.getName();
                    long value = (Long) server.getAttribute(bean, name);
                    counters.put(name, value);
                    if (name.startsWith("drop_")) {
                        drops += value;
                    }
                    if (value != 0 && !SHOWN.contains(name)) {
                        others.append(", ").append(name).append(' ').append(value);
                    }
                }
                sb.append(String.format(" %s: out %d, in %d, retransmits %d, timeouts %d, drops %d%s;", device,
                        counters.get("packets_out"), counters.get("packets_in"), counters.get("retransmits"),
                        counters.get("timeouts"), drops, others));
            } catch (JMException ex) {
                sb.append(' ').append(device).append(": counters unreadable (").append(ex.getMessage()).append(");");
            }
        }
        return sb.toString();
    }
}

package dev.verbs4j.tools.perf;

import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

/**
 * One line of a soft device's counters after a run (packets, retransmits, time-outs, drops),
 * read from its MBean ({@code dev.verbs4j:type=SoftDevice,name="soft0"}), so that it works
 * with the provider on the module path, where its engine is not exported. Devices of other
 * providers have no such bean and give nothing.
 */
final class SoftCounterLine {
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
                long drops = 0;
                for (MBeanAttributeInfo a : server.getMBeanInfo(bean).getAttributes()) {
                    if (a.getName().startsWith("drop_")) {
                        drops += (Long) server.getAttribute(bean, a.getName());
                    }
                }
                sb.append(String.format(" %s: out %d, in %d, retransmits %d, timeouts %d, drops %d;", device,
                        (Long) server.getAttribute(bean, "packets_out"), (Long) server.getAttribute(bean, "packets_in"),
                        (Long) server.getAttribute(bean, "retransmits"), (Long) server.getAttribute(bean, "timeouts"),
                        drops));
            } catch (JMException ex) {
                sb.append(' ').append(device).append(": counters unreadable (").append(ex.getMessage()).append(");");
            }
        }
        return sb.toString();
    }
}

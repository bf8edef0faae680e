package dev.verbs4j.tools;

import com.sun.tools.attach.VirtualMachine;

import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.List;

/**
 * Prints the soft devices' counters from their MBeans ({@code dev.verbs4j:type=SoftDevice}
 * and {@code type=SoftQueuePair}): every counter of a device, and the counters of each of its
 * queue pairs that are not zero. Reads this process's MBean server, or another JVM's through
 * the attach API (its local management agent, started if need be).
 */
final class CountersReport {
    private static final String DOMAIN = "dev.verbs4j";

    private CountersReport() {
    }

    /** The counters of soft device {@code device} in this process, indented for {@code verbs4j devices}. */
    static void printLocal(String device, PrintStream out) {
        print(ManagementFactory.getPlatformMBeanServer(), device, out);
    }

    /** The counters of every soft device of the JVM with process id {@code pid}. */
    static void printProcess(String pid, PrintStream out) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(pid);
        } catch (com.sun.tools.attach.AttachNotSupportedException e) {
            throw new IOException("cannot attach to process " + pid + ": " + e.getMessage(), e);
        }
        try {
            String address = vm.startLocalManagementAgent();
            try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
                MBeanServerConnection server = connector.getMBeanServerConnection();
                List<String> devices = deviceNames(server);
                out.println("process " + pid + ": " + devices.size() + " soft device(s)");
                for (String device : devices) {
                    out.println("hca_id:\t" + device);
                    print(server, device, out);
                }
            }
        } finally {
            vm.detach();
        }
    }

    private static List<String> deviceNames(MBeanServerConnection server) throws IOException {
        return server.queryNames(pattern("type=SoftDevice,*"), null).stream()
                .map(n -> ObjectName.unquote(n.getKeyProperty("name"))).sorted().toList();
    }

    private static void print(MBeanServerConnection server, String device, PrintStream out) {
        try {
            String quoted = ObjectName.quote(device);
            ObjectName deviceBean = pattern("type=SoftDevice,name=" + quoted);
            if (!server.isRegistered(deviceBean)) {
                out.println("\tcounters:\t\tnone (not a soft device of this process)");
                return;
            }
            out.println("\tcounters:");
            for (MBeanAttributeInfo a : server.getMBeanInfo(deviceBean).getAttributes()) {
                out.println("\t\t" + a.getName() + ":\t" + server.getAttribute(deviceBean, a.getName()));
            }
            List<ObjectName> qps = server.queryNames(pattern("type=SoftQueuePair,device=" + quoted + ",*"), null).stream()
                    .sorted(Comparator.comparingInt(n -> Integer.parseInt(n.getKeyProperty("qpn")))).toList();
            for (ObjectName qp : qps) {
                StringBuilder line = new StringBuilder("\tqp 0x" + Integer.toHexString(Integer.parseInt(qp.getKeyProperty("qpn"))) + ":");
                int shown = 0;
                for (MBeanAttributeInfo a : server.getMBeanInfo(qp).getAttributes()) {
                    Object value = server.getAttribute(qp, a.getName());
                    if (value instanceof Long l && l != 0) {
                        line.append(shown++ == 0 ? " " : ", ").append(a.getName()).append(' ').append(l);
                    }
                }
                out.println(shown == 0 ? line + " all zero" : line.toString());
            }
        } catch (JMException | IOException e) {
            out.println("\tcounters:\t\tunreadable: " + e.getMessage());
        }
    }

    private static ObjectName pattern(String keys) {
        try {
            return new ObjectName(DOMAIN + ":" + keys);
        } catch (JMException e) {
            throw new IllegalArgumentException(e);
        }
    }
}

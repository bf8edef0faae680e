package dev.verbs4j.softroce.monitor;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;

/**
 * The MBeans of one soft device in the platform MBean server, so JConsole, JDK Mission
 * Control or any JMX client reads its counters: {@value #DOMAIN}{@code :type=SoftDevice,name=<device>}
 * with the device's counters and {@code odp_faults}, and
 * {@value #DOMAIN}{@code :type=SoftQueuePair,device=<device>,qpn=<number>} with each queue
 * pair's. They come with the device's engine and go with it. Registration is best effort: a
 * name already taken (two open devices of one name) leaves the second unregistered, and a JVM
 * without JMX still runs the device. Control path only.
 */
public final class DeviceMBeans implements AutoCloseable {
    /** The JMX domain of every verbs4j MBean. */
    public static final String DOMAIN = "dev.verbs4j";
    /** The attribute of a device MBean that counts On-Demand Paging page faults over all its regions. */
    public static final String ODP_FAULTS = "odp_faults";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String device;
    private final String[] counterNames;
    private final ObjectName objectName;
    private boolean registered;

    /**
     * Registers the device's MBean.
     *
     * @param counterNames the name of each counter, by index
     * @param counters     a device counter's value by index
     * @param odpFaults    the device's ODP page faults
     */
    public DeviceMBeans(String device, String[] counterNames, IntToLongFunction counters, LongSupplier odpFaults) {
        this.device = device;
        this.counterNames = counterNames.clone();
        String[] withOdp = Arrays.copyOf(counterNames, counterNames.length + 1);
        withOdp[counterNames.length] = ODP_FAULTS;
        int odpIndex = counterNames.length;
        this.objectName = deviceName(device);
        registered = register(new CountersMBean("soft device " + device, withOdp,
                i -> i == odpIndex ? odpFaults.getAsLong() : counters.applyAsLong(i)), objectName);
    }

    /** The object name of the device MBean of {@code device}. */
    public static ObjectName deviceName(String device) {
        return name("SoftDevice,name=" + ObjectName.quote(device));
    }

    /** The object name of the MBean of queue pair {@code qpn} of {@code device}. */
    public static ObjectName queuePairName(String device, int qpn) {
        return name("SoftQueuePair,device=" + ObjectName.quote(device) + ",qpn=" + qpn);
    }

    /** Registers the MBean of a new queue pair. */
    public void addQueuePair(int qpn, IntToLongFunction counters) {
        if (registered) {
            register(new CountersMBean("queue pair " + qpn + " of soft device " + device, counterNames, counters),
                    queuePairName(device, qpn));
        }
    }

    /** Unregisters the MBean of a destroyed queue pair. */
    public void removeQueuePair(int qpn) {
        if (registered) {
            unregister(queuePairName(device, qpn));
        }
    }

    /** Unregisters the device's MBean and those of its queue pairs still there. */
    @Override
    public void close() {
        if (!registered) {
            return;
        }
        registered = false;
        unregister(objectName);
        for (ObjectName qp : server.queryNames(name("SoftQueuePair,device=" + ObjectName.quote(device) + ",*"), null)) {
            unregister(qp);
        }
    }

    private boolean register(Object mbean, ObjectName name) {
        try {
            server.registerMBean(mbean, name);
            return true;
        } catch (InstanceAlreadyExistsException e) {
            return false; // another open device of this name has it
        } catch (JMException | RuntimeException e) {
            return false;
        }
    }

    private void unregister(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // already gone
        } catch (JMException e) {
            // best effort, as registration
        }
    }

    private static ObjectName name(String typeAndKeys) {
        try {
            return new ObjectName(DOMAIN + ":type=" + typeAndKeys);
        } catch (JMException e) {
            throw new IllegalArgumentException(e);
        }
    }
}

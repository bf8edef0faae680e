package dev.verbs4j.tools;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.SoftDevice;
import dev.verbs4j.softroce.SoftDeviceConfig;
import dev.verbs4j.softroce.transport.InMemoryNetwork;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.EnumSet;

/**
 * A Java process with two soft devices on an in-memory network that wrote one RDMA WRITE of
 * 3000 bytes from count-a to count-b (MTU 1024: three packets), then prints "ready" and
 * keeps the devices open until its standard input closes (then exits, leaving them to the OS): something for
 * {@code verbs4j devices --counters --pid} to read.
 */
public final class CountingProcess {
    public static void main(String[] args) throws Exception {
        InMemoryNetwork network = new InMemoryNetwork(1);
        SoftDevice a = device(network, "count-a", "10.88.0.1");
        SoftDevice b = device(network, "count-b", "10.88.0.2");
        Arena arena = Arena.ofShared();
        DeviceContext ca = a.open();
        DeviceContext cb = b.open();
        {
            ProtectionDomain pa = ca.allocatePd();
            ProtectionDomain pb = cb.allocatePd();
            CompletionQueue qa = ca.createCq(8);
            CompletionQueue qb = cb.createCq(8);
            QueuePair qpA = pa.createQp(new QpInitAttributes(QpType.RC, qa).capacity(4, 4, 1, 1, 0));
            QueuePair qpB = pb.createQp(new QpInitAttributes(QpType.RC, qb).capacity(4, 4, 1, 1, 0));
            EnumSet<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion ma = pa.registerMemory(arena.allocate(4096, 4096), access);
            MemoryRegion mb = pb.registerMemory(arena.allocate(4096, 4096), access);
            RcOptions options = new RcOptions().mtu(dev.verbs4j.Mtu.MTU_1024).timeout(14).retryCount(7).rnrRetry(7)
                    .minRnrTimer(1).access(access);
            QpEndpoint ea = RcConnector.localEndpoint(qpA, options.psn(1));
            QpEndpoint eb = RcConnector.localEndpoint(qpB, options.psn(2));
            RcConnector.bringUp(qpA, ea, eb, options.psn(1));
            RcConnector.bringUp(qpB, eb, ea, options.psn(2));
            qpA.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(ma, 0, 3000).rdmaWrite(mb.address(), mb.rkey()));
            WorkCompletion[] wc = {new WorkCompletion()};
            long now = 1_000_000_000L;
            while (qa.poll(wc) == 0) {
                now += 1_000;
                a.engine().doWork(now);
                b.engine().doWork(now);
            }
            System.out.println("ready " + wc[0].status());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait until the parent closes our input
            }
        }
        System.exit(0); // the devices go with the process
    }

    private static SoftDevice device(InMemoryNetwork network, String name, String ip) throws Exception {
        InetAddress address = InetAddress.getByName(ip);
        SoftDeviceConfig config = SoftDeviceConfig.of(name, address);
        return SoftDevice.manual(config, network.attach(new InetSocketAddress(address, config.port())));
    }
}

package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.EnumSet;

/**
 * The responder of the durability test, run as its own process: maps a file, registers it
 * for persistent FLUSH, accepts one RC connection and then only lives until it is killed.
 * Arguments: file, soft device address, TCP port.
 */
public final class PersistentResponder {
    private PersistentResponder() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        SoftDevice device = SoftProvider.addDevice(SoftDeviceConfig.of("durable", InetAddress.getByName(args[1]))
                .withPorts(27941, 27941));
        EnumSet<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared();
             ServerSocket server = new ServerSocket(Integer.parseInt(args[2]), 1, InetAddress.getByName(args[1]))) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            DeviceContext ctx = device.open();
            ProtectionDomain pd = ctx.allocatePd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).allow(WrOpcode.FLUSH));
            MemoryRegion mr = pd.registerMemory(mapped, access);
            System.out.println("ready");
            System.out.flush();
            RcConnector.accept(qp, server, new RcOptions().access(access).shared(mr), Duration.ofSeconds(30));
            Thread.sleep(Duration.ofMinutes(5));
        }
    }
}

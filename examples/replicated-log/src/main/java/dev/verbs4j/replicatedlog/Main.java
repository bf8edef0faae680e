package dev.verbs4j.replicatedlog;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushType;
import dev.verbs4j.VerbsException;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The commands:
 * <pre>
 * format FILE BYTES                        an empty log file of BYTES
 * server --file FILE --port PORT [--bind ADDR] [--provider P] [--device D]
 * append --server HOST:PORT... [--size BYTES] [--count N] [--placement persistent|global] [--no-fence]
 *        [--provider P] [--device D]       prints "ack seq=N tail=T" per acknowledged append
 * read FILE                                what recovery finds
 * verify FILE --acked N [--size BYTES]     records 1..N present, intact, and the payloads append wrote
 * bench [--reps R] [--dir DIR]             appends/s and latency on the soft provider, in one process
 * </pre>
 * Exit status: 0, 1 for a failed check or append, 2 for bad arguments, 3 when the device
 * cannot register the file for persistent FLUSH.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage("no command");
        }
        int status;
        try {
            status = switch (args[0]) {
                case "format" -> format(new Options(args, 1, Set.of()));
                case "server" -> server(new Options(args, 1, Set.of()));
                case "append" -> append(new Options(args, 1, Set.of("no-fence")));
                case "read" -> read(new Options(args, 1, Set.of()));
                case "verify" -> verify(new Options(args, 1, Set.of()));
                case "bench" -> Bench.run(new Options(args, 1, Set.of()));
                default -> usage("unknown command " + args[0]);
            };
        } catch (IllegalArgumentException e) {
            status = usage(e.getMessage());
        } catch (IOException | java.io.UncheckedIOException | VerbsException e) {
            System.out.println("replicated-log " + args[0] + " failed: " + e.getMessage());
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private static int usage(String why) {
        System.err.println("replicated-log: " + why);
        System.err.println("usage: format FILE BYTES | server --file FILE --port PORT [--bind ADDR] | "
                + "append --server HOST:PORT... [--size BYTES] [--count N] [--placement persistent|global] [--no-fence] | "
                + "read FILE | verify FILE --acked N [--size BYTES] | bench [--reps R] [--dir DIR]  "
                + "(--provider P --device D pick the device)");
        System.exit(2);
        return 2;
    }

    private static int format(Options o) throws IOException {
        if (o.positional().size() != 2) {
            usage("format FILE BYTES");
        }
        long bytes = Long.parseLong(o.positional().get(1));
        try (FileChannel channel = FileChannel.open(Path.of(o.positional().get(0)), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
            LogLayout.format(file);
            file.force();
        }
        return 0;
    }

    private static int server(Options o) throws IOException {
        Path file = Path.of(required(o, "file"));
        int port = (int) o.number("port", 18600, 1, 65535);
        InetAddress bind = InetAddress.getByName(o.get("bind", "0.0.0.0"));
        try (DeviceContext context = o.openDevice()) {
            LogServer log;
            try {
                log = new LogServer(context, file);
            } catch (VerbsException e) {
                System.out.println("persistent placement unavailable: " + context.device().name()
                        + " cannot register " + file + " for persistent FLUSH: " + e.getMessage());
                return 3;
            }
            try (log; ServerSocket server = new ServerSocket(port, 4, bind)) {
                Recovery recovery = log.recover();
                System.out.println("server " + context.device().name() + " " + file + ": " + recovery);
                if (!recovery.intact()) {
                    return 1;
                }
                System.out.println("ready port=" + server.getLocalPort());
                System.out.flush();
                log.serve(server, line -> {
                    System.out.println(line);
                    System.out.flush();
                });
            }
        }
        return 0;
    }

    private static int append(Options o) throws IOException {
        List<InetSocketAddress> servers = new ArrayList<>();
        for (String s : o.all("server")) {
            servers.add(Options.address(s));
        }
        if (servers.isEmpty()) {
            usage("append needs --server HOST:PORT");
        }
        int size = (int) o.number("size", 64, 0, LogLayout.MAX_PAYLOAD);
        long count = o.number("count", 0, 0, Long.MAX_VALUE);
        FlushType placement = placement(o.get("placement", "persistent"));
        PrintStream out = System.out;
        byte[] payload = new byte[size];
        try (DeviceContext context = o.openDevice();
             Replicator log = new Replicator(context, servers, size, placement, !o.flag("no-fence"), Duration.ofSeconds(30))) {
            out.println("resumed at seq " + log.nextSeq() + " tail " + log.tail() + " on " + log.replicas() + " replica(s)");
            out.flush();
            for (long i = 0; count == 0 || i < count; i++) {
                Payloads.fill(payload, log.nextSeq(), size);
                long seq;
                try {
                    seq = log.append(payload, size);
                } catch (VerbsException e) {
                    out.println("append failed: " + e.getMessage());
                    return 1;
                }
                out.println("ack seq=" + seq + " tail=" + log.tail());
                out.flush();
            }
        }
        return 0;
    }

    private static int read(Options o) throws IOException {
        if (o.positional().size() != 1) {
            usage("read FILE");
        }
        Recovery r = recoverFile(Path.of(o.positional().getFirst()), null);
        System.out.println(o.positional().getFirst() + ": " + r);
        return r.intact() ? 0 : 1;
    }

    /** Recovers the file, checks every record's payload is the one append wrote, and that records 1..acked are there. */
    private static int verify(Options o) throws IOException {
        if (o.positional().size() != 1) {
            usage("verify FILE --acked N");
        }
        String file = o.positional().getFirst();
        long acked = o.number("acked", -1, 0, Long.MAX_VALUE);
        if (acked < 0) {
            usage("verify needs --acked N");
        }
        int size = (int) o.number("size", 64, 0, LogLayout.MAX_PAYLOAD);
        Recovery r = recoverFile(Path.of(file), (seq, payload) -> Payloads.matches(seq, payload, size));
        long lost = Math.max(0, acked - r.records());
        System.out.println("verify " + file + ": acked " + acked + ", recovered " + r.records() + ", lost " + lost
                + (r.intact() ? ", intact" : ", CORRUPT: " + r.problem()));
        return lost == 0 && r.intact() ? 0 : 1;
    }

    private static Recovery recoverFile(Path path, LogRecovery.RecordVisitor visitor) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
             Arena arena = Arena.ofConfined()) {
            return LogRecovery.recover(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena), visitor);
        }
    }

    static FlushType placement(String name) {
        return switch (name) {
            case "persistent" -> FlushType.PERSISTENT;
            case "global" -> FlushType.GLOBAL;
            default -> throw new IllegalArgumentException("--placement " + name + ": persistent or global");
        };
    }

    private static String required(Options o, String name) {
        String v = o.get(name, null);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }
}

package dev.verbs4j.tools.perf;

import dev.verbs4j.Device;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * {@code verbs4j perf --server}: the responder of one client's run, as a perftest server is.
 * It takes whatever the client asks for (queue pairs, depth, buffer, MTU), then answers each
 * measurement: it has nothing to do for RDMA WRITE, READ, atomics and FLUSH but to keep its
 * device going, posts the receives of send_bw, and plays its half of write_lat and send_lat.
 * It exits after the client says goodbye.
 */
final class PerfServer {
    private final Device device;
    private final PrintStream out;
    /** Whether nothing moves unless this process polls: the soft provider with caller progress. */
    private final boolean mustPoll;
    /** SENDs received in send_bw runs. */
    private long received;
    /** Receives posted in the current send_bw run. */
    private int receivesPosted;

    PerfServer(Device device, PrintStream out) {
        this.device = device;
        this.out = out;
        this.mustPoll = device.providerName().equals("soft") && "caller".equals(System.getProperty("verbs4j.soft.progress"));
    }

    /** Serves one client on TCP {@code port}. */
    void serve(int port) {
        try (ServerSocket listener = new ServerSocket(port)) {
            out.printf("perf server: device %s, waiting for a client on TCP port %d%n", device.name(), port);
            out.flush();
            try (Socket socket = listener.accept()) {
                socket.setTcpNoDelay(true);
                try (ControlChannel control = new ControlChannel(socket)) {
                    serve(control);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("perf server on TCP port " + port + " failed", e);
        }
    }

    private void serve(ControlChannel control) {
        String[] setup = control.expect("SETUP", PerfClient.TIMEOUT_MS);
        if (setup.length != 6) {
            throw new IllegalStateException("malformed SETUP from the client: " + String.join(" ", setup));
        }
        int qps = Integer.parseInt(setup[1]);
        int depth = Integer.parseInt(setup[2]);
        long bufferSize = Long.parseLong(setup[3]);
        boolean persistent = setup[4].equals("1");
        Mtu mtu = Mtu.ofBytes(Integer.parseInt(setup[5]));
        try (Arena arena = Arena.ofShared()) {
            // Twice the client's depth of receives, as perftest's server posts more than the
            // client keeps in flight: a SEND that finds none draws an RNR NAK and waits.
            End b = new End(device, arena, bufferSize, 2 * depth, true, persistent ? Loopback.mappedFile(arena, bufferSize) : null,
                    false);
            try {
                control.send("SETUP " + device.providerName() + ":" + device.name());
                QpEndpoint client = connect(control, b, qps, mtu, persistent);
                out.printf("perf server: %d queue pair(s) connected, MTU %d%n", qps, mtu.bytes());
                out.flush();
                int runs = answer(control, b, client, 2 * depth);
                out.printf("perf server: served %d measurement(s), %d message(s) received;%s%n", runs, received,
                        SoftCounterLine.of(b));
                out.flush();
            } finally {
                b.close();
            }
        }
    }

    /** One endpoint each way per queue pair; returns the client's first, which names its region. */
    private static QpEndpoint connect(ControlChannel control, End b, int qps, Mtu mtu, boolean persistent) {
        QueuePair[] pairs = new QueuePair[qps];
        pairs[0] = b.qp;
        for (int i = 1; i < qps; i++) {
            pairs[i] = b.newQp();
        }
        RcOptions options = new RcOptions().mtu(mtu).access(End.access(true, persistent)).shared(b.mr);
        QpEndpoint first = control.exchangeEndpoints(pairs, options, PerfClient.TIMEOUT_MS);
        control.expect("READY", PerfClient.TIMEOUT_MS);
        control.send("READY");
        return first;
    }

    /** Answers RUN ... END until BYE; returns the number of runs. */
    private int answer(ControlChannel control, End b, QpEndpoint client, int depth) {
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] wcs = new WorkCompletion[Math.max(depth, 2)];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        int runs = 0;
        while (true) {
            String[] command = control.receive();
            if (command[0].equals("BYE")) {
                return runs;
            }
            if (!command[0].equals("RUN") || command.length != 4) {
                throw new IllegalStateException("the client sent '" + String.join(" ", command) + "', expected RUN or BYE");
            }
            String test = command[1];
            int size = Integer.parseInt(command[2]);
            int count = Integer.parseInt(command[3]);
            switch (test) {
                case "write_lat" -> {
                    PingPong.clearIncomingMark(b, size, false);
                    control.send("GO");
                    PingPong.answerWrites(b, client.address(), client.rkey(), size, count, control::peerGone);
                }
                case "send_lat" -> {
                    PingPong.postFirstReceive(b, size);
                    control.send("GO");
                    PingPong.answerSends(b, size, count, control::peerGone);
                }
                case "send_bw" -> receiveSends(control, b, size, count, depth, rr, wcs);
                default -> control.send("GO");
            }
            awaitEnd(control, b, wcs);
            control.send("DONE");
            runs++;
        }
    }

    /**
     * The receiving side of send_bw: {@code count} receives in all, {@code depth} of them
     * posted at a time (the first before GO), each completed one replaced while more are due.
     * Each poll is a call of its own ({@link #reapReceives}), so that the JIT compiles it as an
     * ordinary method which the next run enters compiled.
     */
    private void receiveSends(ControlChannel control, End b, int size, int count, int depth, ReceiveWorkRequest rr,
                              WorkCompletion[] wcs) {
        receivesPosted = 0;
        while (receivesPosted < Math.min(depth, count)) {
            b.qp.postRecv(rr.wrId(receivesPosted++).buffer(b.mr, 0, size));
        }
        control.send("GO");
        java.util.function.BooleanSupplier gone = control::peerGone;
        int done = 0;
        for (long spins = 1; done < count; spins++) {
            done += reapReceives(b, size, count, rr, wcs);
            PingPong.checkAbandoned(spins, gone);
        }
    }

    /** Polls once; replaces each completed receive while fewer than {@code count} were posted; returns how many completed. */
    private int reapReceives(End b, int size, int count, ReceiveWorkRequest rr, WorkCompletion[] wcs) {
        int n = b.cq.poll(wcs, wcs.length);
        for (int i = 0; i < n; i++) {
            if (!wcs[i].isSuccess()) {
                throw new IllegalStateException("receive failed: " + wcs[i]);
            }
            if (receivesPosted < count) {
                b.qp.postRecv(rr.wrId(receivesPosted++).buffer(b.mr, 0, size));
            }
        }
        received += n;
        return n;
    }

    /** Waits for the client's END, keeping the device going meanwhile when it needs this thread's polls. */
    private void awaitEnd(ControlChannel control, End b, WorkCompletion[] wcs) {
        String[] end = null;
        if (mustPoll) {
            for (long polls = 1; end == null; polls++) {
                b.cq.poll(wcs, 0);
                if ((polls & 0xFF) == 0) {
                    end = control.poll();
                }
            }
        } else {
            end = control.receive();
        }
        if (!end[0].equals("END")) {
            throw new IllegalStateException("the client sent '" + String.join(" ", end) + "', expected END");
        }
    }
}

package dev.verbs4j.replicatedlog;

import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The TCP side channel between a log server and a client, one connection per client for as
 * long as it appends. The server sends what it recovered from its file and its endpoint
 * (QP, GID, and the file's address, rkey and length), the client sends its endpoint, both
 * bring their QP to RTS and confirm, as {@link RcConnector} does:
 * <pre>
 * server: replicated-log/1 capacity=BYTES tail=BYTES next=SEQ      (or: replicated-log/1 error=WHY)
 * server: verbs4j-rc/1 qpn=... addr=... rkey=... len=...
 * client: verbs4j-rc/1 qpn=...
 * both:   'R'
 * </pre>
 */
final class Handshake {
    static final String GREETING = "replicated-log/1";
    private static final int READY = 'R';

    /** What a server offers: its file's state and its endpoint. */
    record Offer(long capacity, long tail, long nextSeq, QpEndpoint endpoint) {
    }

    private Handshake() {
    }

    /** The server side: a refusal when the file is not intact, else the offer and the bring-up. */
    static void serve(Socket socket, QueuePair qp, RcOptions options, Recovery recovery, long capacity) throws IOException {
        OutputStream out = socket.getOutputStream();
        if (!recovery.intact()) {
            out.write((GREETING + " error=" + recovery.problem().replace('\n', ' ') + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return;
        }
        BufferedReader in = reader(socket);
        QpEndpoint local = RcConnector.localEndpoint(qp, options);
        out.write((GREETING + " capacity=" + capacity + " tail=" + recovery.tail() + " next=" + recovery.nextSeq() + "\n"
                + local.encode() + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        QpEndpoint remote = QpEndpoint.decode(in.readLine());
        RcConnector.bringUp(qp, local, remote, options);
        confirm(out, in);
    }

    /** The client side: reads the offer, sends its endpoint, brings {@code qp} up. */
    static Offer join(Socket socket, QueuePair qp, RcOptions options) throws IOException {
        OutputStream out = socket.getOutputStream();
        BufferedReader in = reader(socket);
        String greeting = in.readLine();
        if (greeting == null || !greeting.startsWith(GREETING + " ")) {
            throw new IOException("not a replicated-log server: " + greeting);
        }
        String[] fields = greeting.substring(GREETING.length() + 1).split(" ", 3);
        if (fields[0].startsWith("error=")) {
            throw new IOException("the server refuses: " + greeting.substring(GREETING.length() + 7));
        }
        if (fields.length != 3) {
            throw new IOException("malformed greeting: " + greeting);
        }
        long capacity;
        long tail;
        long next;
        try {
            capacity = Long.parseLong(value(fields[0], "capacity"));
            tail = Long.parseLong(value(fields[1], "tail"));
            next = Long.parseLong(value(fields[2], "next"));
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed greeting: " + greeting, e);
        }
        QpEndpoint remote = QpEndpoint.decode(in.readLine());
        QpEndpoint local = RcConnector.localEndpoint(qp, options);
        out.write((local.encode() + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        RcConnector.bringUp(qp, local, remote, options);
        confirm(out, in);
        return new Offer(capacity, tail, next, remote);
    }

    private static void confirm(OutputStream out, BufferedReader in) throws IOException {
        out.write(READY);
        out.flush();
        if (in.read() != READY) {
            throw new IOException("the peer closed the side channel before its QP was ready");
        }
    }

    private static BufferedReader reader(Socket socket) throws IOException {
        return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
    }

    private static String value(String field, String name) {
        if (!field.startsWith(name + "=")) {
            throw new IllegalArgumentException("expected " + name + "=..., got " + field);
        }
        return field.substring(name.length() + 1);
    }
}

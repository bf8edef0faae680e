package dev.verbs4j.tools.compat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The TCP exchange of rdma-core's {@code ibv_*_pingpong} programs. The client connects and
 * writes its addresses; the server reads them, connects its queue pairs, and writes its own;
 * the client reads them and writes {@code "done"} with its NUL, which the server waits for.
 * {@code ibv_srq_pingpong} sends 256 addresses each way, one per possible queue pair; the
 * others send one.
 */
final class IbvExchange {
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    private IbvExchange() {
    }

    /** The client's side: retries the connection until {@code timeout} passes, as the server may not listen yet. */
    static List<IbvDestination> asClient(String host, int port, List<IbvDestination> mine, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), (int) Math.max(1, timeout.toMillis()));
                socket.setTcpNoDelay(true);
                socket.setSoTimeout((int) timeout.toMillis());
                OutputStream out = socket.getOutputStream();
                for (IbvDestination d : mine) {
                    out.write(d.encode());
                }
                out.flush();
                List<IbvDestination> theirs = read(new DataInputStream(socket.getInputStream()), mine.size());
                out.write(DONE);
                out.flush();
                return theirs;
            } catch (ConnectException refused) {
                if (System.nanoTime() - deadline >= 0) {
                    throw refused;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while connecting to " + host + ":" + port, e);
                }
            }
        }
    }

    /**
     * The server's side: accepts one client on {@code port} (every address), reads its
     * {@code count} addresses, lets {@code connect} bring the queue pairs up towards them and
     * answer with this side's addresses, writes those, and waits for the client's "done".
     */
    static List<IbvDestination> asServer(int port, int count, Duration timeout,
                                         Function<List<IbvDestination>, List<IbvDestination>> connect) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port), 1);
            try (Socket socket = listener.accept()) {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout((int) timeout.toMillis());
                DataInputStream in = new DataInputStream(socket.getInputStream());
                List<IbvDestination> theirs = read(in, count);
                List<IbvDestination> mine = connect.apply(theirs);
                OutputStream out = socket.getOutputStream();
                for (IbvDestination d : mine) {
                    out.write(d.encode());
                }
                out.flush();
                in.readFully(new byte[DONE.length]);
                return theirs;
            }
        }
    }

    private static List<IbvDestination> read(DataInputStream in, int count) throws IOException {
        List<IbvDestination> read = new ArrayList<>(count);
        byte[] message = new byte[IbvDestination.WIRE_BYTES];
        for (int i = 0; i < count; i++) {
            in.readFully(message);
            read.add(IbvDestination.decode(message, 0));
        }
        return read;
    }
}

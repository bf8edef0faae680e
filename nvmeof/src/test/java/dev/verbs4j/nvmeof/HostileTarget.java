package dev.verbs4j.nvmeof;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.Provider;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.RegisteredArena;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.nvmeof.wire.CmPrivateData;
import dev.verbs4j.nvmeof.wire.Cqe;
import dev.verbs4j.nvmeof.wire.IdentifyController;
import dev.verbs4j.nvmeof.wire.Le;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Properties;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A controller that a test makes misbehave: it answers what a host needs to connect (Connect,
 * the properties, Identify, the queue count) and hands every I/O command to the test, which
 * answers it as it likes, right or wrong, through {@link #answer}. It is the far side of the
 * host's checks on what a controller sends; one host at a time, on the soft device at
 * 127.0.0.1.
 */
final class HostileTarget implements AutoCloseable {
    /** An I/O command the host sent: what the test needs to answer it, rightly or not. */
    record IoCommand(Link link, int commandId, long address, int key) {
    }

    /** How an answer goes wrong, or not. */
    record Answer(int commandId, int status, int responseBytes, boolean invalidate, int invalidateKey) {
        /** The right answer: success, a whole entry, the command's own key invalidated. */
        static Answer right(IoCommand c) {
            return new Answer(c.commandId(), 0, Cqe.BYTES, true, c.key());
        }
    }

    private static final int DEPTH = 64;
    private static final int DATA_BYTES = 256 * 1024;
    private static final long KIND_RECEIVE = 1L << 32;

    private final CmEventChannel channel;
    private final CmId listener;
    private final List<Link> links = new ArrayList<>();
    private final List<DeviceContext> contexts = new ArrayList<>();
    private final BlockingQueue<IoCommand> io = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Runnable> actions = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    HostileTarget(Provider provider, int port) {
        this.channel = provider.createCmEventChannel();
        this.listener = channel.createId(PortSpace.TCP);
        listener.bindAddress(new InetSocketAddress("127.0.0.1", port));
        listener.listen(8);
        thread = Thread.ofPlatform().name("hostile-target").daemon(true).start(this::run);
    }

    /** The next I/O command the host sent, within {@code wait}; fails the test when none comes. */
    IoCommand nextIo(Duration wait) throws InterruptedException {
        IoCommand c = io.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        if (c == null) {
            throw new AssertionError("no I/O command reached the target within " + wait);
        }
        return c;
    }

    /** Writes {@code bytes} into the command's buffer through its key (an RDMA WRITE), before any answer. */
    void writeData(IoCommand c, MemorySegment bytes) {
        actions.add(() -> c.link().write(c.address(), c.key(), bytes));
    }

    /** Sends {@code answer} on the command's queue. */
    void answer(IoCommand c, Answer answer) {
        actions.add(() -> c.link().respond(answer.commandId(), answer.status(), 0, answer.responseBytes(),
                answer.invalidate(), answer.invalidateKey()));
    }

    private void run() {
        int idle = 0;
        while (running) {
            int work = 0;
            Runnable action;
            while ((action = actions.poll()) != null) {
                action.run();
                work++;
            }
            Optional<CmEvent> event;
            while ((event = channel.nextEvent(Duration.ZERO)).isPresent()) {
                onEvent(event.get());
                work++;
            }
            for (Link link : links) {
                work += link.poll();
            }
            if (work > 0) {
                idle = 0;
            } else if (++idle > 200) {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private void onEvent(CmEvent event) {
        if (event.type() != CmEventType.CONNECT_REQUEST) {
            return;
        }
        CmPrivateData.Request request = CmPrivateData.Request.decode(event.privateData());
        DeviceContext context = event.id().device().open();
        contexts.add(context);
        Link link = new Link(event.id(), context.allocatePd(), request.qid());
        links.add(link);
        event.id().accept(new ConnectionParameters().initiatorDepth(1).responderResources(1).rnrRetryCount(7)
                .flowControl(true).privateData(CmPrivateData.accept(request.hsqsize() + 1)));
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Link link : links) {
            link.close();
        }
        for (DeviceContext context : contexts) {
            context.close();
        }
        listener.close();
        channel.close();
    }

    /** One queue's connection: capsules in, data out by RDMA WRITE, answers by SEND. */
    final class Link {
        private final CmId id;
        private final ProtectionDomain pd;
        private final int qid;
        private final RegisteredArena arena;
        private final CompletionQueue cq;
        private final QueuePair qp;
        private final MemoryRegion capsules;
        private final MemoryRegion data;
        private final MemoryRegion responses;
        private final ReceiveWorkRequest[] receives = new ReceiveWorkRequest[DEPTH];
        private final SendWorkRequest send = new SendWorkRequest(1);
        private final WorkCompletion[] completions = new WorkCompletion[16];
        private final Sqe sqe = new Sqe();
        private final Cqe cqe = new Cqe();
        private int nextResponse;

        Link(CmId id, ProtectionDomain pd, int qid) {
            this.id = id;
            this.pd = pd;
            this.qid = qid;
            this.arena = RegisteredArena.of(pd, EnumSet.of(Access.LOCAL_WRITE));
            this.cq = pd.context().createCq(DEPTH * 4);
            this.qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(DEPTH * 2, DEPTH, 1, 1, 0));
            this.capsules = arena.allocateRegion((long) DEPTH * Sqe.BYTES);
            this.data = arena.allocateRegion(DATA_BYTES);
            this.responses = arena.allocateRegion((long) DEPTH * Cqe.BYTES);
            for (int i = 0; i < completions.length; i++) {
                completions[i] = new WorkCompletion();
            }
            id.attachQp(qp);
            for (int i = 0; i < DEPTH; i++) {
                receives[i] = new ReceiveWorkRequest(1).wrId(KIND_RECEIVE | i).buffer(capsules, (long) i * Sqe.BYTES, Sqe.BYTES);
                qp.postRecv(receives[i]);
            }
        }

        int poll() {
            int n = cq.poll(completions, completions.length);
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = completions[i];
                if (wc.wrId() >>> 32 == KIND_RECEIVE >>> 32 && wc.status() == WcStatus.SUCCESS) {
                    int index = (int) wc.wrId();
                    sqe.wrap(capsules.memory(), (long) index * Sqe.BYTES);
                    onCapsule((long) index * Sqe.BYTES);
                    qp.postRecv(receives[index]);
                }
            }
            return n;
        }

        private void onCapsule(long base) {
            int cid = sqe.commandId();
            if (qid != 0 && sqe.opcode() != Opcodes.FABRICS) {
                io.add(new IoCommand(this, cid, sqe.sglAddress(), sqe.keyedKey()));
                return;
            }
            long result = 0;
            if (sqe.opcode() == Opcodes.FABRICS) {
                int offset = Le.u32(capsules.memory(), base + Properties.OFFSET);
                if (sqe.fctype() == Opcodes.FCTYPE_CONNECT) {
                    result = 1;
                } else if (sqe.fctype() == Opcodes.FCTYPE_PROPERTY_GET && offset == Properties.CSTS) {
                    result = Properties.CSTS_READY;
                }
            } else if (sqe.opcode() == Opcodes.ADMIN_IDENTIFY) {
                MemorySegment page = data.memory().asSlice(0, IdentifyController.BYTES);
                page.fill((byte) 0);
                if ((sqe.cdw(10) & 0xff) == Opcodes.CNS_CONTROLLER) {
                    IdentifyController.write(page, 0, new IdentifyController.Fields(1, "HOSTILE", "hostile target", "1",
                            Loopback.SUBSYSTEM, false, 0, DEPTH, 0, 0, 0, false));
                }
                write(sqe.sglAddress(), sqe.keyedKey(), page);
            }
            // Set Features (Number of Queues) and everything else: success, result 0 (one queue each way).
            respond(cid, 0, result, Cqe.BYTES, false, 0);
        }

        void write(long address, int key, MemorySegment bytes) {
            MemorySegment.copy(bytes, 0, data.memory(), 0, bytes.byteSize());
            qp.postSend(send.wrId(0).signaled(true).rdmaWrite(address, key).buffer(data, 0, (int) bytes.byteSize()));
        }

        void respond(int cid, int status, long result, int bytes, boolean invalidate, int key) {
            long at = (long) nextResponse * Cqe.BYTES;
            nextResponse = (nextResponse + 1) % DEPTH;
            cqe.wrap(responses.memory(), at).write(result, 0, qid, cid, status);
            send.wrId(0).signaled(true).buffer(responses, at, bytes);
            if (invalidate) {
                send.sendWithInv(key);
            } else {
                send.send();
            }
            qp.postSend(send);
        }

        void close() {
            try {
                id.disconnect();
            } catch (RuntimeException alreadyGone) {
                // The host disconnected first.
            }
            id.close();
            qp.close();
            cq.close();
            arena.close();
            pd.close();
        }
    }
}

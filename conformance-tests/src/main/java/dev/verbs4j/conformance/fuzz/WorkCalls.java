package dev.verbs4j.conformance.fuzz;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

/**
 * The calls on queues: modify through random states with random attributes (and, more
 * often, one step of a valid path to RTS toward a queue pair of this host, so that traffic
 * flows), posts of every opcode with random keys, addresses and lengths, polls, arming and
 * events.
 */
final class WorkCalls {
    private static final WrOpcode[] OPCODES = WrOpcode.values();
    private static final QpState[] STATES = QpState.values();
    private static final Mtu[] MTUS = Mtu.values();
    private static final FlushLevel[] FLUSH_LEVELS = FlushLevel.values();
    static final int QKEY = 0x11111111;

    private final World w;
    private final WorkCompletion[] completions = new WorkCompletion[16];

    WorkCalls(World world) {
        this.w = world;
        for (int i = 0; i < completions.length; i++) {
            completions[i] = new WorkCompletion();
        }
    }

    List<Action> actions() {
        return List.of(
                new Action("modify_qp (random)", 4, this::modifyRandomly),
                new Action("modify_qp (toward RTS)", 8, this::stepTowardRts),
                new Action("query_qp", 2, this::queryQp),
                new Action("post_send", 16, this::postSend),
                new Action("post_send (list)", 3, this::postSendList),
                new Action("post_recv", 8, this::postRecv),
                new Action("post_srq_recv", 3, this::postSrqRecv),
                new Action("poll_cq", 14, this::poll),
                new Action("req_notify_cq", 2, this::requestNotify),
                new Action("get_cq_event", 2, this::awaitEvent));
    }

    private void modifyRandomly(Args a) {
        QueuePair qp = w.qps.pick(a.random());
        if (qp == null) {
            return;
        }
        QpAttributes attrs = new QpAttributes().state(a.oneOf(STATES));
        int extra = a.below(6);
        for (int i = 0; i < extra; i++) {
            switch (a.below(14)) {
                case 0 -> attrs.pkeyIndex(a.below(3));
                case 1 -> attrs.port(1 + a.below(2));
                case 2 -> attrs.qkey(a.chance(2) ? QKEY : a.random().nextInt());
                case 3 -> attrs.access(a.access());
                case 4 -> attrs.av(a.route());
                case 5 -> attrs.pathMtu(a.oneOf(MTUS));
                case 6 -> attrs.destQpn(a.qpn());
                case 7 -> attrs.rqPsn(a.random().nextInt(1 << 24));
                case 8 -> attrs.sqPsn(a.random().nextInt(1 << 24));
                case 9 -> attrs.timeout(a.below(32));
                case 10 -> attrs.retryCount(a.below(8));
                case 11 -> attrs.rnrRetry(a.below(8));
                case 12 -> attrs.maxRdAtomic(a.below(20));
                default -> attrs.currentState(a.oneOf(STATES));
            }
        }
        qp.modify(attrs);
        w.believedState.put(qp, attrs.state());
    }

    /** One modify along RESET, INIT, RTR, RTS toward another live queue pair of this host; an errored one is reset. */
    private void stepTowardRts(Args a) {
        QueuePair qp = w.qps.pickLive(a.random());
        if (qp == null) {
            return;
        }
        QpState believed = w.believedState.getOrDefault(qp, QpState.RESET);
        QpState next = switch (believed) {
            case RESET -> QpState.INIT;
            case INIT -> QpState.RTR;
            case RTR -> QpState.RTS;
            default -> QpState.RESET;
        };
        QpAttributes attrs = new QpAttributes().state(next);
        boolean datagram = qp.type() == QpType.UD;
        switch (next) {
            case INIT -> {
                attrs.pkeyIndex(0).port(1);
                if (datagram) {
                    attrs.qkey(QKEY);
                } else {
                    attrs.access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                            Access.REMOTE_ATOMIC));
                }
            }
            case RTR -> {
                if (!datagram) {
                    attrs.av(a.chance(8) ? a.route() : a.ownRoute()).pathMtu(Mtu.MTU_1024).destQpn(a.qpn()).rqPsn(0);
                    if (qp.type() == QpType.RC) {
                        attrs.maxDestRdAtomic(1).minRnrTimer(1);
                    }
                }
            }
            case RTS -> {
                attrs.sqPsn(0);
                if (qp.type() == QpType.RC) {
                    attrs.timeout(8).retryCount(1).rnrRetry(1).maxRdAtomic(1);
                }
            }
            default -> {
            }
        }
        try {
            qp.modify(attrs);
            w.believedState.put(qp, next);
        } catch (RuntimeException e) {
            w.believedState.put(qp, QpState.ERR); // so the next step resets it
            throw e;
        }
    }

    private void queryQp(Args a) {
        QueuePair qp = w.qps.pick(a.random());
        if (qp != null) {
            if (a.chance(2)) {
                qp.state();
            } else {
                qp.query(new QpAttributes());
            }
        }
    }

    /** A send request of a random opcode, each argument valid or not. */
    private SendWorkRequest sendRequest(Args a) {
        SendWorkRequest wr = new SendWorkRequest(3);
        wr.wrId(a.random().nextLong()).signaled(!a.chance(4)).fence(a.chance(8)).solicited(a.chance(8));
        boolean inline = a.chance(5);
        wr.inline(inline);
        a.sges(wr.sges(), inline);
        switch (a.oneOf(OPCODES)) {
            case SEND -> wr.send();
            case SEND_WITH_IMM -> wr.sendWithImm(a.random().nextInt());
            case SEND_WITH_INV -> wr.sendWithInv(a.invalidatedKey());
            case RDMA_WRITE -> wr.rdmaWrite(a.remoteAddress(), a.rkey());
            case RDMA_WRITE_WITH_IMM -> wr.rdmaWriteWithImm(a.remoteAddress(), a.rkey(), a.random().nextInt());
            case RDMA_READ -> wr.rdmaRead(a.remoteAddress(), a.rkey());
            case ATOMIC_CMP_AND_SWP -> wr.compareAndSwap(a.remoteAddress(), a.rkey(), a.random().nextLong(),
                    a.random().nextLong());
            case ATOMIC_FETCH_AND_ADD -> wr.fetchAndAdd(a.remoteAddress(), a.rkey(), a.random().nextLong());
            case ATOMIC_WRITE -> wr.atomicWrite(a.remoteAddress(), a.rkey(), a.random().nextLong());
            case FLUSH -> wr.flush(a.remoteAddress(), a.rkey(), a.length(), a.below(5), a.oneOf(FLUSH_LEVELS));
            case LOCAL_INV -> wr.localInvalidate(a.invalidatedKey());
            case BIND_MW -> {
                MemoryWindow window = w.windows.pick(a.random());
                MemoryRegion region = w.regions.pick(a.random());
                int key = window == null || a.chance(6) ? a.random().nextInt() : MemoryWindow.incrementRkey(window.rkey());
                wr.bindMw(window, key, region, region != null && a.chance(2) ? region.address() : a.remoteAddress(),
                        a.chance(4) ? 0 : a.length(), a.accessMask());
            }
            case REG_MR -> registerMr(a, wr);
        }
        if (!a.chance(4)) { // UD addressing; a connected queue pair ignores it
            AddressHandle ah = a.chance(10) ? null : w.ahs.pick(a.random());
            wr.ud(ah, a.qpn(), a.chance(2) ? QKEY : a.random().nextInt());
        }
        return wr;
    }

    /** REG_MR over pages of live regions (or made-up ones), at page shifts valid and not. */
    private void registerMr(Args a, SendWorkRequest wr) {
        MemoryRegion target = w.regions.pick(a.random());
        int count = 1 + a.below(4);
        long[] pages = new long[count];
        for (int i = 0; i < count; i++) {
            MemoryRegion backing = w.regions.pick(a.random());
            pages[i] = backing == null || a.chance(8) ? a.random().nextLong() : backing.localAddress() & ~4095L;
        }
        int shift = a.chance(6) ? a.below(40) : 12;
        int key = target == null ? a.random().nextInt() : (target.lkey() & ~0xff) | a.below(256);
        wr.registerMr(target, key, pages, a.chance(8) ? count + 1 : count, shift, a.random().nextLong() & ~4095L,
                a.length(), a.accessMask());
    }

    private void postSend(Args a) {
        QueuePair qp = w.qps.pick(a.random());
        if (qp != null) {
            qp.postSend(sendRequest(a));
        }
    }

    private void postSendList(Args a) {
        QueuePair qp = w.qps.pick(a.random());
        if (qp != null) {
            SendWorkRequest[] list = new SendWorkRequest[1 + a.below(4)];
            for (int i = 0; i < list.length; i++) {
                list[i] = sendRequest(a);
            }
            qp.postSend(list, a.chance(8) ? list.length + 1 : a.below(list.length + 1));
        }
    }

    private ReceiveWorkRequest receiveRequest(Args a) {
        ReceiveWorkRequest wr = new ReceiveWorkRequest(3).wrId(a.random().nextLong());
        a.sges(wr.sges(), false);
        return wr;
    }

    private void postRecv(Args a) {
        QueuePair qp = w.qps.pick(a.random());
        if (qp != null) {
            qp.postRecv(receiveRequest(a));
        }
    }

    private void postSrqRecv(Args a) {
        SharedReceiveQueue srq = w.srqs.pick(a.random());
        if (srq != null) {
            srq.postRecv(receiveRequest(a));
        }
    }

    private void poll(Args a) {
        CompletionQueue cq = w.cqs.pick(a.random());
        if (cq != null) {
            int max = a.chance(10) ? a.below(3) - 1 : completions.length;
            int n = cq.poll(completions, max);
            for (int i = 0; i < n; i++) {
                w.outcomes.completion(completions[i]);
            }
        }
    }

    private void requestNotify(Args a) {
        CompletionQueue cq = w.cqs.pick(a.random());
        if (cq != null) {
            cq.requestNotify(a.chance(2));
        }
    }

    private void awaitEvent(Args a) {
        CompletionChannel channel = w.channels.pick(a.random());
        if (channel != null) {
            channel.awaitEvent(Duration.ZERO);
        }
    }
}

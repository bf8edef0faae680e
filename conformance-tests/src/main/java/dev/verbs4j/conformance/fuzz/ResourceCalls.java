package dev.verbs4j.conformance.fuzz;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.CqCreateFlag;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MrAdvice;
import dev.verbs4j.MwType;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.WcField;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The calls that make, query and close objects: contexts, domains, memory and regions,
 * windows, completion queues and channels, shared receive queues, address handles and
 * queue pairs. An argument that names another object picks a live one mostly, a closed
 * one sometimes, and null now and then.
 */
final class ResourceCalls {
    private static final WrOpcode[] OPCODES = WrOpcode.values();
    private static final QpType[] QP_TYPES = QpType.values();
    private static final MwType[] MW_TYPES = MwType.values();
    private static final MrAdvice[] ADVICE = MrAdvice.values();
    private static final WcField[] WC_FIELDS = WcField.values();
    private static final CqCreateFlag[] CQ_FLAGS = CqCreateFlag.values();

    private final World w;
    private final ScatterGatherList ranges = new ScatterGatherList(4);

    ResourceCalls(World world) {
        this.w = world;
    }

    List<Action> actions() {
        return List.of(
                new Action("open_device", 2, this::openDevice),
                new Action("query_device/port/gid", 3, this::query),
                new Action("alloc_pd", 3, this::allocPd),
                new Action("allocate memory", 2, this::allocateMemory),
                new Action("free memory", 2, this::freeMemory),
                new Action("reg_mr", 8, this::register),
                new Action("rereg_mr", 1, this::reregister),
                new Action("alloc_mr (fast registration)", 1, this::allocFastReg),
                new Action("advise_mr", 1, this::advise),
                new Action("alloc_mw", 3, this::allocMw),
                new Action("bind_mw", 3, this::bindMw),
                new Action("create_comp_channel", 1, this::createChannel),
                new Action("create_cq", 4, this::createCq),
                new Action("create_cq_ex", 2, this::createExtendedCq),
                new Action("start/next/end_poll, wc_read_*", 3, this::pollExtended),
                new Action("resize_cq", 1, this::resizeCq),
                new Action("modify_srq (max_wr)", 1, this::resizeSrq),
                new Action("query_qp_data_in_order", 1, this::dataInOrder),
                new Action("create_srq", 2, this::createSrq),
                new Action("query/modify_srq", 2, this::srqLimit),
                new Action("create_ah", 2, this::createAh),
                new Action("create_qp", 6, this::createQp),
                new Action("close", 14, this::close));
    }

    private DeviceContext context(Args a) {
        return a.chance(40) ? null : w.contexts.pick(a.random());
    }

    private ProtectionDomain pd(Args a) {
        return a.chance(40) ? null : w.pds.pick(a.random());
    }

    private void openDevice(Args a) {
        if (!w.contexts.full()) {
            w.contexts.add(w.device.open());
        }
    }

    private void query(Args a) {
        DeviceContext ctx = w.contexts.pick(a.random());
        if (ctx == null) {
            return;
        }
        switch (a.below(9)) {
            case 0 -> ctx.queryDevice();
            case 1 -> ctx.queryPort(a.below(4));
            case 2 -> ctx.queryGid(a.below(3), a.below(6) - 1);
            case 3 -> ctx.completionVectorCount();
            case 4 -> ctx.queryGidEntry(a.below(3), a.below(20) - 1);
            case 5 -> ctx.queryGidTable(a.below(40) - 2);
            case 6 -> ctx.queryPkey(a.below(3), a.below(4) - 1);
            case 7 -> ctx.pkeyIndex(a.below(3), a.chance(2) ? 0xffff : a.below(1 << 17) - 1);
            default -> ctx.nextAsyncEvent(Duration.ZERO).ifPresent(w.outcomes::asyncEvent);
        }
    }

    private void allocPd(Args a) {
        DeviceContext ctx = w.contexts.pick(a.random());
        if (ctx != null && !w.pds.full()) {
            w.pds.add(ctx.allocatePd());
        }
    }

    private void allocateMemory(Args a) {
        if (!w.memories.full()) {
            Arena arena = Arena.ofShared();
            long bytes = a.chance(2) ? 4096 : 65536;
            w.memories.add(new World.Memory(arena, arena.allocate(bytes, 4096)));
        }
    }

    /** Frees an arena no live region covers (a region's memory must outlive it, as the API asks). */
    private void freeMemory(Args a) {
        World.Memory m = w.memories.pickLive(a.random());
        if (m != null && !w.inUse(m)) {
            m.arena().close();
            w.memories.closed(m);
        }
    }

    /** Live memory, a slice of it, freed memory, an empty slice or heap memory. */
    private void register(Args a) {
        ProtectionDomain pd = pd(a);
        World.Memory m = w.memories.pick(a.random());
        if (pd == null || m == null || w.regions.full()) {
            return;
        }
        MemorySegment memory = m.segment();
        switch (a.below(10)) {
            case 0 -> memory = MemorySegment.ofArray(new byte[64]);
            case 1 -> memory = m.arena().scope().isAlive() ? memory.asSlice(a.below(4096), 0) : memory;
            case 2, 3 -> memory = m.arena().scope().isAlive() ? memory.asSlice(0, 1 + a.below(4095)) : memory;
            default -> {
            }
        }
        MemoryRegion region = a.chance(6) ? pd.registerMemory(memory, a.random().nextLong(), a.access())
                : pd.registerMemory(memory, a.access());
        w.regions.add(region);
        if (memory.isNative() && memory.scope().equals(m.arena().scope())) {
            w.regionMemory.put(region, m);
        }
    }

    /** Re-registration keeps the region over the fuzzer's memory only when it names none: the kernel would re-pin elsewhere. */
    private void reregister(Args a) {
        MemoryRegion region = w.regions.pick(a.random());
        if (region != null) {
            region.reregister(null, a.chance(4) ? null : a.access());
        }
    }

    private void allocFastReg(Args a) {
        ProtectionDomain pd = pd(a);
        if (pd != null && !w.regions.full()) {
            w.regions.add(pd.allocateFastRegMr(a.count()));
        }
    }

    private void advise(Args a) {
        ProtectionDomain pd = pd(a);
        if (pd != null) {
            a.sges(ranges, false);
            pd.adviseMr(a.oneOf(ADVICE), a.below(3), ranges);
        }
    }

    private void allocMw(Args a) {
        ProtectionDomain pd = pd(a);
        if (pd != null && !w.windows.full()) {
            w.windows.add(pd.allocateMw(a.oneOf(MW_TYPES)));
        }
    }

    private void bindMw(Args a) {
        MemoryWindow window = w.windows.pick(a.random());
        QueuePair qp = w.qps.pick(a.random());
        if (window != null && qp != null) {
            MemoryRegion region = a.chance(10) ? null : w.regions.pick(a.random());
            long address = region != null && a.chance(2) ? region.address() : a.remoteAddress();
            window.bind(qp, a.random().nextLong(), a.chance(2), region, address, a.chance(5) ? 0 : a.length(),
                    Access.fromMask(a.accessMask() & 0x3ff));
        }
    }

    private void createChannel(Args a) {
        DeviceContext ctx = context(a);
        if (ctx != null && !w.channels.full()) {
            w.channels.add(ctx.createCompletionChannel());
        }
    }

    private void createCq(Args a) {
        DeviceContext ctx = context(a);
        if (ctx != null && !w.cqs.full()) {
            CompletionChannel channel = a.chance(3) ? w.channels.pick(a.random()) : null;
            CompletionQueue cq = ctx.createCq(a.chance(4) ? a.count() : 1 + a.below(64), channel,
                    a.chance(8) ? a.below(3) - 1 : 0);
            w.cqs.add(cq);
            w.cqContext.put(cq, ctx);
        }
    }

    private void createExtendedCq(Args a) {
        DeviceContext ctx = context(a);
        if (ctx != null && !w.cqs.full()) {
            Set<WcField> fields = EnumSet.noneOf(WcField.class);
            for (WcField f : WC_FIELDS) {
                if (a.chance(3)) {
                    fields.add(f);
                }
            }
            Set<CqCreateFlag> flags = a.chance(4) ? Set.of(CQ_FLAGS[a.below(CQ_FLAGS.length)]) : Set.of();
            CompletionQueue cq = ctx.createExtendedCq(a.chance(4) ? a.count() : 1 + a.below(64), null,
                    a.chance(8) ? a.below(3) - 1 : 0, fields, flags);
            w.cqs.add(cq);
            w.cqContext.put(cq, ctx);
        }
    }

    /** A poll of an extended queue, read field by field, its steps sometimes out of order or left open. */
    private void pollExtended(Args a) {
        if (!(w.cqs.pick(a.random()) instanceof ExtendedCompletionQueue cq)) {
            return;
        }
        if (a.chance(10)) {
            cq.wrId(); // outside a poll
        }
        if (!cq.startPoll()) {
            return;
        }
        for (int i = a.below(4); i >= 0; i--) {
            w.outcomes.completion(new WorkCompletion().set(cq.wrId(), cq.status(), cq.opcode(), 0, 0, 0, cq.wcFlags(), 0));
            WcField f = WC_FIELDS[a.below(WC_FIELDS.length)];
            try {
                switch (f) {
                    case BYTE_LEN -> cq.byteLength();
                    case IMM -> cq.immData();
                    case QP_NUM -> cq.qpNum();
                    case SRC_QP -> cq.srcQp();
                    case COMPLETION_TIMESTAMP -> cq.completionTimestamp();
                    case COMPLETION_TIMESTAMP_WALLCLOCK -> cq.completionTimestampWallclockNs();
                    default -> cq.sl();
                }
            } catch (IllegalStateException notAskedFor) {
                w.outcomes.failed("wc_read of a field not asked for", notAskedFor);
            }
            if (!cq.nextPoll()) {
                break;
            }
        }
        if (!a.chance(20)) {
            cq.endPoll(); // else left open, for a later poll or close to meet
        }
    }

    private void resizeCq(Args a) {
        CompletionQueue cq = w.cqs.pick(a.random());
        if (cq != null) {
            cq.resize(a.chance(4) ? a.count() : a.below(80));
        }
    }

    private void resizeSrq(Args a) {
        SharedReceiveQueue srq = w.srqs.pick(a.random());
        if (srq != null) {
            srq.resize(a.chance(4) ? a.count() : a.below(80));
        }
    }

    private void dataInOrder(Args a) {
        QueuePair qp = w.qps.pick(a.random());
        if (qp != null) {
            qp.dataInOrder(OPCODES[a.below(OPCODES.length)]);
        }
    }

    private void createSrq(Args a) {
        ProtectionDomain pd = pd(a);
        if (pd != null && !w.srqs.full()) {
            w.srqs.add(pd.createSrq(a.count(), a.chance(6) ? a.count() : 1 + a.below(3), a.chance(3) ? a.below(8) : 0));
        }
    }

    private void srqLimit(Args a) {
        SharedReceiveQueue srq = w.srqs.pick(a.random());
        if (srq != null) {
            if (a.chance(2)) {
                srq.limit();
            } else {
                srq.armLimit(a.count());
            }
        }
    }

    private void createAh(Args a) {
        ProtectionDomain pd = pd(a);
        if (pd != null && !w.ahs.full()) {
            w.ahs.add(pd.createAh(a.route()));
        }
    }

    private void createQp(Args a) {
        ProtectionDomain pd = pd(a);
        if (pd == null || w.qps.full()) {
            return;
        }
        CompletionQueue sendCq = cqFor(a, pd);
        CompletionQueue recvCq = a.chance(2) ? sendCq : cqFor(a, pd);
        if (sendCq == null || recvCq == null) {
            return;
        }
        QpType type = a.oneOf(QP_TYPES);
        QpInitAttributes init = new QpInitAttributes(type, sendCq, recvCq);
        if (a.chance(4)) {
            init.srq(w.srqs.pick(a.random()));
        }
        if (a.chance(6)) {
            init.capacity(a.count(), a.count(), a.count(), a.count(), a.chance(2) ? 0 : a.count());
        } else {
            init.capacity(16, 16, 3, 3, a.chance(2) ? 0 : 64);
        }
        if (a.chance(3)) {
            init.allow(a.oneOf(OPCODES));
        }
        init.signalAll(a.chance(2));
        QueuePair qp = pd.createQp(init);
        w.qps.add(qp);
    }

    /** Mostly a live queue of the domain's context; sometimes any queue, live or closed. */
    private CompletionQueue cqFor(Args a, ProtectionDomain pd) {
        if (a.chance(8)) {
            return w.cqs.pick(a.random());
        }
        List<CompletionQueue> same = w.cqs.live().stream().filter(cq -> w.cqContext.get(cq) == pd.context()).toList();
        return same.isEmpty() ? null : same.get(a.below(same.size()));
    }

    /** Closes an object of any kind: live (in any order, so a parent may refuse) or closed already. */
    private void close(Args a) throws Exception {
        // Contexts and domains, which take everything with them, close least often.
        switch (a.below(22)) {
            case 0 -> close(a, w.contexts);
            case 1, 2 -> close(a, w.pds);
            case 3, 4, 5, 6 -> {
                MemoryRegion r = w.regions.pick(a.random());
                if (r != null) {
                    r.close();
                    w.regions.closed(r);
                    w.regionMemory.remove(r);
                }
            }
            case 7, 8 -> close(a, w.windows);
            case 9 -> close(a, w.channels);
            case 10, 11 -> {
                CompletionQueue cq = w.cqs.pick(a.random());
                if (cq != null) {
                    cq.close();
                    w.cqs.closed(cq);
                    w.cqContext.remove(cq);
                }
            }
            case 12 -> close(a, w.srqs);
            case 13, 14 -> close(a, w.ahs);
            case 15, 16, 17 -> {
                World.Memory m = w.memories.pickLive(a.random());
                if (m != null && !w.inUse(m)) {
                    m.arena().close();
                    w.memories.closed(m);
                }
            }
            default -> {
                QueuePair qp = w.qps.pick(a.random());
                if (qp != null) {
                    qp.close();
                    w.qps.closed(qp);
                    w.believedState.remove(qp);
                }
            }
        }
    }

    private static <T extends AutoCloseable> void close(Args a, Pool<T> pool) throws Exception {
        T object = pool.pick(a.random());
        if (object != null) {
            object.close();
            pool.closed(object);
        }
    }
}

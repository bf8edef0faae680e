package dev.verbs4j.conformance.misuse;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.EnumSet;

/** The objects the misuse cases abuse, made on the local side only (no peer is involved). */
final class Objects {
    static final int QKEY = 0x11111111;

    private Objects() {
    }

    /** An address handle on the local device pointing at itself. */
    static AddressHandleAttributes toSelf(DeviceSide side) {
        return new AddressHandleAttributes(side.gid(), side.gidIndex(), DeviceSide.PORT, 64, 0, 0, 0);
    }

    /** An address handle to the local device itself; skips on iWARP, which has none. */
    static AddressHandle addressHandle(Testbed bed, ProtectionDomain pd) {
        Require.infinibandTransport(bed, "address handles, which address UD queue pairs (iWARP has RC only)");
        return bed.track(pd.createAh(toSelf(bed.local())));
    }

    /**
     * A UD queue pair at RTS: it takes sends at once, which complete without a peer.
     * Skips on iWARP, which has RC only.
     */
    static QueuePair udAtRts(Testbed bed, ProtectionDomain pd, CompletionQueue cq) {
        Require.infinibandTransport(bed, "UD queue pairs (iWARP has RC only)");
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.UD, cq).capacity(16, 16, 1, 1, 0)));
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT).qkey(QKEY));
        qp.modify(new QpAttributes().state(QpState.RTR));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
        return qp;
    }

    /** An RC queue pair in INIT: it takes receives. */
    static QueuePair rcInInit(Testbed bed, ProtectionDomain pd, CompletionQueue cq) {
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(16, 16, 1, 1, 0)));
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT)
                .access(EnumSet.of(Access.LOCAL_WRITE)));
        return qp;
    }

    /** A signaled 64-byte datagram from {@code region} to queue pair {@code qpn} through {@code ah}. */
    static SendWorkRequest datagram(MemoryRegion region, AddressHandle ah, int qpn) {
        return new SendWorkRequest().wrId(1).signaled(true).buffer(region, 0, 64).send().ud(ah, qpn, QKEY);
    }

    static MemoryRegion region(Testbed bed, ProtectionDomain pd, Access first, Access... rest) {
        return bed.track(pd.registerMemory(bed.memory(Testbed.PAGE), EnumSet.of(first, rest)));
    }
}

package dev.verbs4j.conformance.access;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcEnd;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Assumptions;

import java.util.EnumSet;
import java.util.Set;

/**
 * The rkey of a memory window bound to a sub-range of a larger region (IBTA 10.6.7), so
 * the region's bytes either side of the window are guards too. Type 1 windows are bound
 * with {@code ibv_bind_mw}, type 2 windows with a BIND_MW work request that ties them to
 * the owner's queue pair (10.6.7.2.1).
 */
final class WindowKey extends IssuedKey {
    /** Where the window starts in the region, and how long it is: 1 KiB of region before it, 3 KiB after. */
    static final long WINDOW_START = 1024;
    static final long WINDOW_LENGTH = 12 * 1024;

    private final Testbed bed;
    private final MemoryRegion region;
    private final MemoryWindow window;
    private final Set<Access> rights;

    private WindowKey(Testbed bed, RcEnd owner, MemoryRegion region, MemoryWindow window, Set<Access> rights) {
        super(owner, null);
        this.bed = bed;
        this.region = region;
        this.window = window;
        this.rights = rights;
    }

    /**
     * Registers the target's region with local write, MW_BIND and {@code regionRights},
     * and binds a window of {@code type} granting {@code rights} over part of it.
     */
    static WindowKey bind(Testbed bed, RcEnd owner, GuardedTarget target, MwType type, Set<Access> rights,
                          Set<Access> regionRights) {
        Set<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.MW_BIND);
        access.addAll(regionRights);
        MemoryRegion region = RegionKey.optional(access)
                ? Require.supportedAtCreation("a region registered with " + access + " on " + owner.side(),
                        () -> bed.register(owner.pd(), target.region(), access).region())
                : bed.register(owner.pd(), target.region(), access).region();
        MemoryWindow window = Require.supportedAtCreation("a " + type + " window on " + owner.side(),
                () -> bed.window(owner.pd(), type));
        WindowKey key = new WindowKey(bed, owner, region, window, Set.copyOf(rights));
        key.bindWindow(type == MwType.TYPE_1 ? window.rkey() : MemoryWindow.incrementRkey(window.rkey()));
        return key;
    }

    private void bindWindow(int nextKey) {
        long address = region.address() + WINDOW_START;
        int rkey;
        WorkCompletion wc;
        if (window.type() == MwType.TYPE_1) {
            rkey = rights.contains(Access.FLUSH_GLOBAL)
                    ? Require.supportedAtCreation("a type 1 window granting " + rights + " on " + owner.side(),
                            () -> window.bind(owner.qp(), 0xB1, true, region, address, WINDOW_LENGTH, rights))
                    : window.bind(owner.qp(), 0xB1, true, region, address, WINDOW_LENGTH, rights);
            wc = Completions.next(owner.sendCq(), "the type 1 bind");
        } else {
            rkey = nextKey;
            owner.qp().postSend(new SendWorkRequest().wrId(0xB1).signaled(true)
                    .bindMw(window, rkey, region, address, WINDOW_LENGTH, Access.toMask(rights)));
            wc = Completions.next(owner.sendCq(), "the type 2 bind");
        }
        if (wc.status() != WcStatus.SUCCESS && rights.contains(Access.FLUSH_GLOBAL)) {
            // A window granting a FLUSH placement type is an IBTA 1.5 addition a device may not bind.
            Assumptions.abort(owner.side() + " cannot bind a window granting " + rights + ": the bind completed with " + wc.status());
        }
        Expect.success(WcOpcode.BIND_MW, 0xB1, wc, "bind of the " + window.type() + " window");
        grant = new Grant(rkey, address, WINDOW_LENGTH, GuardedTarget.REGION_OFFSET + WINDOW_START);
    }

    @Override
    void revoke(Revocation how) {
        int old = grant.rkey();
        switch (how) {
            case LOCAL_INVALIDATE -> localInvalidate(old);
            case REBIND -> {
                if (window.type() == MwType.TYPE_2) {
                    // A type 2 window is bound only from the free state (o10-37.2.30): invalidate it first.
                    localInvalidate(old);
                }
                bindWindow(MemoryWindow.incrementRkey(old));
            }
            case DEALLOC -> bed.closeNow(window);
            case DEREG -> throw new IllegalArgumentException("a region with a bound window cannot be deregistered");
        }
        grant = new Grant(old, grant.address(), grant.length(), grant.offset());
    }
}

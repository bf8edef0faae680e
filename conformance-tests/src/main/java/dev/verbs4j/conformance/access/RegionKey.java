package dev.verbs4j.conformance.access;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.conformance.fixture.RcEnd;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.EnumSet;
import java.util.Set;

/** The rkey of a region registered over the target's four pages ({@code ibv_reg_mr}), on-demand or pinned. */
final class RegionKey extends IssuedKey {
    private final Testbed bed;
    private final MemoryRegion region;

    private RegionKey(Testbed bed, RcEnd owner, MemoryRegion region) {
        super(owner, new Grant(region.rkey(), region.address(), region.length(), GuardedTarget.REGION_OFFSET));
        this.bed = bed;
        this.region = region;
    }

    /** Registers the target's region with local write and {@code rights}, with ON_DEMAND when {@code onDemand}. */
    static RegionKey register(Testbed bed, RcEnd owner, GuardedTarget target, Set<Access> rights, boolean onDemand) {
        Set<Access> access = EnumSet.of(Access.LOCAL_WRITE);
        access.addAll(rights);
        if (onDemand) {
            access.add(Access.ON_DEMAND);
        }
        MemoryRegion region = optional(access)
                ? Require.supportedAtCreation("a region registered with " + access + " on " + owner.side(),
                        () -> bed.register(owner.pd(), target.region(), access).region())
                : bed.register(owner.pd(), target.region(), access).region();
        return new RegionKey(bed, owner, region);
    }

    /** Rights a device may refuse at registration (IBTA 1.5 FLUSH, On-Demand Paging): a refusal skips the case. */
    static boolean optional(Set<Access> access) {
        return access.contains(Access.FLUSH_GLOBAL) || access.contains(Access.ON_DEMAND);
    }

    @Override
    void revoke(Revocation how) {
        if (how != Revocation.DEREG) {
            throw new IllegalArgumentException(how + " of a registered region");
        }
        bed.closeNow(region);
    }
}

package dev.verbs4j.conformance.access;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.RcEnd;
import dev.verbs4j.conformance.fixture.Testbed;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * The key of a fast-registered region (the memory management extensions' REG_MR work
 * request) over the target's four pages. The pages are first registered locally in the
 * same domain: a Java provider reaches native memory only through registered segments.
 */
final class FastRegisteredKey extends IssuedKey {
    private static final int PAGE_SHIFT = 12;

    private final Testbed bed;
    private final MemoryRegion region;
    private final long[] pages = new long[GuardedTarget.REGION_PAGES];
    private final MemorySegment memory;
    private final int access;

    private FastRegisteredKey(Testbed bed, RcEnd owner, MemoryRegion region, MemorySegment memory, int access) {
        super(owner, null);
        this.bed = bed;
        this.region = region;
        this.memory = memory;
        this.access = access;
        for (int i = 0; i < pages.length; i++) {
            pages[i] = memory.address() + ((long) i << PAGE_SHIFT);
        }
    }

    /** Allocates a fast-register region on the owner and registers it over the target's region with {@code rights}. */
    static FastRegisteredKey register(Testbed bed, RcEnd owner, GuardedTarget target, Set<Access> rights) {
        bed.register(owner.pd(), target.region(), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion region = bed.track(owner.pd().allocateFastRegMr(GuardedTarget.REGION_PAGES));
        Set<Access> access = EnumSet.of(Access.LOCAL_WRITE);
        access.addAll(rights);
        FastRegisteredKey key = new FastRegisteredKey(bed, owner, region, target.region(), Access.toMask(access));
        key.registerPages(MemoryWindow.incrementRkey(region.rkey()));
        return key;
    }

    private void registerPages(int newKey) {
        control(new SendWorkRequest().registerMr(region, newKey, pages, pages.length, PAGE_SHIFT, memory.address(),
                memory.byteSize(), access), WcOpcode.REG_MR, "the fast registration");
        grant = new Grant(newKey, memory.address(), memory.byteSize(), GuardedTarget.REGION_OFFSET);
    }

    @Override
    void revoke(Revocation how) {
        Grant old = grant;
        switch (how) {
            case LOCAL_INVALIDATE -> localInvalidate(old.rkey());
            case REBIND -> {
                localInvalidate(old.rkey());
                registerPages(MemoryWindow.incrementRkey(old.rkey()));
            }
            case DEREG -> bed.closeNow(region);
            case DEALLOC -> throw new IllegalArgumentException("a fast-registered region is deregistered, not deallocated");
        }
        grant = old;
    }
}

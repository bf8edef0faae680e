package dev.verbs4j.conformance.odp;

import dev.verbs4j.Access;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.Set;

/**
 * On-Demand Paging regions ({@code IBV_ACCESS_ON_DEMAND}): nothing is pinned at
 * registration; the device faults pages in when the transport first touches them. The
 * memory is anonymous with its pages dropped ({@code MADV_DONTNEED}, as pyverbs does), so
 * the transport really has to fault.
 */
final class OnDemand {
    private OnDemand() {
    }

    /** Local write, every remote right, and on-demand paging. */
    static Set<Access> rights() {
        Set<Access> rights = Buffer.allRemoteAccess();
        rights.add(Access.ON_DEMAND);
        return rights;
    }

    /** An on-demand region over {@code bytes} of anonymous memory whose pages are not present. */
    static Buffer buffer(Testbed bed, ProtectionDomain pd, long bytes) {
        return bed.register(pd, FreshPages.allocate(bed, bytes), rights());
    }
}

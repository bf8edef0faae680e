package dev.verbs4j.conformance.odp;

import dev.verbs4j.Access;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.MappedFiles;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.Set;

/**
 * On-Demand Paging regions ({@code IBV_ACCESS_ON_DEMAND}): nothing is pinned at
 * registration; the device faults pages in when the transport first touches them. The
 * memory is a freshly mapped file, whose pages are not present until touched, so the
 * transport really has to fault (pyverbs forces the same with {@code MADV_DONTNEED}).
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

    /** An on-demand region over {@code bytes} of untouched memory. */
    static Buffer buffer(Testbed bed, ProtectionDomain pd, long bytes) {
        return bed.register(pd, MappedFiles.map(bed, bytes), rights());
    }
}

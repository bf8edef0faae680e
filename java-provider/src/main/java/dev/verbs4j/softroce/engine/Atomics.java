package dev.verbs4j.softroce.engine;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/** Atomic access to registered memory, in native byte order (what the CPU sees). */
final class Atomics {
    /** A 64-bit aligned long at (segment, offset); atomic against every thread of the process. */
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private Atomics() {
    }
}

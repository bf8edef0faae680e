/**
 * The conformance suite: provider-neutral JUnit cases that check a verbs provider and device
 * against libibverbs and the IBTA, and the report of a run. An open module, so the JUnit
 * Platform reaches the cases by reflection; the providers come from the module path or the
 * class path through {@code dev.verbs4j}'s service lookup.
 */
open module dev.verbs4j.conformance {
    requires transitive dev.verbs4j;
    requires java.management;
    requires jdk.management;
    requires jdk.unsupported;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.platform.engine;
    requires transitive org.junit.platform.launcher;

    exports dev.verbs4j.conformance;
    exports dev.verbs4j.conformance.access;
    exports dev.verbs4j.conformance.agent;
    exports dev.verbs4j.conformance.atomicwrite;
    exports dev.verbs4j.conformance.base;
    exports dev.verbs4j.conformance.cm;
    exports dev.verbs4j.conformance.errors;
    exports dev.verbs4j.conformance.fixture;
    exports dev.verbs4j.conformance.flush;
    exports dev.verbs4j.conformance.fuzz;
    exports dev.verbs4j.conformance.memwindow;
    exports dev.verbs4j.conformance.misuse;
    exports dev.verbs4j.conformance.odp;
    exports dev.verbs4j.conformance.report;

    provides org.junit.platform.launcher.TestExecutionListener
            with dev.verbs4j.conformance.report.ConformanceReportListener;
}

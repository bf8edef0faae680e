/**
 * The verbs4j conformance suite: one provider-neutral set of JUnit cases that checks a
 * verbs provider and device against libibverbs and IBTA behaviour, run by the build
 * (Surefire, against the {@code soft} provider) or by {@link dev.verbs4j.conformance.ConformanceMain}
 * against any provider and device. Cases never branch on the provider; what a device
 * lacks is skipped with the reason. Families: {@code base}, {@code errors}, {@code flush},
 * {@code atomicwrite}, {@code memwindow}, {@code odp}; the fixtures are in
 * {@code fixture}, the report in {@code report}.
 */
package dev.verbs4j.conformance;

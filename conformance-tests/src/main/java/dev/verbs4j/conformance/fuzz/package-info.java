/**
 * An API fuzzer: seeded random sequences of verbs calls, with valid and invalid arguments,
 * over every object of the API, on one provider. Each call may succeed, throw a
 * {@link dev.verbs4j.VerbsException}, or throw {@link java.lang.IllegalArgumentException},
 * {@link java.lang.NullPointerException} or {@link java.lang.IllegalStateException} for
 * plain Java misuse; completions may carry any status. Anything else fails the run: another
 * exception, a device's fatal event (a soft engine's fault), a crash of the JVM, a hang, or
 * file descriptors and native memory that do not come back once everything is closed.
 *
 * <p>{@link dev.verbs4j.conformance.fuzz.FuzzLauncher} runs {@link dev.verbs4j.conformance.fuzz.FuzzMain}
 * in a child JVM, so that a crash leaves an {@code hs_err} file the launcher finds instead
 * of taking the test run down with it.
 */
package dev.verbs4j.conformance.fuzz;

/**
 * Misuse of object lifetimes, as a careless or racing application commits it: calls on a
 * closed object, closing twice, closing a parent before its children, closing while another
 * thread posts, polls or waits. Every case ends in an exception the API documents
 * ({@link dev.verbs4j.VerbsException} with the errno libibverbs gives, or
 * {@link java.lang.IllegalStateException} for a closed object), never in a crash of the
 * process or a fault of an engine.
 */
package dev.verbs4j.conformance.misuse;

/**
 * Remote access checks as one generated matrix: every remote operation (RDMA WRITE, WRITE
 * with immediate, READ, compare-and-swap, fetch-and-add, ATOMIC WRITE, FLUSH of a range and
 * of a whole region, and SEND_WITH_INV, whose access is the invalidation of a key), through
 * every kind of key that names remote memory (plain region, type 1 and type 2 window,
 * fast-registered region, on-demand region), against every check the responder makes (key,
 * protection domain, right, bounds, zero length, revocation, queue pair of a type 2 window).
 * Each case checks the requester's completion, what the responder's queue pair and receive
 * queue show afterwards, and that no byte outside the granted range changed.
 * {@link dev.verbs4j.conformance.access.AccessCase} runs one case; the tables are the enums
 * {@link dev.verbs4j.conformance.access.Operation}, {@link dev.verbs4j.conformance.access.KeyKind}
 * and {@link dev.verbs4j.conformance.access.Check}.
 */
package dev.verbs4j.conformance.access;

/**
 * Failures and the exact completion status or errno each must produce: protection, access,
 * RNR, retries, flushing, state rules, overflow, lifetimes. The kernel rxe is the
 * reference; where it departs from IBTA or the verbs API contract, the case says so.
 */
package dev.verbs4j.conformance.errors;

/** RDMA ATOMIC WRITE (IBTA 1.5): the 8-byte store, its refusals, and that a concurrent reader never sees it torn. */
package dev.verbs4j.conformance.atomicwrite;

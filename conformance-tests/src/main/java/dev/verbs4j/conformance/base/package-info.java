/** Data movement that every RC/UD device must get right: send/receive, RDMA write and read, atomics, SRQ, inline, scatter/gather, completion events. */
package dev.verbs4j.conformance.base;

/** RDMA FLUSH (IBTA 1.5 memory placement extensions): placement types, selectivity levels, bounds and ordering. */
package dev.verbs4j.conformance.flush;

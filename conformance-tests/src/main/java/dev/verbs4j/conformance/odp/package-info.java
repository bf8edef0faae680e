/** On-Demand Paging regions: traffic, atomics, prefetch advice, and FLUSH / ATOMIC WRITE into them; skipped on devices without ODP. */
package dev.verbs4j.conformance.odp;

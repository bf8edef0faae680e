/**
 * The connection manager ({@code rdma_cm}): ids that resolve, connect, listen, accept,
 * reject and disconnect, with the events and statuses librdmacm reports.
 */
package dev.verbs4j.conformance.cm;

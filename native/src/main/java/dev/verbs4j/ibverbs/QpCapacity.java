package dev.verbs4j.ibverbs;

/**
 * The queue sizes a queue pair was granted ({@code struct ibv_qp_cap} after
 * {@code ibv_create_qp_ex}); its native post buffers are sized from them.
 */
record QpCapacity(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
}

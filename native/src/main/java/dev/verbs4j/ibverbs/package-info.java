/**
 * The {@code ibverbs} provider: verbs4j's API over libibverbs (rdma-core), through the
 * JavaCPP binding of {@link dev.verbs4j.ibverbs.binding}.
 *
 * <p>Each API object wraps one libibverbs object and extends {@link dev.verbs4j.spi.Resource},
 * so lifetimes follow the rules both providers share: a parent with live children refuses
 * to close with {@code EBUSY} before libibverbs is asked, a second close does nothing, and
 * a closed object throws {@link IllegalStateException}. Every libibverbs failure becomes a
 * {@link dev.verbs4j.VerbsException} carrying the errno of the same native call.
 *
 * <p>The data path allocates nothing: each queue pair owns the native scatter/gather array,
 * receive request, bind info and ATOMIC WRITE operand it posts from, and each completion
 * queue owns the {@code ibv_wc} array it polls into; both are sized at creation. Sends use
 * the extended post API ({@code ibv_wr_start} ... {@code ibv_wr_complete}).
 */
package dev.verbs4j.ibverbs;

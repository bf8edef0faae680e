/**
 * JavaCPP mapping of libibverbs (rdma-core): the only place where C names
 * live. Classes named {@code ibv_*} map the C structs of the same name;
 * {@code *Verbs} classes hold the C functions as static natives with their C
 * names and argument order; {@link dev.verbs4j.ibverbs.binding.IbverbsConstants}
 * and {@link dev.verbs4j.ibverbs.binding.Errno} hold the C constants.
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li><b>Unsigned values.</b> {@code uint32_t} maps to {@code int} and
 *       {@code uint64_t}/{@code size_t} to {@code long} with the same bits
 *       (use {@link java.lang.Integer#toUnsignedLong(int)} where the value
 *       can exceed 2^31); {@code uint8_t} and {@code uint16_t} map to
 *       {@code int} and read unsigned.</li>
 *   <li><b>Return values.</b> Exactly libibverbs': most {@code int} verbs
 *       return 0 or an errno value; calls that report failure only through
 *       errno (NULL or -1 results) capture errno inside the native call into
 *       {@link dev.verbs4j.ibverbs.binding.Errno#lastErrno()}, per thread.</li>
 *   <li><b>Ownership.</b> Handles ({@code ibv_context}, {@code ibv_pd},
 *       {@code ibv_mr}, {@code ibv_qp}, ...) are owned by libibverbs and
 *       freed by the matching destroy/dealloc verb; Java objects are views.
 *       Attribute structs ({@code ibv_qp_attr}, {@code ibv_wc}, ...) are
 *       allocated zeroed by their constructors and freed by
 *       {@link org.bytedeco.javacpp.Pointer#close()} or by the garbage
 *       collector.</li>
 *   <li><b>Arrays.</b> {@code new ibv_wc(n)} allocates n elements; natives
 *       start at the object's {@code position()}, and {@code getPointer(i)}
 *       counts from it too.</li>
 *   <li><b>Data path.</b> {@link dev.verbs4j.ibverbs.binding.PostSendVerbs},
 *       {@code ibv_poll_cq}, {@code ibv_post_recv} and the
 *       {@code ibv_wc_read_*} calls allocate nothing when given reused
 *       structs; getters returning struct objects (e.g. {@code mr.pd()})
 *       allocate a view and belong on the control path.</li>
 *   <li><b>Header vs. run-time version.</b> See
 *       {@link dev.verbs4j.ibverbs.binding.IbverbsLibrary}: built against
 *       rdma-core &ge; 45 headers, runs on libibverbs.so.1 of any release
 *       with the symbols used (rdma-core 44 included), with the FLUSH
 *       caveat documented there.</li>
 * </ul>
 */
package dev.verbs4j.ibverbs.binding;

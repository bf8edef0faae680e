/**
 * The verbs API: devices, contexts, protection domains, memory regions and windows,
 * completion queues and channels, queue pairs, shared receive queues and address handles.
 *
 * <h2>Lifetimes</h2>
 * Every object is {@link java.lang.AutoCloseable}, and every provider closes by the same rules:
 * <ul>
 *   <li>Closing an object whose children or users are alive (a domain with regions, a
 *       completion queue used by a queue pair, a channel with queues) fails with a
 *       {@link dev.verbs4j.VerbsException} carrying {@code EBUSY}, as libibverbs does, and
 *       leaves it open. So does closing an object another thread is using at that moment
 *       (an address handle a post is reading, a channel a thread waits on).</li>
 *   <li>A second close does nothing.</li>
 *   <li>Calling a closed object throws {@link java.lang.IllegalStateException}.</li>
 *   <li>A work request that names a closed address handle, window or region is refused
 *       when it is posted, with {@code EINVAL}.</li>
 * </ul>
 * None of these reach native memory that was freed: a closed object is refused before its
 * provider touches it, and an object in use cannot be freed under its user.
 */
package dev.verbs4j;

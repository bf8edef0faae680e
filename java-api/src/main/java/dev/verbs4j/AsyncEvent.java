package dev.verbs4j;

/**
 * An asynchronous event ({@code struct ibv_async_event}). {@code element} is the QP
 * number, SRQ or CQ handle, or port number the event is about, as {@code type} says.
 *
 * @param type what happened ({@code event_type})
 * @param element the queue pair number, port number, or the provider's handle of the completion
 *        or shared receive queue ({@code element})
 */
public record AsyncEvent(AsyncEventType type, long element) {
}

package dev.verbs4j;

/**
 * An asynchronous event ({@code struct ibv_async_event}). {@code element} is the QP
 * number, SRQ or CQ handle, or port number the event is about, as {@code type} says.
 */
public record AsyncEvent(AsyncEventType type, long element) {
}

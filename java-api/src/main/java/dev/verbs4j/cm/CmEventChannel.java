package dev.verbs4j.cm;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;

import java.time.Duration;
import java.util.Optional;

/**
 * Where connection-manager events arrive ({@code struct rdma_event_channel}); made by
 * {@link dev.verbs4j.Provider#createCmEventChannel()}. One thread reads it at a time.
 */
public interface CmEventChannel extends AutoCloseable {
    /**
     * Creates an id in a port space ({@code rdma_create_id}).
     *
     * @throws dev.verbs4j.VerbsException {@code EPROTONOSUPPORT} for a port space the provider does not offer
     * @param portSpace {@link PortSpace#TCP} for RC, {@link PortSpace#UDP} for UD
     * @return the new id, unbound
     */
    CmId createId(PortSpace portSpace);

    /**
     * Waits for the next event ({@code rdma_get_cm_event}); the event is acknowledged when
     * it is returned.
     *
     * @return the event, or empty when {@code timeout} passes first
     * @param timeout how long to wait; zero polls once
     * @throws dev.verbs4j.VerbsException with the errno reading the channel gives
     */
    Optional<CmEvent> nextEvent(Duration timeout);

    /**
     * Waits for the next event and checks it is of {@code type}.
     * It has no librdmacm counterpart: it is what librdmacm's synchronous mode does for a call.
     *
     * @throws VerbsException when another event comes ({@code ECONNREFUSED} for a rejection,
     *         {@code ETIMEDOUT} for unreachable, the event's errno for the error events,
     *         {@code ECONNRESET} otherwise) or none comes in time ({@code ETIMEDOUT})
     * @param type the event expected
     * @param timeout how long to wait
     * @return the event
     */
    default CmEvent expect(CmEventType type, Duration timeout) {
        CmEvent event = nextEvent(timeout).orElseThrow(
                () -> new VerbsException(Errno.ETIMEDOUT, "no " + type + " event within " + timeout));
        if (event.type() == type) {
            return event;
        }
        int errno = switch (event.type()) {
            case REJECTED -> Errno.ECONNREFUSED.number();
            case UNREACHABLE -> Errno.ETIMEDOUT.number();
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR -> event.status() < 0 ? -event.status() : Errno.EIO.number();
            default -> Errno.ECONNRESET.number();
        };
        throw new VerbsException(errno, "expected " + type + ", got " + event);
    }

    /**
     * Closes the channel ({@code rdma_destroy_event_channel}); its ids must be closed first.
     *
     * @throws dev.verbs4j.VerbsException {@code EBUSY} while ids created on it are open (librdmacm would
     *         leave them dangling)
     */
    @Override
    void close();
}

package dev.verbs4j.cm;

import dev.verbs4j.Device;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A connection-manager identifier ({@code struct rdma_cm_id}): the RDMA counterpart of a
 * socket. It is bound to an IP address and port, resolves a peer's address to a local
 * device and a route, and connects, listens, accepts, rejects and disconnects with the
 * RDMA CM protocol on the wire, so it meets librdmacm peers (rping, perftest's {@code -R},
 * storage targets) and their listeners. Every call returns at once; its outcome is an
 * event on the id's {@link CmEventChannel}.
 *
 * <p>The id drives its queue pair's states the way librdmacm does for a queue pair made
 * with {@code rdma_create_qp}: INIT when it is made, RTR and RTS as the connection comes
 * up, ERR when it goes down. Failures of the calls are {@link dev.verbs4j.VerbsException}s
 * with the errno librdmacm sets.
 */
public interface CmId extends AutoCloseable {
    /**
     * The channel whose events this id reports.
     *
     * @return the channel given at creation
     */
    CmEventChannel channel();

    /**
     * The port space given at creation.
     *
     * @return the port space ({@code RDMA_PS_TCP} or {@code RDMA_PS_UDP})
     */
    PortSpace portSpace();

    /**
     * The type of queue pair the id connects.
     *
     * @return RC for {@link PortSpace#TCP}, UD for {@link PortSpace#UDP}
     */
    QpType qpType();

    /**
     * Binds to a local address and port ({@code rdma_bind_addr}). Port 0 takes a free one;
     * a wildcard address binds to every device.
     *
     * @throws dev.verbs4j.VerbsException {@code EADDRINUSE} when the port is taken,
     *         {@code EADDRNOTAVAIL} when no device has the address
     * @param address the local address; port 0 for a free port
     */
    void bindAddress(InetSocketAddress address);

    /**
     * Resolves the destination to a local device and source address
     * ({@code rdma_resolve_addr}); {@link CmEventType#ADDR_RESOLVED} or
     * {@link CmEventType#ADDR_ERROR} follows.
     *
     * @param source      the local address to use, or {@code null} to let routing choose
     * @param destination the peer's address and the port it listens on
     * @param timeout     how long resolution may take before the error event
     */
    void resolveAddress(InetSocketAddress source, InetSocketAddress destination, Duration timeout);

    /**
     * Resolves the path to the resolved destination ({@code rdma_resolve_route});
     * {@link CmEventType#ROUTE_RESOLVED} or {@link CmEventType#ROUTE_ERROR} follows.
     *
     * @param timeout how long resolution may take before the error event
     * @throws dev.verbs4j.VerbsException with the errno librdmacm gives, e.g. {@code EINVAL} before
     *         the address is resolved
     */
    void resolveRoute(Duration timeout);

    /**
     * Listens for connection requests on the bound address ({@code rdma_listen}); each
     * arrives as a {@link CmEventType#CONNECT_REQUEST} with a new id.
     *
     * @param backlog the most requests waiting for accept or reject (0 for the provider's default)
     * @throws dev.verbs4j.VerbsException with the errno librdmacm gives
     */
    void listen(int backlog);

    /**
     * Creates the id's queue pair in {@code pd} ({@code rdma_create_qp}). The protection
     * domain must belong to a context on {@link #device()}. An RC or UC queue pair is moved
     * to INIT; a UD one to RTS.
     *
     * @throws dev.verbs4j.VerbsException {@code EINVAL} when the id has no device yet or
     *         {@code pd} is on another device, {@code EEXIST}... as librdmacm
     * @param pd the protection domain
     * @param attributes the queue pair's type (the id's), completion queues and capacities
     * @return the queue pair, also {@link #qp()}
     */
    QueuePair createQp(ProtectionDomain pd, QpInitAttributes attributes);

    /**
     * Makes a queue pair created elsewhere the id's, as if {@link #createQp} had made it.
     * It must be on {@link #device()}, of the id's type, and in RESET or INIT.
     * This has no librdmacm counterpart: there the application would drive such a queue pair itself.
     *
     * @param qp the queue pair
     * @throws dev.verbs4j.VerbsException {@code EINVAL} when it is on another device, of another type or
     *         past INIT
     */
    void attachQp(QueuePair qp);

    /**
     * The id's queue pair, or {@code null}. Closing it is the caller's ({@code rdma_destroy_qp}).
     *
     * @return the queue pair, or null before {@link #createQp} or {@link #attachQp}
     */
    QueuePair qp();

    /**
     * Sends a connection request ({@code rdma_connect}) after the route is resolved.
     * {@link CmEventType#ESTABLISHED} follows (or {@link CmEventType#CONNECT_RESPONSE} for an
     * id without a queue pair), else {@link CmEventType#REJECTED},
     * {@link CmEventType#UNREACHABLE} or {@link CmEventType#CONNECT_ERROR}.
     *
     * @throws dev.verbs4j.VerbsException {@code EINVAL} for private data over
     *         {@link ConnectionParameters#MAX_CONNECT_PRIVATE_DATA} or a route not resolved
     * @param parameters private data, responder resources, initiator depth, retry counts
     */
    void connect(ConnectionParameters parameters);

    /**
     * Accepts a connection request ({@code rdma_accept}) on the id a
     * {@link CmEventType#CONNECT_REQUEST} gave; {@link CmEventType#ESTABLISHED} follows when
     * the peer confirms. On an active id without a queue pair that got
     * {@link CmEventType#CONNECT_RESPONSE}, completes the connection ({@code rdma_establish}).
     *
     * @param parameters private data, responder resources, initiator depth, RNR retry count
     * @throws dev.verbs4j.VerbsException {@code EINVAL} when the id has no request or response to
     *         answer, for private data over {@link ConnectionParameters#MAX_ACCEPT_PRIVATE_DATA}, or
     *         with neither a queue pair on the id nor a queue pair number in {@code parameters}
     */
    void accept(ConnectionParameters parameters);

    /**
     * Refuses a connection request ({@code rdma_reject}): the peer sees {@link RejectReason#CONSUMER_DEFINED}.
     *
     * @param privateData data the peer receives with the reject, or null
     * @throws dev.verbs4j.VerbsException {@code EINVAL} for private data over
     *         {@link ConnectionParameters#MAX_REJECT_PRIVATE_DATA}
     */
    void reject(byte[] privateData);

    /**
     * Disconnects ({@code rdma_disconnect}): the queue pair goes to ERR, and both sides get
     * {@link CmEventType#DISCONNECTED}.
     *
     * @throws dev.verbs4j.VerbsException {@code EINVAL} when the id is not connected
     */
    void disconnect();

    /**
     * The device the id is bound to, or {@code null} before binding or resolution ({@code id->verbs}).
     *
     * @return the device, or null
     */
    Device device();

    /**
     * The device port ({@code id->port_num}), or 0 before binding or resolution.
     *
     * @return the port number
     */
    int port();

    /**
     * The local address and port ({@code rdma_get_local_addr}, {@code rdma_get_src_port}), or {@code null}.
     *
     * @return the address, or null before binding or resolution
     */
    InetSocketAddress localAddress();

    /**
     * The peer's address and port ({@code rdma_get_peer_addr}, {@code rdma_get_dst_port}), or {@code null}.
     *
     * @return the address, or null before resolution or a connection request
     */
    InetSocketAddress peerAddress();

    /**
     * The local ACK timeout its queue pair gets ({@code rdma_set_option} with
     * {@code RDMA_OPTION_ID_ACK_TIMEOUT}): 4.096 µs × 2^value, 0 to 31.
     *
     * @param value the exponent, 0 to 31
     * @throws dev.verbs4j.VerbsException {@code EINVAL} for a value outside 0-31
     */
    void ackTimeout(int value);

    /**
     * The IP type of service of the connection ({@code RDMA_OPTION_ID_TOS}).
     * Set it before address resolution.
     *
     * @param tos the 8-bit type of service
     * @throws dev.verbs4j.VerbsException {@code EINVAL} for a value outside 0-255
     */
    void typeOfService(int tos);

    /**
     * Lets the id bind a port another id holds in time-wait ({@code RDMA_OPTION_ID_REUSEADDR}).
     * Set it before binding.
     *
     * @param reuse true to allow reuse
     */
    void reuseAddress(boolean reuse);

    /**
     * An object the application keeps with the id ({@code id->context}).
     *
     * @return the object, or null
     */
    Object attachment();

    /**
     * Sets the object the application keeps with the id.
     *
     * @param attachment the object, or null
     */
    void attach(Object attachment);

    /**
     * Destroys the id ({@code rdma_destroy_id}). A connected id disconnects first. Its queue
     * pair is not closed.
     */
    @Override
    void close();
}

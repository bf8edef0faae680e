/**
 * The RDMA connection manager (librdmacm's {@code rdma_cm}): ids bound to IP addresses and
 * ports that connect queue pairs with the IB CM protocol, the way every RDMA server and
 * client does. Start at {@link dev.verbs4j.Provider#createCmEventChannel()}.
 *
 * <pre>{@code
 * try (CmEventChannel channel = provider.createCmEventChannel();
 *      CmId id = channel.createId(PortSpace.TCP)) {
 *     id.resolveAddress(null, new InetSocketAddress("10.9.0.1", 7471), Duration.ofSeconds(2));
 *     channel.expect(CmEventType.ADDR_RESOLVED, timeout);
 *     id.resolveRoute(Duration.ofSeconds(2));
 *     channel.expect(CmEventType.ROUTE_RESOLVED, timeout);
 *     DeviceContext ctx = id.device().open();
 *     QueuePair qp = id.createQp(ctx.allocatePd(), new QpInitAttributes(QpType.RC, ctx.createCq(64)));
 *     id.connect(new ConnectionParameters());
 *     channel.expect(CmEventType.ESTABLISHED, timeout);
 * }
 * }</pre>
 */
package dev.verbs4j.cm;

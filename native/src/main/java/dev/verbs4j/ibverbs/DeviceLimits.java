package dev.verbs4j.ibverbs;

import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.ibv_context;
import dev.verbs4j.ibverbs.binding.ibv_device_attr;
import dev.verbs4j.ibverbs.binding.ibv_device_attr_ex;

/**
 * The RDMA READ and atomic depths a device allows, which librdmacm checks connection
 * parameters against: {@code max_qp_rd_atom} and {@code max_qp_init_rd_atom}, cut to a
 * byte as librdmacm keeps them.
 */
record DeviceLimits(int maxResponderResources, int maxInitiatorDepth) {
    private static final int BYTE = 0xff;

    /** Asks the device of {@code context} ({@code ibv_query_device}). */
    static DeviceLimits of(ibv_context context) {
        try (ibv_device_attr_ex attr = new ibv_device_attr_ex()) {
            NativeErrors.check(DeviceVerbs.ibv_query_device_ex(context, null, attr), "ibv_query_device_ex");
            ibv_device_attr base = attr.orig_attr();
            return new DeviceLimits(base.max_qp_rd_atom() & BYTE, base.max_qp_init_rd_atom() & BYTE);
        }
    }
}

/**
 * NVMe over Fabrics on RDMA, written on the verbs API: a target ({@code dev.verbs4j.nvmeof.controller}),
 * a host ({@code dev.verbs4j.nvmeof.host}), the structures both exchange ({@code dev.verbs4j.nvmeof.wire}),
 * and their command-line mains ({@code dev.verbs4j.nvmeof}). Either provider serves.
 */
module dev.verbs4j.nvmeof {
    requires dev.verbs4j;

    exports dev.verbs4j.nvmeof;
    exports dev.verbs4j.nvmeof.controller;
    exports dev.verbs4j.nvmeof.host;
    exports dev.verbs4j.nvmeof.wire;
}

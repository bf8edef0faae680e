/** An append-only log replicated to remote servers over RDMA WRITE, FLUSH and ATOMIC WRITE. */
module dev.verbs4j.replicatedlog {
    requires dev.verbs4j;
}

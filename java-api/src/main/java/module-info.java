/**
 * The verbs4j API: one Java verbs API for RDMA ({@code dev.verbs4j}), the connection manager
 * ({@code dev.verbs4j.cm}) and what a provider implements ({@code dev.verbs4j.spi}).
 * Providers are found with {@link java.util.ServiceLoader}: on the module path a provider
 * module says {@code provides dev.verbs4j.spi.VerbsProvider with ...}, on the class path its
 * jar lists the class in {@code META-INF/services}.
 */
module dev.verbs4j {
    exports dev.verbs4j;
    exports dev.verbs4j.cm;
    exports dev.verbs4j.spi;

    uses dev.verbs4j.spi.VerbsProvider;
}

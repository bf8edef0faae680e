/** Lists the ibverbs provider's devices from a named module; run by ModulePathTest. */
module dev.verbs4j.probe {
    requires dev.verbs4j;
}

package dev.verbs4j.nvmeof.host;

/** One active namespace: its id, its size in blocks, and log2 of its block size. */
public record NamespaceInfo(int nsid, long blocks, int blockShift) {
    public int blockBytes() {
        return 1 << blockShift;
    }
}

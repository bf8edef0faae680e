package dev.verbs4j.conformance.access;

/**
 * What a key grants: remote access under {@code rkey} to {@code length} bytes from the
 * remote address {@code address}, which are the bytes at {@code offset} of the
 * {@link GuardedTarget}'s memory.
 */
record Grant(int rkey, long address, long length, long offset) {

    /** The remote address of the byte at {@code memoryOffset} of the target's memory. */
    long addressOf(long memoryOffset) {
        return address + (memoryOffset - offset);
    }

    /**
     * The same object's index with other low 8 bits (the key portion the consumer owns):
     * a key the responder must not match.
     */
    int unknownKey() {
        return (rkey & 0xffffff00) | ((rkey + 0x80) & 0xff);
    }
}

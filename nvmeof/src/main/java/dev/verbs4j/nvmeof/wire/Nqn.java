package dev.verbs4j.nvmeof.wire;

/** NVMe Qualified Names the protocol fixes. */
public final class Nqn {
    /** The well-known discovery subsystem every target offers. */
    public static final String DISCOVERY = "nqn.2014-08.org.nvmexpress.discovery";
    /** The longest NQN, in bytes, before the field's terminating NUL. */
    public static final int MAX_BYTES = 223;

    private Nqn() {
    }
}

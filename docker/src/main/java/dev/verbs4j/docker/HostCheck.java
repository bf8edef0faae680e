package dev.verbs4j.docker;

import java.util.Objects;

/**
 * The answer to one question about the host a container would run on: can it, and why
 * (or why not). The detail is written for a person reading a skip reason.
 *
 * @param ready  whether the host meets the condition
 * @param detail what was found, and when not ready what to do about it
 */
public record HostCheck(boolean ready, String detail) {
    public HostCheck {
        Objects.requireNonNull(detail, "detail");
    }

    /** The condition holds. */
    public static HostCheck ready(String detail) {
        return new HostCheck(true, detail);
    }

    /** The condition does not hold. */
    public static HostCheck notReady(String detail) {
        return new HostCheck(false, detail);
    }
}

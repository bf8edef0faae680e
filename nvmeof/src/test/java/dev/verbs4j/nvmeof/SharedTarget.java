package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Target;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@link Loopback} target a test class shares, registered as a static
 * {@code @RegisterExtension} field: started before the class's {@code @BeforeAll} methods and
 * closed after its {@code @AfterAll} methods, which may still use it.
 */
final class SharedTarget implements BeforeAllCallback, AfterAllCallback {
    private final int port;
    private Target target;

    SharedTarget(int port) {
        this.port = port;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        target = Loopback.target(port, Loopback.options(port));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (target != null) {
            target.close();
            target = null;
        }
    }

    /** The running target. */
    Target target() {
        if (target == null) {
            throw new IllegalStateException("the shared target on port " + port + " is not running");
        }
        return target;
    }
}

package dev.verbs4j.conformance.misuse;

import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.fail;

/** The assertion every use-after-close case makes: the call is refused as a call on a closed object. */
final class Closed {
    private Closed() {
    }

    /** Asserts that {@code call} throws {@link IllegalStateException}. */
    static void refuses(Executable call, String what) {
        try {
            call.execute();
        } catch (IllegalStateException expected) {
            return;
        } catch (Throwable t) {
            fail(what + ": expected IllegalStateException (the object is closed) but threw " + t, t);
        }
        fail(what + ": expected IllegalStateException (the object is closed) but the call succeeded");
    }
}

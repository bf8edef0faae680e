package dev.verbs4j;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerbsDiscoveryTest {
    @Test
    void unknownProviderNameIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Verbs.provider("no-such"));
        assertTrue(e.getMessage().contains("no-such"), e.getMessage());
    }

    @Test
    void apiAloneHasNoProviders() {
        // java-api has zero dependencies and ships no provider; providers come from their own jars.
        assertTrue(Verbs.providers().isEmpty());
        assertThrows(IllegalStateException.class, Verbs::defaultProvider);
    }
}

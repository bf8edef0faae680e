package dev.verbs4j.conformance;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.PackageSelector;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConformanceMainSelectTest {

    @Test
    void aFamilyIsAPackageAndAClassIsNamedInFullOrFromItsFamily() {
        assertEquals("dev.verbs4j.conformance.errors", ((PackageSelector) ConformanceMain.selector("errors")).getPackageName());
        assertEquals("dev.verbs4j.conformance.errors.ResourceLifetimeTest",
                ((ClassSelector) ConformanceMain.selector("errors.ResourceLifetimeTest")).getClassName());
        assertEquals("dev.verbs4j.conformance.base.ForkProtectionTest",
                ((ClassSelector) ConformanceMain.selector("dev.verbs4j.conformance.base.ForkProtectionTest")).getClassName());
    }
}

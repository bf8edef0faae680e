package dev.verbs4j.conformance;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.PackageSelector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConformanceMainSelectTest {

    @Test
    void aFamilyIsAPackageAndAClassIsNamedInFullOrFromItsFamily() {
        assertEquals("dev.verbs4j.conformance.errors", ((PackageSelector) ConformanceMain.selector("errors")).getPackageName());
        assertEquals("dev.verbs4j.conformance.errors.ResourceLifetimeTest",
                ((ClassSelector) ConformanceMain.selector("errors.ResourceLifetimeTest")).getClassName());
        assertEquals("dev.verbs4j.conformance.base.ForkProtectionTest",
                ((ClassSelector) ConformanceMain.selector("dev.verbs4j.conformance.base.ForkProtectionTest")).getClassName());
    }

    @Test
    void anExclusionCoversItsFamilyOrItsClassAndNothingElse() {
        String family = ConformanceMain.classPattern("access");
        assertTrue("dev.verbs4j.conformance.access.RemoteAccessMatrixTest".matches(family), family);
        assertFalse("dev.verbs4j.conformance.accessories.OtherTest".matches(family), family);
        assertFalse("dev.verbs4j.conformance.errors.RemoteAccessTest".matches(family), family);

        String oneClass = ConformanceMain.classPattern("errors.RemoteAccessTest");
        assertTrue("dev.verbs4j.conformance.errors.RemoteAccessTest".matches(oneClass), oneClass);
        assertFalse("dev.verbs4j.conformance.errors.RemoteAccessTestTwo".matches(oneClass), oneClass);
        assertTrue("dev.verbs4j.conformance.errors.RemoteAccessTest".matches(ConformanceMain.classPattern("dev.verbs4j.conformance.errors.RemoteAccessTest")));
    }
}

package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * Platform properties of the test-only JNI library (built in
 * process-test-classes): header values as the C++ compiler sees them, a
 * fake provider, and the POSIX calls the tests need.
 */
@Properties(value = @Platform(
        value = "linux",
        compiler = "cpp17",
        include = {"<fcntl.h>", "<unistd.h>", "verbs4j_header_values.h", "verbs4j_cm_header_values.h",
                "verbs4j_fake_provider.h"},
        library = "jniverbs4j_test"))
final class TestLibrary {
    private TestLibrary() {
    }
}

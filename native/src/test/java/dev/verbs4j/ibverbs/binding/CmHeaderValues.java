package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/** librdmacm's numbers compiled from its headers (verbs4j_cm_header_values.h). */
@Properties(inherit = TestLibrary.class)
@NoException
final class CmHeaderValues {
    static {
        Loader.load();
    }

    /** What {@link #value} gives for a name not in the table. */
    static final long ABSENT = Long.MIN_VALUE;

    private CmHeaderValues() {
    }

    @Name("verbs4j_cm_test::cm_value")
    static native long value(String name);
}

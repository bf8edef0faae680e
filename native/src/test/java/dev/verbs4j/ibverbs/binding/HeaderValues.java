package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/** Tables compiled from the headers (verbs4j_header_values.h): what C says, independent of the binding's Java side. */
@Properties(inherit = TestLibrary.class)
@NoException
final class HeaderValues {
    static {
        Loader.load();
    }

    static final int UNKNOWN = 0;
    static final int DECLARED = 1;
    static final int NOT_DECLARED = 2;

    private HeaderValues() {
    }

    /** {@link #UNKNOWN}, {@link #DECLARED} or {@link #NOT_DECLARED} by the headers. */
    @Name("verbs4j_test::constant_status")
    static native int constantStatus(String name);

    @Name("verbs4j_test::constant_value")
    static native long constantValue(String name);

    @Name("verbs4j_test::constant_count")
    static native int constantCount();

    @Name("verbs4j_test::constant_name")
    static native @Cast("const char*") String constantName(int index);

    /** sizeof(type), or -1 for a type not in the table. */
    @Name("verbs4j_test::size_of")
    static native long sizeOf(String type);

    @Name("verbs4j_test::field_count")
    static native int fieldCount();

    /** {@code struct.javaAccessor}. */
    @Name("verbs4j_test::field_name")
    static native @Cast("const char*") String fieldName(int index);

    @Name("verbs4j_test::field_offset")
    static native long fieldOffset(int index);

    @Name("verbs4j_test::field_size")
    static native long fieldSize(int index);

    /** offsetof for a {@code struct.javaAccessor} name. */
    static long offsetOf(String field) {
        for (int i = 0; i < fieldCount(); i++) {
            if (fieldName(i).equals(field)) {
                return fieldOffset(i);
            }
        }
        throw new IllegalArgumentException("no field " + field);
    }
}

package dev.verbs4j.ibverbs.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.junit.jupiter.api.Test;

/**
 * Every struct accessor of the binding reads and writes exactly the bytes of
 * its C member: the offsets and sizes come from the test library, compiled
 * from the same headers by the C++ compiler, and the accessors are driven
 * by reflection over raw memory.
 */
class StructLayoutTest {

    private static final String PACKAGE = "dev.verbs4j.ibverbs.binding.";

    /** x86-64 sizes that are libibverbs ABI and must never move. */
    private static final Map<String, Long> STABLE_ABI_SIZES = Map.ofEntries(
            Map.entry("ibv_sge", 16L),
            Map.entry("ibv_recv_wr", 32L),
            Map.entry("ibv_send_wr", 128L),
            Map.entry("ibv_wc", 48L),
            Map.entry("ibv_gid", 16L),
            Map.entry("ibv_global_route", 24L),
            Map.entry("ibv_ah_attr", 32L),
            Map.entry("ibv_qp_cap", 20L),
            Map.entry("ibv_qp_attr", 144L),
            Map.entry("ibv_srq_attr", 12L),
            Map.entry("ibv_mw_bind_info", 32L),
            Map.entry("ibv_mw_bind", 48L),
            Map.entry("ibv_async_event", 16L),
            Map.entry("ibv_data_buf", 16L));

    private record Field(String struct, String accessor, long offset, long size) {
    }

    private static List<Field> cFields() {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < HeaderValues.fieldCount(); i++) {
            String[] name = HeaderValues.fieldName(i).split("\\.");
            fields.add(new Field(name[0], name[1], HeaderValues.fieldOffset(i), HeaderValues.fieldSize(i)));
        }
        return fields;
    }

    private static Class<? extends Pointer> structClass(String struct) throws ClassNotFoundException {
        return Class.forName(PACKAGE + struct).asSubclass(Pointer.class);
    }

    @Test
    void javaSizeofEqualsCSizeofForEveryStruct() throws Exception {
        TreeSet<String> structs = new TreeSet<>();
        cFields().forEach(field -> structs.add(field.struct()));
        assertEquals(javaStructClasses(), structs, "struct classes of the binding vs. structs in the C table");
        for (String struct : structs) {
            long cSize = HeaderValues.sizeOf(struct);
            assertTrue(cSize > 0, struct);
            assertEquals(cSize, Loader.sizeof(structClass(struct)), "sizeof " + struct);
        }
    }

    @Test
    void abiStableStructsKeepTheirX8664Size() {
        STABLE_ABI_SIZES.forEach((struct, size) -> assertEquals(size, HeaderValues.sizeOf(struct), struct));
    }

    @Test
    void everyNativeGetterHasACMember() throws Exception {
        Map<String, TreeSet<String>> mapped = new TreeMap<>();
        for (Field field : cFields()) {
            mapped.computeIfAbsent(field.struct(), key -> new TreeSet<>()).add(field.accessor());
        }
        for (Map.Entry<String, TreeSet<String>> entry : mapped.entrySet()) {
            TreeSet<String> getters = new TreeSet<>();
            for (Method method : structClass(entry.getKey()).getDeclaredMethods()) {
                if (isGetter(method)) {
                    getters.add(method.getName());
                }
            }
            assertEquals(entry.getValue(), getters, "accessors of " + entry.getKey());
        }
    }

    @Test
    void gettersReadExactlyTheirCMemberBytes() throws Exception {
        for (Field field : cFields()) {
            try (BytePointer memory = zeroed(HeaderValues.sizeOf(field.struct()))) {
                Pointer struct = structClass(field.struct()).getConstructor(Pointer.class).newInstance(memory);
                Method getter = getter(field);
                Class<?> type = getter.getReturnType();
                String what = field.struct() + "." + field.accessor();
                if (type == int.class || type == long.class) {
                    fillPattern(memory);
                    long expected = littleEndian(memory, field.offset(), field.size());
                    long actual = ((Number) getter.invoke(struct)).longValue();
                    assertEquals(type == int.class ? (long) (int) expected : expected,
                            type == int.class ? (long) (int) actual : actual, what);
                } else if (type == byte.class) {
                    for (int i = 0; i < field.size(); i++) {
                        memory.put(field.offset() + i, (byte) (0x80 + i));
                        assertEquals((byte) (0x80 + i), getter.invoke(struct, i), what + "[" + i + "]");
                    }
                } else if (type == String.class) {
                    byte[] text = "verbs4j".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    for (int i = 0; i < text.length; i++) {
                        memory.put(field.offset() + i, text[i]);
                    }
                    assertEquals("verbs4j", getter.invoke(struct), what);
                } else if (Pointer.class.isAssignableFrom(type) && !getter.isAnnotationPresent(ByRef.class)) {
                    assertEquals(Long.BYTES, field.size(), what + " is a C pointer");
                    long address = 0x00007f0123456780L;
                    putLittleEndian(memory, field.offset(), Long.BYTES, address);
                    assertEquals(address, ((Pointer) getter.invoke(struct)).address(), what);
                } else if (Pointer.class.isAssignableFrom(type)) {
                    Pointer nested = (Pointer) getter.invoke(struct);
                    assertEquals(memory.address() + field.offset(), nested.address(), what + " is a view at its offset");
                    assertEquals(field.size(), Loader.sizeof(nested.getClass()), what + " size");
                } else {
                    fail("unexpected accessor type " + type + " for " + what);
                }
            }
        }
    }

    @Test
    void settersWriteExactlyTheirCMemberBytes() throws Exception {
        TreeSet<String> untested = new TreeSet<>();
        for (String struct : javaStructClasses()) {
            for (Method method : structClass(struct).getDeclaredMethods()) {
                if (isSetter(method)) {
                    untested.add(struct + "." + method.getName());
                }
            }
        }
        assertTrue(untested.size() > 80, "setters found: " + untested.size());
        for (Field field : cFields()) {
            Class<? extends Pointer> cls = structClass(field.struct());
            Method setter = setter(cls, field.accessor());
            if (setter == null) {
                continue;
            }
            untested.remove(field.struct() + "." + field.accessor());
            String what = field.struct() + "." + field.accessor();
            try (BytePointer memory = zeroed(HeaderValues.sizeOf(field.struct()));
                    BytePointer target = zeroed(8)) {
                Pointer struct = cls.getConstructor(Pointer.class).newInstance(memory);
                Class<?> type = setter.getParameterTypes()[setter.getParameterCount() - 1];
                long expectedBits;
                if (type == int.class) {
                    setter.invoke(struct, -1);
                    expectedBits = -1L;
                } else if (type == long.class) {
                    setter.invoke(struct, -1L);
                    expectedBits = -1L;
                } else if (type == byte.class) {
                    setter.invoke(struct, (int) field.size() - 1, (byte) -1);
                    assertEquals((byte) -1, memory.get(field.offset() + field.size() - 1), what);
                    assertOnlyBytesSet(memory, field.offset() + field.size() - 1, 1, what);
                    continue;
                } else {
                    setter.invoke(struct, type.getConstructor(Pointer.class).newInstance(target));
                    expectedBits = target.address();
                }
                long mask = field.size() == 8 ? -1L : (1L << (8 * field.size())) - 1;
                assertEquals(expectedBits & mask, littleEndian(memory, field.offset(), field.size()), what);
                assertOnlyBytesSet(memory, field.offset(), field.size(), what);
            }
        }
        assertEquals(new TreeSet<String>(), untested, "setters without a C member");
    }

    @Test
    void arrayElementsAreSpacedBySizeof() {
        try (ibv_wc completions = new ibv_wc(4); ibv_sge sges = new ibv_sge(3)) {
            assertEquals(completions.address() + 2 * 48, completions.getPointer(2).address());
            assertEquals(sges.address() + 16, sges.getPointer(1).address());
            assertEquals(0L, completions.position(3).wr_id(), "allocated arrays start zeroed");
        }
    }

    /** The top-level ibv_* classes compiled into the binding's package. */
    private static TreeSet<String> javaStructClasses() throws Exception {
        TreeSet<String> names = new TreeSet<>();
        Path folder = Path.of(ibv_wc.class.getResource("ibv_wc.class").toURI()).getParent();
        try (Stream<Path> files = Files.list(folder)) {
            files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("ibv_") && name.endsWith(".class") && !name.contains("$"))
                    .forEach(name -> names.add(name.substring(0, name.length() - ".class".length())));
        }
        return names;
    }

    /** {@code T name()}, or {@code T name(int i)} for array members. */
    private static boolean isGetter(Method method) {
        return Modifier.isNative(method.getModifiers()) && Modifier.isPublic(method.getModifiers())
                && (method.getParameterCount() == 0
                        || method.getParameterCount() == 1 && method.getParameterTypes()[0] == int.class
                                && method.getReturnType().isPrimitive());
    }

    /** {@code Struct name(T value)}, or {@code Struct name(int i, T value)} for array members. */
    private static boolean isSetter(Method method) {
        return Modifier.isNative(method.getModifiers()) && Modifier.isPublic(method.getModifiers())
                && method.getReturnType() == method.getDeclaringClass() && method.getParameterCount() > 0;
    }

    private static Method getter(Field field) throws Exception {
        for (Method method : structClass(field.struct()).getDeclaredMethods()) {
            if (method.getName().equals(field.accessor()) && isGetter(method)) {
                return method;
            }
        }
        throw new AssertionError("no getter " + field);
    }

    private static Method setter(Class<? extends Pointer> cls, String accessor) {
        for (Method method : cls.getDeclaredMethods()) {
            if (method.getName().equals(accessor) && isSetter(method)) {
                return method;
            }
        }
        return null;
    }

    private static BytePointer zeroed(long size) {
        BytePointer memory = new BytePointer(size);
        memory.zero();
        return memory;
    }

    /** Distinct bytes with the high bit set, so sign extension and neighbour bytes would show. */
    private static void fillPattern(BytePointer memory) {
        for (long i = 0; i < memory.capacity(); i++) {
            memory.put(i, (byte) (0x81 + i));
        }
    }

    private static long littleEndian(BytePointer memory, long offset, long size) {
        long value = 0;
        for (long i = size - 1; i >= 0; i--) {
            value = value << 8 | (memory.get(offset + i) & 0xff);
        }
        return value;
    }

    private static void putLittleEndian(BytePointer memory, long offset, int size, long value) {
        for (int i = 0; i < size; i++) {
            memory.put(offset + i, (byte) (value >>> (8 * i)));
        }
    }

    private static void assertOnlyBytesSet(BytePointer memory, long offset, long size, String what) {
        for (long i = 0; i < memory.capacity(); i++) {
            if (i < offset || i >= offset + size) {
                assertEquals(0, memory.get(i), what + " must not touch byte " + i);
            }
        }
    }
}

package dev.verbs4j.conformance.agent;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Values as they cross the agent's control channel, tagged and big-endian: primitives,
 * strings, enums, sets, lists, optionals, durations, arrays, records and the API's mutable
 * value classes (work requests, completions, attributes: every field, so an out-parameter
 * comes back whole). Resources and memory are the two sides' business ({@link Peer}): a
 * handle for a resource, a shared mapping for memory.
 */
final class Codec {
    /** How one side names what does not cross as a value. */
    interface Peer {
        void writeResource(DataOutputStream out, Object resource, Class<?> type) throws IOException;

        Object readResource(DataInputStream in) throws IOException;

        void writeSegment(DataOutputStream out, MemorySegment segment) throws IOException;

        MemorySegment readSegment(DataInputStream in) throws IOException;
    }

    private static final int NULL = 0;
    private static final int BOOLEAN = 1;
    private static final int BYTE = 2;
    private static final int SHORT = 3;
    private static final int CHAR = 4;
    private static final int INT = 5;
    private static final int LONG = 6;
    private static final int FLOAT = 7;
    private static final int DOUBLE = 8;
    private static final int STRING = 9;
    private static final int ENUM = 10;
    private static final int SET = 11;
    private static final int LIST = 12;
    private static final int OPTIONAL = 13;
    private static final int DURATION = 14;
    private static final int ARRAY = 15;
    private static final int RESOURCE = 16;
    private static final int SEGMENT = 17;
    private static final int RECORD = 18;
    private static final int OBJECT = 19;
    /** The value is the call's argument of that index (a method that returns its out-parameter). */
    private static final int ARGUMENT = 20;
    /** A socket address: the IP address's bytes and the port. */
    private static final int SOCKET_ADDRESS = 21;

    /** Only the API's own classes cross field by field. */
    private static final String API_PACKAGE = "dev.verbs4j.";
    private static final Map<Class<?>, Field[]> FIELDS = new ConcurrentHashMap<>();
    private static final Map<Class<?>, RecordShape> RECORDS = new ConcurrentHashMap<>();
    private static final Map<String, Class<?>> CLASSES = new ConcurrentHashMap<>();

    private final Peer peer;

    Codec(Peer peer) {
        this.peer = peer;
    }

    /** Writes {@code value}; one of {@code arguments} (may be null) is written as a reference to it. */
    void write(DataOutputStream out, Object value, Object[] arguments) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
            return;
        }
        if (arguments != null) {
            for (int i = 0; i < arguments.length; i++) {
                if (arguments[i] == value && !isImmutable(value)) {
                    out.writeByte(ARGUMENT);
                    out.writeInt(i);
                    return;
                }
            }
        }
        Class<?> resource = RemoteTypes.interfaceOf(value);
        if (resource != null) {
            out.writeByte(RESOURCE);
            peer.writeResource(out, value, resource);
        } else if (value instanceof MemorySegment segment) {
            out.writeByte(SEGMENT);
            peer.writeSegment(out, segment);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else if (value instanceof Byte b) {
            out.writeByte(BYTE);
            out.writeByte(b);
        } else if (value instanceof Short s) {
            out.writeByte(SHORT);
            out.writeShort(s);
        } else if (value instanceof Character c) {
            out.writeByte(CHAR);
            out.writeChar(c);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeFloat(f);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (value instanceof String s) {
            out.writeByte(STRING);
            out.writeUTF(s);
        } else if (value instanceof Enum<?> e) {
            out.writeByte(ENUM);
            out.writeUTF(e.getDeclaringClass().getName());
            out.writeUTF(e.name());
        } else if (value instanceof Set<?> set) {
            out.writeByte(SET);
            writeAll(out, set);
        } else if (value instanceof List<?> list) {
            out.writeByte(LIST);
            writeAll(out, list);
        } else if (value instanceof Optional<?> optional) {
            out.writeByte(OPTIONAL);
            write(out, optional.orElse(null), null);
        } else if (value instanceof java.net.InetSocketAddress a && !a.isUnresolved()) {
            out.writeByte(SOCKET_ADDRESS);
            byte[] raw = a.getAddress().getAddress();
            out.writeByte(raw.length);
            out.write(raw);
            out.writeShort(a.getPort());
        } else if (value instanceof Duration d) {
            out.writeByte(DURATION);
            out.writeLong(d.getSeconds());
            out.writeInt(d.getNano());
        } else if (value.getClass().isArray()) {
            out.writeByte(ARRAY);
            out.writeUTF(value.getClass().getName());
            int length = Array.getLength(value);
            out.writeInt(length);
            for (int i = 0; i < length; i++) {
                write(out, Array.get(value, i), null);
            }
        } else if (value instanceof Record) {
            out.writeByte(RECORD);
            out.writeUTF(value.getClass().getName());
            for (Method accessor : RecordShape.of(value.getClass()).accessors()) {
                write(out, invoke(accessor, value), null);
            }
        } else if (value.getClass().getName().startsWith(API_PACKAGE)) {
            out.writeByte(OBJECT);
            out.writeUTF(value.getClass().getName());
            for (Field f : fields(value.getClass())) {
                write(out, get(f, value), null);
            }
        } else {
            throw new IllegalArgumentException("the agent's control channel cannot carry a " + value.getClass().getName());
        }
    }

    private void writeAll(DataOutputStream out, Collection<?> values) throws IOException {
        out.writeInt(values.size());
        for (Object v : values) {
            write(out, v, null);
        }
    }

    /**
     * Reads a value written by {@link #write}; {@code expected} (a declared type, may be
     * null) decides the kind of an empty set, {@code arguments} resolves argument references.
     */
    Object read(DataInputStream in, Type expected, Object[] arguments) throws IOException {
        int tag = in.readByte();
        return switch (tag) {
            case NULL -> null;
            case ARGUMENT -> arguments[in.readInt()];
            case RESOURCE -> peer.readResource(in);
            case SEGMENT -> peer.readSegment(in);
            case BOOLEAN -> in.readBoolean();
            case BYTE -> in.readByte();
            case SHORT -> in.readShort();
            case CHAR -> in.readChar();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> in.readFloat();
            case DOUBLE -> in.readDouble();
            case STRING -> in.readUTF();
            case ENUM -> enumValue(in.readUTF(), in.readUTF());
            case SET -> readSet(in, expected);
            case LIST -> {
                int n = in.readInt();
                List<Object> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    list.add(read(in, null, null));
                }
                yield list;
            }
            case OPTIONAL -> Optional.ofNullable(read(in, null, null));
            case DURATION -> Duration.ofSeconds(in.readLong(), in.readInt());
            case SOCKET_ADDRESS -> {
                byte[] raw = new byte[in.readUnsignedByte()];
                in.readFully(raw);
                yield new java.net.InetSocketAddress(java.net.InetAddress.getByAddress(raw), in.readUnsignedShort());
            }
            case ARRAY -> {
                Class<?> type = type(in.readUTF());
                int n = in.readInt();
                Object array = Array.newInstance(type.getComponentType(), n);
                for (int i = 0; i < n; i++) {
                    Array.set(array, i, read(in, type.getComponentType(), null));
                }
                yield array;
            }
            case RECORD -> readRecord(in, type(in.readUTF()));
            case OBJECT -> readObject(in, type(in.readUTF()));
            default -> throw new IOException("unknown value tag " + tag + " on the agent's control channel");
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object readSet(DataInputStream in, Type expected) throws IOException {
        int n = in.readInt();
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(read(in, null, null));
        }
        Class<?> element = !values.isEmpty() ? values.getFirst().getClass() : elementType(expected);
        if (element != null && element.isEnum()) {
            EnumSet set = EnumSet.noneOf((Class<Enum>) element);
            set.addAll(values);
            return set;
        }
        if (element != null && element.getSuperclass() != null && element.getSuperclass().isEnum()) {
            // An enum constant with a body is an anonymous subclass of its enum.
            EnumSet set = EnumSet.noneOf((Class<Enum>) element.getSuperclass());
            set.addAll(values);
            return set;
        }
        return new HashSet<>(values);
    }

    private static Class<?> elementType(Type expected) {
        if (expected instanceof ParameterizedType p && p.getActualTypeArguments().length == 1
                && p.getActualTypeArguments()[0] instanceof Class<?> c) {
            return c;
        }
        return null;
    }

    private Object readRecord(DataInputStream in, Class<?> type) throws IOException {
        RecordShape shape = RecordShape.of(type);
        Object[] values = new Object[shape.types().length];
        for (int i = 0; i < values.length; i++) {
            values[i] = read(in, shape.types()[i], null);
        }
        try {
            return shape.canonical().newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot rebuild a " + type.getName(), e);
        }
    }

    /**
     * A record class as the codec uses it, found once per class: each reflective lookup
     * returns new objects, and a new {@link Method} builds its invoker anew on its first call,
     * which costs more than the rest of a call on the channel.
     */
    record RecordShape(Method[] accessors, Type[] types, Constructor<?> canonical) {
        static RecordShape of(Class<?> type) {
            return RECORDS.computeIfAbsent(type, RecordShape::find);
        }

        private static RecordShape find(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            Method[] accessors = new Method[components.length];
            Type[] types = new Type[components.length];
            Class<?>[] erased = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                accessors[i] = components[i].getAccessor();
                accessors[i].setAccessible(true);
                types[i] = components[i].getGenericType();
                erased[i] = components[i].getType();
            }
            try {
                Constructor<?> canonical = type.getDeclaredConstructor(erased);
                canonical.setAccessible(true);
                return new RecordShape(accessors, types, canonical);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("a record without its canonical constructor: " + type.getName(), e);
            }
        }
    }

    private Object readObject(DataInputStream in, Class<?> type) throws IOException {
        Object value = Instances.allocate(type);
        for (Field f : fields(type)) {
            set(f, value, read(in, f.getGenericType(), null));
        }
        return value;
    }

    /**
     * Makes {@code target} hold what {@code source} holds: the fields of an API value object
     * (arrays filled in place), or the elements of an array, recursively.
     */
    static void copyInto(Object target, Object source) {
        if (target == null || source == null || target == source) {
            return;
        }
        if (target.getClass().isArray()) {
            int n = Math.min(Array.getLength(target), Array.getLength(source));
            boolean values = !target.getClass().getComponentType().isPrimitive();
            for (int i = 0; i < n; i++) {
                Object t = Array.get(target, i);
                Object s = Array.get(source, i);
                if (values && t != null && isMutableValue(t)) {
                    copyInto(t, s);
                } else {
                    Array.set(target, i, s);
                }
            }
            return;
        }
        for (Field f : fields(target.getClass())) {
            Object t = get(f, target);
            Object s = get(f, source);
            if (t != null && s != null && (t.getClass().isArray() || isMutableValue(t))) {
                if (t.getClass().isArray() && Array.getLength(t) != Array.getLength(s)) {
                    set(f, target, s);
                } else {
                    copyInto(t, s);
                }
            } else {
                set(f, target, s);
            }
        }
    }

    /** An argument whose state the callee may change: an array, or an API class that is neither record nor resource. */
    static boolean isOutParameter(Object value) {
        return value != null && (value.getClass().isArray() || isMutableValue(value));
    }

    private static boolean isMutableValue(Object value) {
        return value.getClass().getName().startsWith(API_PACKAGE) && !(value instanceof Record) && !(value instanceof Enum<?>)
                && RemoteTypes.interfaceOf(value) == null;
    }

    private static boolean isImmutable(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean || value instanceof Enum<?>
                || value instanceof Record || value instanceof Character || value instanceof java.net.InetSocketAddress;
    }

    static Field[] fields(Class<?> type) {
        return FIELDS.computeIfAbsent(type, t -> {
            List<Field> all = new ArrayList<>();
            for (Class<?> c = t; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        f.setAccessible(true);
                        all.add(f);
                    }
                }
            }
            Field[] sorted = all.toArray(new Field[0]);
            Arrays.sort(sorted, Comparator.comparing((Field f) -> f.getDeclaringClass().getName()).thenComparing(Field::getName));
            return sorted;
        });
    }

    static Object get(Field f, Object target) {
        try {
            return f.get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void set(Field f, Object target, Object value) {
        try {
            f.set(target, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot set " + f, e);
        }
    }

    static Object invoke(Method accessor, Object record) {
        try {
            return accessor.invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(String type, String name) throws IOException {
        return Enum.valueOf((Class<Enum>) type(type), name);
    }

    static Class<?> type(String name) throws IOException {
        Class<?> known = CLASSES.get(name);
        if (known != null) {
            return known;
        }
        try {
            Class<?> c = Class.forName(name, false, Codec.class.getClassLoader());
            CLASSES.put(name, c);
            return c;
        } catch (ClassNotFoundException e) {
            throw new IOException("unknown class " + name + " on the agent's control channel", e);
        }
    }
}

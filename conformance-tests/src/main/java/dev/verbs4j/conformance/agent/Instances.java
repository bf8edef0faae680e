package dev.verbs4j.conformance.agent;

import java.lang.reflect.Field;

/**
 * New instances of the API's value classes without running a constructor: the fields are
 * set from what crossed the channel right after, and some classes (a scatter/gather list)
 * have no constructor without arguments.
 */
final class Instances {
    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private Instances() {
    }

    static Object allocate(Class<?> type) {
        try {
            return UNSAFE.allocateInstance(type);
        } catch (InstantiationException e) {
            throw new IllegalStateException("cannot make a " + type.getName(), e);
        }
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}

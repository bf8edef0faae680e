package dev.verbs4j.conformance.agent;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The few C library calls shared memory needs: open a file, size it, and map it at an
 * address chosen by the caller ({@code MAP_FIXED} inside a reservation of our own). The
 * numbers are Linux's, the same on x86-64 and AArch64.
 */
final class Posix {
    static final int PROT_NONE = 0;
    static final int PROT_READ_WRITE = 1 | 2;
    static final int MAP_SHARED = 0x01;
    static final int MAP_PRIVATE = 0x02;
    static final int MAP_FIXED = 0x10;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_NORESERVE = 0x4000;
    /** Like MAP_FIXED, but fails with EEXIST instead of replacing a mapping that is there. */
    static final int MAP_FIXED_NOREPLACE = 0x100000;
    static final int O_RDWR = 2;
    static final int O_CREAT = 0100;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle OPEN = handle("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle FTRUNCATE = handle("ftruncate",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle MMAP = handle("mmap", FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MUNMAP = handle("munmap",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));

    private Posix() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    /** Opens {@code path} read-write, creating it when {@code create}; returns the descriptor. */
    static int open(String path, boolean create) {
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(path), O_RDWR | (create ? O_CREAT : 0), 0600);
            if (fd < 0) {
                throw new IllegalStateException("cannot open " + path);
            }
            return fd;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void truncate(int fd, long length) {
        check(call(() -> (int) FTRUNCATE.invokeExact(fd, length)), "ftruncate");
    }

    static void close(int fd) {
        call(() -> (int) CLOSE.invokeExact(fd));
    }

    /** {@code mmap}; returns the address, or -1 ({@code MAP_FAILED}). */
    static long mmap(long address, long length, int protection, int flags, int fd, long offset) {
        try {
            return (long) MMAP.invokeExact(address, length, protection, flags, fd, offset);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void munmap(long address, long length) {
        check(call(() -> (int) MUNMAP.invokeExact(address, length)), "munmap");
    }

    /** Puts {@code length} bytes at {@code address} back to inaccessible, reserved address space. */
    static void reserve(long address, long length) {
        long at = mmap(address, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
        if (at != address) {
            throw new IllegalStateException("cannot reserve " + length + " bytes at 0x" + Long.toHexString(address));
        }
    }

    /** A segment over {@code length} bytes at {@code address}, valid as long as the caller keeps the mapping. */
    static MemorySegment at(long address, long length) {
        return MemorySegment.ofAddress(address).reinterpret(length);
    }

    private interface IntCall {
        int call() throws Throwable;
    }

    private static int call(IntCall c) {
        try {
            return c.call();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void check(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " failed");
        }
    }
}

package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/** pipe(2), write(2), close(2) and fcntl(F_GETFL) for the descriptor tests. */
@Properties(inherit = TestLibrary.class)
@NoException
final class PosixForTests {
    static {
        Loader.load();
    }

    private PosixForTests() {
    }

    @MemberGetter
    static native int O_NONBLOCK();

    @MemberGetter
    static native int F_GETFL();

    @MemberGetter
    static native int EBADF();

    static native int pipe(int[] fds);

    static native @Cast("ssize_t") long write(int fd, @Cast("const void*") byte[] buffer, @Cast("size_t") long count);

    static native int close(int fd);

    static native int fcntl(int fd, int cmd);
}

package dev.verbs4j.ibverbs.binding;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The JNI library of the binding and what it knows about the libibverbs it
 * was compiled against and the one it runs with.
 *
 * <p>Every class of this package inherits these platform properties, so
 * JavaCPP compiles all of them into one library,
 * {@code libjniverbs4j_ibverbs.so}, packaged under
 * {@code dev/verbs4j/ibverbs/binding/linux-x86_64/} in the platform jar
 * (classifier {@code linux-x86_64}, beside the classes-only main jar) and
 * loaded by {@link Loader} on first use of any class here.
 *
 * <p>Headers and run time may differ: the binding is compiled against
 * rdma-core &ge; 45 headers (for RDMA FLUSH) but links against
 * {@code libibverbs.so.1}, which may be older. Structures that libibverbs
 * fills with a size argument ({@code ibv_query_port},
 * {@code ibv_query_device_ex}, {@code ibv_query_gid_ex}) are safe across
 * versions: an older library leaves newer fields zero. One is not:
 * {@code struct ibv_qp_ex} in rdma-core 44 ends at {@code wr_atomic_write},
 * so {@link PostSendVerbs#ibv_wr_flush} would call through a member that an
 * older provider never wrote. Call it only when {@link #runtimeKnowsFlush()}
 * holds and the queue pair was created with
 * {@link IbverbsConstants#IBV_QP_EX_WITH_FLUSH} (providers validate
 * send_ops_flags against what they implement, so a provider without FLUSH
 * fails that creation).
 */
@Properties(value = @Platform(
        value = "linux",
        compiler = "cpp17",
        include = "verbs4j_ibverbs.h",
        link = "ibverbs@.1",
        library = "jniverbs4j_ibverbs"))
@NoException
public final class IbverbsLibrary {
    static {
        Loader.load();
    }

    /** The first rdma-core release whose {@code struct ibv_qp_ex} has {@code wr_flush}. */
    public static final int FIRST_RELEASE_WITH_FLUSH = 45;

    private static final Pattern RELEASE_IN_FILE_NAME =
            Pattern.compile("libibverbs\\.so\\.\\d+\\.\\d+\\.(\\d+)\\.\\d+$");

    private IbverbsLibrary() {
    }

    /** Loads the JNI library (and libibverbs.so.1) if no class of the binding has done it yet. */
    public static void load() {
        // The static initializer does the work.
    }

    /**
     * The libibverbs-dev headers the JNI library was compiled against, e.g.
     * {@code "libibverbs-dev 65.0-1.1 (unpacked, not installed)"}.
     */
    @MemberGetter
    @Name("VERBS4J_IBVERBS_HEADERS")
    public static native @Cast("const char*") String headersVersion();

    /**
     * The file (symlinks resolved) of the libibverbs the JNI library is
     * bound to at run time, or null if the dynamic linker cannot tell.
     */
    @Name("verbs4j::runtime_library_path")
    public static native @Cast("const char*") String runtimeLibraryPath();

    /**
     * The rdma-core release of the libibverbs in use, read from its file
     * name ({@code libibverbs.so.1.<abi>.<release>.<patch>}, as rdma-core's
     * build names it), or -1 when the name does not follow that pattern.
     */
    public static int runtimeReleaseMajor() {
        return releaseMajorOf(runtimeLibraryPath());
    }

    static int releaseMajorOf(String libraryPath) {
        if (libraryPath == null) {
            return -1;
        }
        Matcher matcher = RELEASE_IN_FILE_NAME.matcher(libraryPath);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
    }

    /**
     * Whether the libibverbs in use knows {@code wr_flush}. A false answer
     * means {@link PostSendVerbs#ibv_wr_flush} must not be called; a true
     * one still needs a queue pair created with
     * {@link IbverbsConstants#IBV_QP_EX_WITH_FLUSH}.
     */
    public static boolean runtimeKnowsFlush() {
        return runtimeReleaseMajor() >= FIRST_RELEASE_WITH_FLUSH;
    }
}

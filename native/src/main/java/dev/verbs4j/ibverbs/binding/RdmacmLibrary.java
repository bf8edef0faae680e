package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The JNI library of the connection-manager binding ({@code libjniverbs4j_rdmacm.so}),
 * separate from {@link IbverbsLibrary}'s so that the verbs binding loads where librdmacm
 * is missing. It is compiled against rdma-core's {@code rdma/rdma_cma.h} (see
 * {@code scripts/prepare-ibverbs-headers.sh}) and linked by file name against the
 * system's {@code librdmacm.so.1}, which Debian's librdmacm1 ships without the
 * unversioned {@code librdmacm.so}. The classes {@link CmVerbs}, {@link rdma_cm_id},
 * {@link rdma_event_channel} and {@link cm_event_copy} inherit these properties.
 *
 * <p>The first use of any of them loads the library, and with it librdmacm; where that
 * fails, the use throws an {@link UnsatisfiedLinkError} (or a {@link NoClassDefFoundError}
 * on later tries), which callers turn into an error of their own.
 */
@Properties(value = @Platform(
        value = "linux",
        compiler = "cpp17",
        include = "verbs4j_rdmacm.h",
        link = ":librdmacm.so.1",
        library = "jniverbs4j_rdmacm"))
@NoException
public final class RdmacmLibrary {
    static {
        Loader.load();
    }

    private RdmacmLibrary() {
    }

    /** Loads the JNI library (and librdmacm.so.1) if no class of the connection-manager binding has done it yet. */
    public static void load() {
        // The static initializer does the work.
    }
}

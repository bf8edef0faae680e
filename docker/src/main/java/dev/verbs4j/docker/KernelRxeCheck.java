package dev.verbs4j.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether the kernel a container would share can give it a Soft-RoCE device.
 * <p>
 * A container has no kernel of its own: {@code rdma link add ... type rxe} inside it
 * reaches the host's RDMA netlink and needs the host's {@code rdma_rxe} driver. The
 * image loads no modules (it has neither the host's {@code /lib/modules} nor the right
 * to), so the driver must already be loaded on the host, or built into its kernel.
 * A module that is installed but not loaded is reported with the command that loads it.
 */
public final class KernelRxeCheck {
    static final String MODULE = "rdma_rxe";
    /** A path in modules.dep or modules.builtin, e.g. {@code kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.zst:}. */
    private static final Pattern MODULE_ENTRY = Pattern.compile("(^|/)" + MODULE + "\\.ko(\\.[a-z]+)?(:.*)?$");

    private KernelRxeCheck() {
    }

    /** Checks the kernel this JVM runs on ({@code /sys}, {@code /lib/modules}). */
    public static HostCheck onThisHost() {
        return check(Path.of("/sys"), Path.of("/lib/modules"), System.getProperty("os.version"));
    }

    /**
     * Checks a kernel described by its sysfs and modules folders.
     *
     * @param sysRoot     where sysfs is mounted ({@code /sys}); a loaded module has {@code module/rdma_rxe} there
     * @param modulesRoot the modules folder ({@code /lib/modules}), holding {@code <release>/modules.dep} and
     *                    {@code <release>/modules.builtin}
     * @param release     the kernel release ({@code uname -r})
     */
    public static HostCheck check(Path sysRoot, Path modulesRoot, String release) {
        if (Files.isDirectory(sysRoot.resolve("module").resolve(MODULE))) {
            return HostCheck.ready(MODULE + " is loaded in kernel " + release);
        }
        Path releaseModules = modulesRoot.resolve(release);
        if (lists(releaseModules.resolve("modules.builtin"))) {
            return HostCheck.ready(MODULE + " is built into kernel " + release);
        }
        if (lists(releaseModules.resolve("modules.dep"))) {
            return HostCheck.notReady("kernel " + release + " has " + MODULE + " but it is not loaded; load it on the host with"
                    + " 'sudo modprobe " + MODULE + "' (a container cannot load it)");
        }
        return HostCheck.notReady("kernel " + release + " has no " + MODULE + " (not loaded, not built in, not under "
                + releaseModules + "); install the kernel's extra modules (Ubuntu: 'sudo apt-get install"
                + " linux-modules-extra-" + release + "') and run 'sudo modprobe " + MODULE + "'");
    }

    private static boolean lists(Path index) {
        if (!Files.isRegularFile(index)) {
            return false;
        }
        try (Stream<String> lines = Files.lines(index)) {
            return lines.anyMatch(line -> MODULE_ENTRY.matcher(line.strip().split("\\s", 2)[0]).find());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + index, e);
        }
    }
}

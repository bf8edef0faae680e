package dev.verbs4j.docker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelRxeCheckTest {
    private static final String RELEASE = "6.8.0-1021-azure";

    @TempDir
    Path sys;
    @TempDir
    Path modules;

    @Test
    void readyWhenTheModuleIsLoaded() throws IOException {
        Files.createDirectories(sys.resolve("module/rdma_rxe"));

        HostCheck check = KernelRxeCheck.check(sys, modules, RELEASE);

        assertTrue(check.ready(), check.detail());
        assertTrue(check.detail().contains("loaded"), check.detail());
    }

    @Test
    void readyWhenTheModuleIsBuiltIntoTheKernel() throws IOException {
        index("modules.builtin", "kernel/drivers/infiniband/core/ib_core.ko\nkernel/drivers/infiniband/sw/rxe/rdma_rxe.ko\n");

        HostCheck check = KernelRxeCheck.check(sys, modules, RELEASE);

        assertTrue(check.ready(), check.detail());
        assertTrue(check.detail().contains("built into"), check.detail());
    }

    @Test
    void notReadyButTellsHowToLoadAnInstalledModule() throws IOException {
        index("modules.dep", "kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.zst: kernel/drivers/infiniband/core/ib_uverbs.ko.zst\n");

        HostCheck check = KernelRxeCheck.check(sys, modules, RELEASE);

        assertFalse(check.ready());
        assertTrue(check.detail().contains("sudo modprobe rdma_rxe"), check.detail());
        assertTrue(check.detail().contains("not loaded"), check.detail());
    }

    @Test
    void notReadyWhenOnlyAnotherModuleDependsOnAnRxeNamedFile() throws IOException {
        // Only the first field of a modules.dep line is the module itself.
        index("modules.dep", "kernel/drivers/infiniband/core/ib_core.ko: kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko\n"
                + "kernel/drivers/infiniband/sw/rxe/rdma_rxe_extra.ko:\n");

        HostCheck check = KernelRxeCheck.check(sys, modules, RELEASE);

        assertFalse(check.ready());
        assertTrue(check.detail().contains("has no rdma_rxe"), check.detail());
    }

    @Test
    void notReadyWhenTheKernelHasNoRxeAtAll() {
        HostCheck check = KernelRxeCheck.check(sys, modules, RELEASE);

        assertFalse(check.ready());
        assertTrue(check.detail().contains("kernel " + RELEASE + " has no rdma_rxe"), check.detail());
        assertTrue(check.detail().contains("linux-modules-extra-" + RELEASE), check.detail());
    }

    private void index(String name, String content) throws IOException {
        Path dir = Files.createDirectories(modules.resolve(RELEASE));
        Files.writeString(dir.resolve(name), content);
    }
}

package dev.verbs4j.docker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RxeNamespaceCheckTest {
    @TempDir
    Path dir;

    @Test
    void readyWhenTheDriverListsItsPerNamespaceSocketLookup() throws IOException {
        Path kallsyms = write("0000000000000000 t rxe_net_add\t[rdma_rxe]\n"
                + "0000000000000000 t rxe_ns_pernet_sk4\t[rdma_rxe]\n0000000000000000 T udp_sock_create4\n");

        HostCheck check = RxeNamespaceCheck.check(kallsyms, "7.3.4+deb14-amd64");

        assertTrue(check.ready(), check.detail());
    }

    @Test
    void notReadyOnADriverWithOneSocketForTheWholeHost() throws IOException {
        // 6.12's rdma_rxe: rxe_net_add and its socket, no per-namespace lookup; a longer name is not the symbol.
        Path kallsyms = write("0000000000000000 t rxe_net_add\t[rdma_rxe]\n"
                + "0000000000000000 t rxe_ns_pernet_sk4_other\t[rdma_rxe]\n0000000000000000 T udp_sock_create4\n");

        HostCheck check = RxeNamespaceCheck.check(kallsyms, "6.12.117+deb13-amd64");

        assertFalse(check.ready());
        assertTrue(check.detail().contains("host network"), check.detail());
        assertTrue(check.detail().contains("6.12.117"), check.detail());
    }

    @Test
    void notReadyWhenTheSymbolListCannotBeRead() {
        HostCheck check = RxeNamespaceCheck.check(dir.resolve("missing"), "7.3.4");

        assertFalse(check.ready());
        assertTrue(check.detail().contains("cannot read"), check.detail());
    }

    private Path write(String text) throws IOException {
        Path file = dir.resolve("kallsyms");
        Files.writeString(file, text);
        return file;
    }
}

package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.HostOptions;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.Opcodes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Keep-alive deadlines against a clock the test moves: no sleeping. */
class KeepAliveTest {
    private static final int PORT = 4425;
    private static final HostOptions HOST = Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT);

    /** A target whose time is {@code clock}'s, which the test moves. */
    private static Target targetOn(AtomicLong clock) {
        Target target = new Target(Loopback.soft(), Loopback.options(PORT), Loopback.subsystems());
        target.start(clock::get);
        return target;
    }

    /** KATO is an unsigned count of milliseconds: 2^31 ms and more is a long timeout, not one already past. */
    @Test
    void aKeepAliveTimeoutPastTheSignedRangeHoldsTheController() {
        AtomicLong clock = new AtomicLong();
        try (Target target = targetOn(clock); NvmeHost host = NvmeHost.connect(Loopback.soft(), HOST)) {
            host.admin(new Command().opcode(Opcodes.ADMIN_SET_FEATURES).cdw(10, Opcodes.FEATURE_KEEP_ALIVE_TIMER).cdw(11, 0x8000_0000));
            clock.addAndGet(60_000_000_000L);
            assertEquals(0x8000_0000L, host.admin(new Command().opcode(Opcodes.ADMIN_GET_FEATURES)
                    .cdw(10, Opcodes.FEATURE_KEEP_ALIVE_TIMER)).result(), "KATO as set");
            assertEquals(1, target.controllerCount(), "a minute into a timeout of 24 days");
        }
    }

    @Test
    void controllerEndsWhenKeepAliveLapses() {
        AtomicLong clock = new AtomicLong();
        try (Target target = targetOn(clock); NvmeHost host = NvmeHost.connect(Loopback.soft(), HOST)) {
            assertEquals(1, target.controllerCount());
            clock.addAndGet(4_000_000_000L);
            host.admin(new Command().opcode(Opcodes.ADMIN_KEEP_ALIVE));
            clock.addAndGet(4_000_000_000L);
            host.admin(new Command().opcode(Opcodes.ADMIN_KEEP_ALIVE));
            assertEquals(1, target.controllerCount(), "keep-alives 4 s apart hold a 5 s KATO");
            clock.addAndGet(6_000_000_000L);
            long giveUp = System.nanoTime() + 10_000_000_000L;
            while (target.controllerCount() != 0 && System.nanoTime() - giveUp < 0) {
                Thread.onSpinWait();
            }
            assertThrows(NvmeException.class,
                    () -> host.adminQueue().execute(new Command().opcode(Opcodes.ADMIN_KEEP_ALIVE), Duration.ofSeconds(5)));
            assertEquals(0, target.controllerCount());
        }
    }
}

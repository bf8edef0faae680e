package dev.verbs4j.conformance.access;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcEnd;

/**
 * A key issued on the remote side over a {@link GuardedTarget}, with the resources behind
 * it, which it can revoke. The owner is the remote end whose domain holds the key and
 * whose queue pair binds, registers and invalidates it.
 */
abstract class IssuedKey {
    private static final long CONTROL_WR_ID = 0xC0;

    final RcEnd owner;
    Grant grant;

    IssuedKey(RcEnd owner, Grant grant) {
        this.owner = owner;
        this.grant = grant;
    }

    Grant grant() {
        return grant;
    }

    /**
     * Revokes the key; afterwards {@link #grant()} still names the old key, which requests
     * then use. Only the ways {@link KeyKind#cannotBe} allows are asked for.
     */
    abstract void revoke(Revocation how);

    /** Posts LOCAL_INV of {@code key} on the owner and expects it to complete. */
    final void localInvalidate(int key) {
        owner.qp().postSend(new SendWorkRequest().wrId(CONTROL_WR_ID).signaled(true).localInvalidate(key));
        Expect.success(WcOpcode.LOCAL_INV, CONTROL_WR_ID, Completions.next(owner.sendCq(), "the LOCAL_INV"), "LOCAL_INV");
    }

    /** Posts {@code wr} on the owner and expects it to complete with {@code opcode}. */
    final void control(SendWorkRequest wr, WcOpcode opcode, String what) {
        owner.qp().postSend(wr.wrId(CONTROL_WR_ID).signaled(true));
        Expect.success(opcode, CONTROL_WR_ID, Completions.next(owner.sendCq(), what), what);
    }
}

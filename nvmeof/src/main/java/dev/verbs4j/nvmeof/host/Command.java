package dev.verbs4j.nvmeof.host;

import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A command to submit: its 64 bytes as the host means them (the queue sets the command id
 * and the SGL) and the data it moves. Reusable: the queue copies it when it is submitted.
 * The {@code declare...} methods make a command lie about its data, for tests of a
 * controller's checks.
 */
public final class Command {
    final MemorySegment bytes = Arena.ofAuto().allocate(Sqe.BYTES, 8);
    final Sqe sqe = new Sqe().wrap(bytes, 0);
    MemorySegment data;
    boolean toController;
    boolean allowInCapsule = true;
    int declaredSglLength = -1;
    long declaredSglOffset;
    int capsuleLength = -1;
    int flags = Sqe.FLAGS_PSDT_SGL;

    /** Starts over: every field zero, no data. */
    public Command clear() {
        sqe.clear();
        data = null;
        toController = false;
        allowInCapsule = true;
        declaredSglLength = -1;
        declaredSglOffset = 0;
        capsuleLength = -1;
        flags = Sqe.FLAGS_PSDT_SGL;
        return this;
    }

    public Sqe sqe() {
        return sqe;
    }

    public Command opcode(int opcode) {
        sqe.opcode(opcode);
        return this;
    }

    public Command fabrics(int fctype) {
        sqe.opcode(Opcodes.FABRICS).fctype(fctype);
        return this;
    }

    public Command nsid(int nsid) {
        sqe.nsid(nsid);
        return this;
    }

    public Command cdw(int n, int value) {
        sqe.cdw(n, value);
        return this;
    }

    /** The data the controller reads from the host ({@code toController}) or writes into it. */
    public Command data(MemorySegment buffer, boolean toController) {
        this.data = buffer;
        this.toController = toController;
        return this;
    }

    /** Whether the queue may send the data in the capsule when it fits (else always a keyed SGL). */
    public Command allowInCapsule(boolean allow) {
        this.allowInCapsule = allow;
        return this;
    }

    /** Declares an SGL length other than the data's, so the controller reaches past what was registered. */
    public Command declareSglLength(int length) {
        this.declaredSglLength = length;
        return this;
    }

    /** Declares an offset other than 0 for data sent in the capsule, so the controller looks past what was sent. */
    public Command declareSglOffset(long offset) {
        this.declaredSglOffset = offset;
        return this;
    }

    /** Sends only the first {@code bytes} of the capsule. */
    public Command truncateCapsule(int bytes) {
        this.capsuleLength = bytes;
        return this;
    }

    /** Sets the flags byte (PSDT, FUSE) to something other than the fabrics SGL value. */
    public Command flags(int value) {
        this.flags = value;
        return this;
    }

    public static Command read(int nsid, long lba, int blocks, MemorySegment buffer) {
        Command c = new Command();
        c.opcode(Opcodes.IO_READ).nsid(nsid).data(buffer, false);
        c.sqe.startLba(lba).cdw(12, blocks - 1);
        return c;
    }

    public static Command write(int nsid, long lba, int blocks, MemorySegment buffer) {
        Command c = new Command();
        c.opcode(Opcodes.IO_WRITE).nsid(nsid).data(buffer, true);
        c.sqe.startLba(lba).cdw(12, blocks - 1);
        return c;
    }
}

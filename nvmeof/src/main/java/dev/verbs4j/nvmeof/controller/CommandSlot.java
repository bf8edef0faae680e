package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.MemoryRegion;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.nvmeof.wire.Cqe;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.lang.foreign.MemorySegment;

/**
 * One command in the target's hands, from its capsule's arrival until its response is sent:
 * the command's copy, its data buffer, its response, and the two work requests that move
 * them. Made when the queue is, reused for every command.
 */
final class CommandSlot {
    static final int NO_DATA = 0;
    static final int TO_CONTROLLER = 1;
    static final int TO_HOST = 2;

    final int index;
    final MemorySegment command;
    final Sqe sqe = new Sqe();
    final IoBuffer data;
    final MemoryRegion dataRegion;
    final MemorySegment response;
    final Cqe cqe = new Cqe();
    final SendWorkRequest transfer = new SendWorkRequest(1);
    final SendWorkRequest respond = new SendWorkRequest(1);

    int direction;
    int length;
    boolean keyed;
    long remoteAddress;
    int remoteKey;
    boolean invalidate;
    int status;
    long result;

    CommandSlot(int index, MemorySegment command, MemoryRegion dataRegion, MemorySegment response) {
        this.index = index;
        this.command = command;
        this.sqe.wrap(command, 0);
        this.dataRegion = dataRegion;
        this.data = new IoBuffer(dataRegion.memory());
        this.response = response;
        this.cqe.wrap(response, 0);
    }

    void reset() {
        direction = NO_DATA;
        length = 0;
        keyed = false;
        remoteAddress = 0;
        remoteKey = 0;
        invalidate = false;
        status = 0;
        result = 0;
    }

    /** The direction the opcode's bits 1:0 give (fabrics: the fctype's), as NVMe defines them. */
    static int directionOf(int opcodeOrFctype) {
        return switch (opcodeOrFctype & 3) {
            case 1 -> TO_CONTROLLER;
            case 2 -> TO_HOST;
            default -> NO_DATA;
        };
    }
}

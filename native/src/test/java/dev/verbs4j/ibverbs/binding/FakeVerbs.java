package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Pointer;

/**
 * The test harness of this package (the recording fake provider of verbs4j_fake_provider.h,
 * header offsets and a few POSIX calls), opened to the provider adapter's tests in
 * {@code dev.verbs4j.ibverbs}. Objects of a fake device are plain memory: never pass them to
 * libibverbs calls that dispatch through its private ops (destroy, dealloc, query, modify).
 */
public final class FakeVerbs {
    private FakeVerbs() {
    }

    /** A fake device: context, PD, CQ, QP, SRQ, type-1 MW, MR (lkey 0x1111, rkey 0x2222) and AH. */
    public static Pointer newDevice() {
        return FakeProvider.newDevice();
    }

    public static void deleteDevice(Pointer device) {
        FakeProvider.deleteDevice(device);
    }

    public static ibv_context contextOf(Pointer device) {
        return FakeProvider.contextOf(device);
    }

    public static ibv_pd pdOf(Pointer device) {
        return FakeProvider.pdOf(device);
    }

    /** The fake CQ: its poll returns {@link #setNextResult} completions of a fixed pattern. */
    public static ibv_cq cqOf(Pointer device) {
        return FakeProvider.cqOf(device);
    }

    /** The fake QP: its post_recv records the first request and fails with {@link #setNextResult}. */
    public static ibv_qp qpOf(Pointer device) {
        return FakeProvider.qpOf(device);
    }

    public static ibv_srq srqOf(Pointer device) {
        return FakeProvider.srqOf(device);
    }

    public static ibv_mw mwOf(Pointer device) {
        return FakeProvider.mwOf(device);
    }

    public static ibv_mr mrOf(Pointer device) {
        return FakeProvider.mrOf(device);
    }

    public static ibv_ah ahOf(Pointer device) {
        return FakeProvider.ahOf(device);
    }

    /** The fake's completion channel, reading from {@code fd}. */
    public static ibv_comp_channel channelOf(Pointer device, int fd) {
        return FakeProvider.channelOf(device, fd);
    }

    public static void setAsyncFd(Pointer device, int fd) {
        FakeProvider.setAsyncFd(device, fd);
    }

    /** Adds alloc_mw (returns the device's window) and dealloc_mw (returns {@link #setNextResult}). */
    public static void enableWindowOps(Pointer device) {
        FakeProvider.enableWindowOps(device);
    }

    /** A fake extended QP whose every {@code wr_*} call is recorded. */
    public static ibv_qp_ex newQpEx() {
        return FakeProvider.newQpEx();
    }

    public static void deleteQpEx(ibv_qp_ex qp) {
        FakeProvider.deleteQpEx(qp);
    }

    /** Result of the next int-returning fake calls; for polls, the number of completions available. */
    public static void setNextResult(int result) {
        FakeProvider.setNextResult(result);
    }

    public static String lastCall() {
        return FakeProvider.lastCall();
    }

    public static void clearLastCall() {
        FakeProvider.clearLastCall();
    }

    /** Starts logging every recorded call, one per line. */
    public static void startCallLog() {
        FakeProvider.startCallLog();
    }

    /** Stops logging; the calls since {@link #startCallLog()}, each followed by a newline. */
    public static String takeCallLog() {
        return FakeProvider.takeCallLog();
    }

    /** Writes a work completion as a provider would ({@code imm_data} is stored as given). */
    public static void fillWc(ibv_wc wc, long wrId, int status, int opcode, int vendorErr, int byteLen, int immData,
                              int qpNum, int srcQp, int wcFlags, int pkeyIndex) {
        FakeProvider.fillWc(wc, wrId, status, opcode, vendorErr, byteLen, immData, qpNum, srcQp, wcFlags, pkeyIndex);
    }

    /** Device attributes with distinct values, FLUSH/ATOMIC WRITE capability bits and ODP caps. */
    public static void fillDeviceAttrEx(ibv_device_attr_ex attr) {
        FakeProvider.fillDeviceAttrEx(attr);
    }

    /** An active RoCE port: max MTU 4096, active 1024, 16 GIDs. */
    public static void fillPortAttr(ibv_port_attr attr) {
        FakeProvider.fillPortAttr(attr);
    }

    /** {@code pipe(2)}: {read end, write end}. */
    public static int[] pipe() {
        int[] fds = new int[2];
        if (PosixForTests.pipe(fds) != 0) {
            throw new IllegalStateException("pipe(2) failed");
        }
        return fds;
    }

    public static long write(int fd, byte[] bytes) {
        return PosixForTests.write(fd, bytes, bytes.length);
    }

    public static int close(int fd) {
        return PosixForTests.close(fd);
    }

    /** {@code EBADF} as the C library defines it. */
    public static int ebadf() {
        return PosixForTests.EBADF();
    }
}

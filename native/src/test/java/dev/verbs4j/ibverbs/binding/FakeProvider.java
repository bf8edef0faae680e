package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/** The fake provider of verbs4j_fake_provider.h: objects whose calls record their arguments. */
@Properties(inherit = TestLibrary.class)
@NoException
final class FakeProvider {
    static {
        Loader.load();
    }

    private FakeProvider() {
    }

    /** The last recorded call, as text. */
    @Name("verbs4j_test::take_last_call")
    static native @Cast("const char*") String lastCall();

    @Name("verbs4j_test::clear_last_call")
    static native void clearLastCall();

    /** Result of the next int-returning fake calls; for polls, the number of completions available. */
    @Name("verbs4j_test::set_next_result")
    static native void setNextResult(int result);

    @Name("verbs4j_test::new_fake_qp_ex")
    static native ibv_qp_ex newQpEx();

    @Name("verbs4j_test::delete_fake_qp_ex")
    static native void deleteQpEx(ibv_qp_ex qp);

    @Name("verbs4j_test::new_fake_cq_ex")
    static native ibv_cq_ex newCqEx();

    @Name("verbs4j_test::delete_fake_cq_ex")
    static native void deleteCqEx(ibv_cq_ex cq);

    @Name("verbs4j_test::new_fake_device")
    static native @Cast("verbs4j_test::fake_device*") Pointer newDevice();

    @Name("verbs4j_test::delete_fake_device")
    static native void deleteDevice(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::context_of")
    static native ibv_context contextOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::pd_of")
    static native ibv_pd pdOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::cq_of")
    static native ibv_cq cqOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::qp_of")
    static native ibv_qp qpOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::srq_of")
    static native ibv_srq srqOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::mw_of")
    static native ibv_mw mwOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    // ---- additions for the provider adapter's tests ----

    /** Starts logging every recorded call, one per line. */
    @Name("verbs4j_test::start_call_log")
    static native void startCallLog();

    /** Stops logging and returns the calls logged since {@link #startCallLog()}. */
    @Name("verbs4j_test::take_call_log")
    static native @Cast("const char*") String takeCallLog();

    @Name("verbs4j_test::mr_of")
    static native ibv_mr mrOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::ah_of")
    static native ibv_ah ahOf(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::channel_of")
    static native ibv_comp_channel channelOf(@Cast("verbs4j_test::fake_device*") Pointer device, int fd);

    @Name("verbs4j_test::set_async_fd")
    static native void setAsyncFd(@Cast("verbs4j_test::fake_device*") Pointer device, int fd);

    @Name("verbs4j_test::enable_window_ops")
    static native void enableWindowOps(@Cast("verbs4j_test::fake_device*") Pointer device);

    @Name("verbs4j_test::fill_wc")
    static native void fillWc(ibv_wc wc, @Cast("uint64_t") long wrId, int status, int opcode,
            @Cast("uint32_t") int vendorErr, @Cast("uint32_t") int byteLen, @Cast("uint32_t") int immData,
            @Cast("uint32_t") int qpNum, @Cast("uint32_t") int srcQp, @Cast("unsigned int") int wcFlags,
            @Cast("uint16_t") int pkeyIndex);

    @Name("verbs4j_test::fill_device_attr_ex")
    static native void fillDeviceAttrEx(ibv_device_attr_ex attr);

    @Name("verbs4j_test::fill_port_attr")
    static native void fillPortAttr(ibv_port_attr attr);
}

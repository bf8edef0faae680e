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
}

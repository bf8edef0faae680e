package dev.verbs4j.conformance.memwindow;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.EnumSet;
import java.util.Set;

/**
 * Memory window helpers. Windows live on the remote side, over a region registered with
 * {@link Access#MW_BIND}; the remote queue pair binds them and the local one accesses
 * them. Type 1 windows are bound with {@code ibv_bind_mw} (here {@link MemoryWindow#bind}),
 * type 2 windows with a BIND_MW work request under an rkey from {@code ibv_inc_rkey}.
 */
final class Windows {
    static final long REGION = 16 * 1024;

    private Windows() {
    }

    static void requireType1(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.MEM_WINDOW);
    }

    static void requireType2(Testbed bed) {
        Require.anyCapability(bed, DeviceCapability.MEM_WINDOW_TYPE_2A, DeviceCapability.MEM_WINDOW_TYPE_2B);
    }

    /** A remote region windows can be bound to, with local write and every remote right. */
    static Buffer bindableRegion(Testbed bed, RcPair pair) {
        Set<Access> access = Buffer.allRemoteAccess();
        access.add(Access.MW_BIND);
        return bed.buffer(pair.remote().pd(), REGION, access);
    }

    static Set<Access> remoteWrite() {
        return EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ);
    }

    /** Binds a type 1 window over {@code length} bytes at {@code offset} and waits for the bind's completion. */
    static int bindType1(RcPair pair, MemoryWindow mw, Buffer region, long offset, long length, Set<Access> access, long wrId) {
        int rkey = mw.bind(pair.remote().qp(), wrId, true, region.region(), region.remoteAddress(offset), length, access);
        Expect.success(WcOpcode.BIND_MW, wrId, Completions.next(pair.remote().sendCq(), "the type 1 bind"), "type 1 bind");
        return rkey;
    }

    /** Posts a type 2 bind under the window's next rkey and returns its completion and that rkey. */
    static Bound postType2Bind(RcPair pair, MemoryWindow mw, Buffer region, long offset, long length, Set<Access> access, long wrId) {
        int rkey = MemoryWindow.incrementRkey(mw.rkey());
        pair.remote().qp().postSend(new SendWorkRequest().wrId(wrId).signaled(true)
                .bindMw(mw, rkey, region.region(), region.remoteAddress(offset), length, Access.toMask(access)));
        return new Bound(rkey, Completions.next(pair.remote().sendCq(), "the type 2 bind"));
    }

    /** Binds a type 2 window and expects the bind to succeed. */
    static int bindType2(RcPair pair, MemoryWindow mw, Buffer region, long offset, long length, Set<Access> access, long wrId) {
        Bound bound = postType2Bind(pair, mw, region, offset, length, access, wrId);
        Expect.success(WcOpcode.BIND_MW, wrId, bound.completion(), "type 2 bind");
        return bound.rkey();
    }

    /** Writes {@code length} bytes of {@code source} from the local side to {@code address} under {@code rkey}. */
    static WorkCompletion write(RcPair pair, Buffer source, int length, long address, int rkey, long wrId) {
        pair.local().qp().postSend(new SendWorkRequest().wrId(wrId).signaled(true).buffer(source.region(), 0, length)
                .rdmaWrite(address, rkey));
        return Completions.next(pair.local().sendCq(), "a write through window rkey 0x" + Integer.toHexString(rkey));
    }

    /** A posted type 2 bind. */
    record Bound(int rkey, WorkCompletion completion) {
    }
}

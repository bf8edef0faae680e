package dev.verbs4j.conformance.access;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.MwType;
import dev.verbs4j.QpType;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.RcEnd;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.Optional;
import java.util.Set;

/** Every kind of key that names remote memory, and how each is issued, revoked and invalidated. */
enum KeyKind {
    MR("mr", "a plain region", "Region", "ibv_reg_mr; rxe lookup_mr"),
    MW1("mw1", "a type 1 window", "Window", "IBTA 10.6.7; rxe rxe_lookup_mw"),
    MW2("mw2", "a type 2 window", "Window", "IBTA 10.6.7.2; rxe rxe_lookup_mw"),
    FR("fr", "a fast-registered region", "Region", "memory management extensions REG_MR; rxe lookup_mr"),
    ODP("odp", "an on-demand region", "Region", "IBV_ACCESS_ON_DEMAND; rxe lookup_mr");

    private final String id;
    private final String label;
    private final String noun;
    private final String citation;

    KeyKind(String id, String label, String noun, String citation) {
        this.id = id;
        this.label = label;
        this.noun = noun;
        this.citation = citation;
    }

    String id() {
        return id;
    }

    String label() {
        return label;
    }

    /** "Region" or "Window": what the granted range is called in case names. */
    String noun() {
        return noun;
    }

    String citation() {
        return citation;
    }

    /** Type 2 windows answer only through the queue pair they were bound with (IBTA 10.6.7.2.1). */
    boolean boundToQueuePair() {
        return this == MW2;
    }

    /**
     * Whether SEND_WITH_INV may invalidate the key: type 2 windows and fast-registered
     * regions. A type 1 window cannot be (o10-37.2.26, rxe rxe_check_invalidate_mw), nor a
     * region from {@code ibv_reg_mr} (rxe rxe_invalidate_mr accepts only IB_MR_TYPE_MEM_REG).
     */
    boolean invalidatable() {
        return this == MW2 || this == FR;
    }

    /** What IBTA or the kernel rxe says about invalidating this kind of key by SEND_WITH_INV. */
    String invalidationCitation() {
        return switch (this) {
            case MW1 -> "o10-37.2.26: a type 1 window cannot be invalidated; rxe rxe_check_invalidate_mw";
            case MR, ODP -> "rxe rxe_invalidate_mr invalidates only IB_MR_TYPE_MEM_REG";
            case MW2 -> "rxe rxe_invalidate_mw";
            case FR -> "rxe rxe_invalidate_mr";
        };
    }

    /** Why the key cannot be revoked {@code how}, if it cannot. */
    Optional<String> cannotBe(Revocation how) {
        String reason = switch (how) {
            case LOCAL_INVALIDATE -> switch (this) {
                case MR, ODP -> "LOCAL_INV invalidates type 2 windows and fast-registered regions, not a region from ibv_reg_mr";
                case MW1 -> "a type 1 window cannot be invalidated (o10-37.2.26); a new bind or deallocation revokes it";
                default -> null;
            };
            case REBIND -> this == MR || this == ODP
                    ? "a region from ibv_reg_mr keeps its rkey until it is deregistered: there is no bind to repeat" : null;
            case DEALLOC -> this == MW1 || this == MW2 ? null : "a region is deregistered, not deallocated (see revokedByDereg)";
            case DEREG -> this == MW1 || this == MW2
                    ? "a region with a bound window cannot be deregistered (IBTA 10.6.7.2.6, memwindow/Type1WindowTest)" : null;
        };
        return Optional.ofNullable(reason);
    }

    /** Skips unless both devices offer this kind of key for {@code op}. */
    void require(Testbed bed, Operation op) {
        switch (this) {
            case MW1 -> Require.capabilities(bed, DeviceCapability.MEM_WINDOW);
            case MW2 -> Require.anyCapability(bed, DeviceCapability.MEM_WINDOW_TYPE_2A, DeviceCapability.MEM_WINDOW_TYPE_2B);
            case FR -> Require.supportedAtCreation("fast registration (allocateFastRegMr) on " + bed.remote(),
                    () -> bed.track(bed.pd(bed.remote()).allocateFastRegMr(GuardedTarget.REGION_PAGES)));
            case ODP -> Require.onDemandPaging(bed, QpType.RC, op.odpNeed());
            case MR -> {
            }
        }
    }

    /** Adds what the queue pairs need for this kind: REG_MR work requests for fast registration. */
    RcSpec adapt(RcSpec spec) {
        // Only the key's owner, the remote side, posts REG_MR (and LOCAL_INV); the requester need not.
        return this == FR ? spec.allowOnRemote(WrOpcode.REG_MR) : spec;
    }

    /**
     * Issues a key of this kind on {@code owner} over {@code target}, granting {@code rights};
     * a window's region is registered with {@code regionRights}.
     */
    IssuedKey issue(Testbed bed, RcEnd owner, GuardedTarget target, Set<Access> rights, Set<Access> regionRights) {
        return switch (this) {
            case MR -> RegionKey.register(bed, owner, target, rights, false);
            case ODP -> RegionKey.register(bed, owner, target, rights, true);
            case MW1 -> WindowKey.bind(bed, owner, target, MwType.TYPE_1, rights, regionRights);
            case MW2 -> WindowKey.bind(bed, owner, target, MwType.TYPE_2, rights, regionRights);
            case FR -> FastRegisteredKey.register(bed, owner, target, rights);
        };
    }
}

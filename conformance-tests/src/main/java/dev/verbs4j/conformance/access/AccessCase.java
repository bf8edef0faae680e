package dev.verbs4j.conformance.access;

import dev.verbs4j.Access;
import dev.verbs4j.QpState;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One cell of the matrix: {@code op} through a key of {@code kind}, under {@code check}.
 * Each case builds its own pair (a refused request moves both queue pairs to the error
 * state), issues the key on the remote side over a {@link GuardedTarget}, posts two
 * receives there, posts the request, and checks the requester's completion, the
 * responder's queue pair and receives, and every byte of the target.
 */
record AccessCase(Operation op, KeyKind kind, Check check) {

    /** Every case of the matrix, in table order. */
    static List<AccessCase> all() {
        List<AccessCase> all = new ArrayList<>();
        for (Operation op : Operation.values()) {
            for (KeyKind kind : KeyKind.values()) {
                for (Check check : Check.values()) {
                    all.add(new AccessCase(op, kind, check));
                }
            }
        }
        return all;
    }

    /** The stable id in the report: {@code operation.kind.check}, e.g. {@code write.mw2.firstByteBeforeWindow}. */
    String key() {
        return op.id() + "." + kind.id() + "." + check.id(kind, op);
    }

    /** What the case does and expects, with the IBTA statements and rxe checks it stands for. */
    String displayName() {
        String what = op.label() + (op == Operation.SEND_WITH_INV ? " of " : " via ") + kind.label() + ", "
                + check.describe(kind, op);
        if (check.notApplicable(op, kind).isPresent()) {
            return what + " [not applicable]";
        }
        Outcome outcome = Outcome.of(op, kind, check);
        StringJoiner cites = new StringJoiner("; ", " [", "]");
        if (op.shape() == Operation.Shape.WHOLE_REGION && check.keySource() == Check.KeySource.GRANTED) {
            cites.add("a whole-region FLUSH names no range: rxe check_rkey skips mr_check_range for IB_FLUSH_MR");
        } else if (check.citation() != null) {
            cites.add(check.citation());
        }
        if (op == Operation.SEND_WITH_INV) {
            cites.add(kind.invalidationCitation());
        }
        if (!outcome.citation().isEmpty()) {
            cites.add(outcome.citation());
        }
        if (consumesReceiveWhenRefused(outcome)) {
            cites.add("its receive fails LOC_ACCESS_ERR: IBTA 11.6.2, ibv_poll_cq");
        }
        cites.add(kind.citation());
        return what + " -> " + outcome.description() + cites;
    }

    void run(Testbed bed) {
        check.notApplicable(op, kind).ifPresent(Assumptions::abort);
        op.require(bed);
        kind.require(bed, op);
        RcPair pair = bed.rcPair(spec());
        RcPair keyPair = check.keySource() == Check.KeySource.OTHER_PD ? bed.rcPair(spec()) : pair;
        GuardedTarget target = new GuardedTarget(bed, key().hashCode());
        IssuedKey key = kind.issue(bed, keyPair.remote(), target, keyRights(), op.keyRights());
        if (check.revocation() != null) {
            key.revoke(check.revocation());
        }
        RcPair route = check.throughAnotherQueuePair() ? bed.rcPair(spec().sharePdsWith(pair)) : pair;
        ResponderSide responder = new ResponderSide(route.remote());
        Requester requester = new Requester(route.local(), ~key().hashCode());
        Grant grant = key.grant();
        int rkey = check.keySource() == Check.KeySource.UNKNOWN ? grant.unknownKey() : grant.rkey();
        Outcome outcome = Outcome.of(op, kind, check);
        if (op == Operation.SEND_WITH_INV) {
            invalidate(bed, route, keyPair, requester, responder, target, grant, rkey, outcome);
        } else {
            access(route, requester, responder, target, grant, rkey, outcome);
        }
        target.assertAsExpected(key() + ": the target memory, guards included");
    }

    private RcSpec spec() {
        return kind.adapt(op.spec());
    }

    /** The rights the key grants: all the operation could need, less the one the check withholds. */
    private Set<Access> keyRights() {
        Set<Access> rights = op.keyRights();
        if (check.keySource() == Check.KeySource.WITHOUT_RIGHT) {
            rights.remove(op.right());
        }
        return rights;
    }

    private void access(RcPair route, Requester requester, ResponderSide responder, GuardedTarget target, Grant grant,
                        int rkey, Outcome outcome) {
        Check.Placement at = check.place(op, grant, route.mtu().bytes());
        requester.post(op, grant.addressOf(at.offset()), at.length(), rkey, target.expectedLong(at.offset()));
        WorkCompletion wc = Completions.next(route.local().sendCq(), key());
        if (outcome == Outcome.ACCESS) {
            Expect.success(op.wrOpcode().completionOpcode(), Requester.WR_ID, wc, key());
            if (op.consumesReceive()) {
                WorkCompletion recv = responder.assertConsumed(WcOpcode.RECV_RDMA_WITH_IMM, key());
                assertEquals(at.length(), recv.byteLength(), key() + ": byte_len of the write with immediate");
                assertEquals(Requester.IMMEDIATE, recv.immData(), key() + ": imm_data");
            } else {
                responder.assertUntouched(key());
            }
            requester.expectExecuted(op, target, at.offset(), at.length());
            assertEquals(QpState.RTS, QpStates.query(route.local().qp()), key() + ": the requester's queue pair state");
        } else {
            Expect.status(WcStatus.REM_ACCESS_ERR, wc, key());
            responder.assertFailed(consumesReceiveWhenRefused(outcome) ? WcStatus.LOC_ACCESS_ERR : null, key());
            requester.expectRefused(op);
            QpStates.await(route.local().qp(), QpState.ERR, key() + ": the requester after a remote access error");
        }
    }

    /**
     * Whether a refused request had already taken a receive: an RDMA WRITE with immediate
     * of one packet, which carries both the immediate data (so it takes a receive) and the
     * RETH that fails; its receive completes with the responder's protection error,
     * IBV_WC_LOC_ACCESS_ERR. Only the crossing check sends several packets, and then the
     * first one fails, before the last one would take a receive.
     */
    private boolean consumesReceiveWhenRefused(Outcome outcome) {
        return outcome == Outcome.REMOTE_ACCESS_ERROR && op == Operation.WRITE_WITH_IMM && check != Check.CROSSING_END;
    }

    /**
     * SEND_WITH_INV naming {@code rkey}: the send completes either way; the receive shows
     * whether the key was invalidated, and a write through the key afterwards shows that
     * an invalidation took effect, or that a refused one left a live key alone. That write
     * goes through a queue pair that can still use the key: the key's own pair for another
     * domain's key, else a new pair in the same domains; a type 2 window answers only its
     * own queue pair, which the refusal put in the error state, so it is not written.
     */
    private void invalidate(Testbed bed, RcPair route, RcPair keyPair, Requester requester, ResponderSide responder,
                            GuardedTarget target, Grant grant, int rkey, Outcome outcome) {
        requester.post(op, 0, Requester.SEND_BYTES, rkey, 0);
        Expect.success(WcOpcode.SEND, Requester.WR_ID, Completions.next(route.local().sendCq(), key()), key() + ": the send");
        if (outcome == Outcome.INVALIDATED || !route.local().side().iwarp()) {
            // On iWARP a refusal ends the stream (a TERMINATE, RFC 5040), which moves the sender to
            // the error state some time after its SEND completed.
            assertEquals(QpState.RTS, QpStates.query(route.local().qp()), key() + ": the sender's queue pair state");
        }
        Check.Placement at = Check.VALID_KEY.place(Operation.WRITE, grant, route.mtu().bytes());
        if (outcome == Outcome.INVALIDATED) {
            WorkCompletion recv = responder.assertConsumed(WcOpcode.RECV, key());
            assertTrue(recv.withInv(), key() + ": IBV_WC_WITH_INV is set: " + recv);
            assertEquals(rkey, recv.invalidatedRkey(), key() + ": invalidated_rkey");
            assertEquals(Requester.SEND_BYTES, recv.byteLength(), key() + ": byte_len");
            probe(route, grant, at, false, target);
            return;
        }
        responder.assertFailed(WcStatus.REM_INV_REQ_ERR, key());
        boolean keyStillNamesMemory = check.revocation() == null;
        if (keyPair != route) {
            probe(keyPair, grant, at, true, target);
        } else if (keyStillNamesMemory && !kind.boundToQueuePair()) {
            probe(bed.rcPair(spec().sharePdsWith(keyPair)), grant, at, true, target);
        }
    }

    /** Writes through the key after a SEND_WITH_INV: it must still work if the invalidation was refused, and fail if not. */
    private void probe(RcPair through, Grant grant, Check.Placement at, boolean stillValid, GuardedTarget target) {
        Requester writer = new Requester(through.local(), key().hashCode() + 1);
        writer.post(Operation.WRITE, grant.addressOf(at.offset()), at.length(), grant.rkey(), 0);
        WorkCompletion wc = Completions.next(through.local().sendCq(), key() + ": the write through the key afterwards");
        if (stillValid) {
            Expect.success(WcOpcode.RDMA_WRITE, Requester.WR_ID, wc,
                    key() + ": a write through the key the responder refused to invalidate");
            writer.expectExecuted(Operation.WRITE, target, at.offset(), at.length());
        } else {
            Expect.status(WcStatus.REM_ACCESS_ERR, wc, key() + ": a write through the invalidated key");
        }
    }
}

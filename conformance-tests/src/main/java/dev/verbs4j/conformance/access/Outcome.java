package dev.verbs4j.conformance.access;

/** What a case expects the responder to do with the request. */
enum Outcome {
    /** The request executes: its bytes land exactly where it points, the responder stays at RTS. */
    ACCESS("completes and changes exactly the bytes it names (none for a READ or a FLUSH); the responder stays at RTS", ""),
    /**
     * The responder NAKs "remote access error" and, a class C error on RC, moves its queue
     * pair to the error state: the requester sees REM_ACCESS_ERR, the responder's receives
     * flush, and nothing is placed.
     */
    REMOTE_ACCESS_ERROR("REM_ACCESS_ERR; the responder goes to ERR and flushes its receives; nothing placed",
            "IBTA 9.7.5.2.4, 9.9.3 class C; rxe RESPST_ERR_RKEY_VIOLATION"),
    /** The key is invalidated: the receive reports it, and requests under it fail afterwards. */
    INVALIDATED("the receive reports IBV_WC_WITH_INV and the key; the key stops granting access",
            "IBTA 10.6.7.2 and the memory management extensions; rxe invalidate_rkey"),
    /**
     * The invalidation is refused: the send is acknowledged, but the receive fails with
     * REM_INV_REQ_ERR and the responder goes to ERR (the kernel rxe's class J); a key that
     * names memory keeps granting access.
     */
    INVALIDATION_REFUSED("the sender completes; the receive fails REM_INV_REQ_ERR and the responder goes to ERR;"
            + " a key that names memory keeps granting access", "rxe RESPST_ERR_INVALIDATE_RKEY (class J)");

    private final String description;
    private final String citation;

    Outcome(String description, String citation) {
        this.description = description;
        this.citation = citation;
    }

    String description() {
        return description;
    }

    String citation() {
        return citation;
    }

    /** The outcome IBTA gives {@code check} of {@code op} through {@code kind}. */
    static Outcome of(Operation op, KeyKind kind, Check check) {
        if (op.shape() == Operation.Shape.KEY) {
            return check == Check.VALID_KEY && kind.invalidatable() ? INVALIDATED : INVALIDATION_REFUSED;
        }
        if (check.zeroLength() && op.zeroLengthUnchecked()) {
            return ACCESS;
        }
        boolean rangeChecked = op.shape() != Operation.Shape.WHOLE_REGION;
        return check.badKey(kind) || (rangeChecked && check.outOfRange()) ? REMOTE_ACCESS_ERROR : ACCESS;
    }
}

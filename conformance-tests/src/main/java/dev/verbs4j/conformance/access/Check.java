package dev.verbs4j.conformance.access;

import java.util.Optional;

/**
 * The checks a responder makes on a remote access, one per row of the matrix: which key
 * the request names, where it points relative to the granted range, and through which
 * queue pair it arrives. Names and descriptions say "Region" or "Window" after the key.
 */
enum Check {
    VALID_KEY("validKey", "inside the granted range with the key as issued (positive control)",
            KeySource.GRANTED, Place.MIDDLE, null),
    FIRST_BYTES("firstBytesOf%s", "the first bytes of the %s", KeySource.GRANTED, Place.FIRST, "rxe check_rkey mr_check_range"),
    LAST_BYTES("lastBytesOf%s", "up to the last byte of the %s", KeySource.GRANTED, Place.LAST, "rxe check_rkey mr_check_range"),
    FIRST_BYTE_BEFORE("firstByteBefore%s", "starting %2$s before the %1$s",
            KeySource.GRANTED, Place.BEFORE, "rxe check_rkey mr_check_range"),
    LAST_BYTE_PAST("lastBytePast%s", "ending %2$s past the %1$s",
            KeySource.GRANTED, Place.PAST, "rxe check_rkey mr_check_range"),
    CROSSING_END("crossing%sEnd", "from inside the %s across its end, over two MTUs long (a WRITE or READ of several packets)",
            KeySource.GRANTED, Place.CROSSING, "the whole DMA length is checked on the first packet (rxe check_rkey)"),
    ZERO_LENGTH_AT_START("zeroLengthAt%sStart", "of zero bytes at the start of the %s",
            KeySource.GRANTED, Place.ZERO_AT_START, "C9-88"),
    ZERO_LENGTH_AT_END("zeroLengthAt%sEnd", "of zero bytes at the end of the %s (one past its last byte)",
            KeySource.GRANTED, Place.ZERO_AT_END, "C9-88; rxe mr_check_range"),
    ZERO_LENGTH_PAST_END("zeroLengthPast%sEnd", "of zero bytes a page past the end of the %s",
            KeySource.GRANTED, Place.ZERO_PAST_END, "C9-88; rxe check_rkey"),
    ZERO_LENGTH_WITH_UNKNOWN_KEY("zeroLengthWithUnknownKey", "of zero bytes naming an unknown key",
            KeySource.UNKNOWN, Place.ZERO_AT_START, "C9-88 (rxe qp_resp_from_reth sets rkey 0)"),
    UNKNOWN_KEY("unknownKey", "naming the key with other low 8 bits", KeySource.UNKNOWN, Place.MIDDLE,
            "rxe lookup_mr / rxe_lookup_mw key compare"),
    KEY_OF_ANOTHER_PD("keyOfAnotherPd", "naming a valid key of another protection domain", KeySource.OTHER_PD, Place.MIDDLE,
            "IBTA 10.6 (a key is valid only in its protection domain); rxe mr_pd / rxe_mw_pd"),
    WITHOUT_RIGHT("without%s", "with a key that lacks %s", KeySource.WITHOUT_RIGHT, Place.MIDDLE,
            "IBTA 10.6 access rights; rxe lookup_mr / rxe_lookup_mw access"),
    REVOKED_BY_LOCAL_INVALIDATE(Revocation.LOCAL_INVALIDATE,
            "IBTA 10.6.7.2 LOCAL_INV; rxe lookup_mr / rxe_lookup_mw want state VALID"),
    REVOKED_BY_REBIND(Revocation.REBIND, "IBTA 10.6.7 (a bind gives a new key); rxe key compare"),
    REVOKED_BY_DEALLOC(Revocation.DEALLOC, "ibv_dealloc_mw; rxe_lookup_mw"),
    REVOKED_BY_DEREG(Revocation.DEREG, "ibv_dereg_mr; rxe lookup_mr"),
    THROUGH_ANOTHER_QUEUE_PAIR("throughAnotherQueuePair", "arriving on another queue pair of the same protection domain",
            KeySource.GRANTED, Place.MIDDLE,
            "IBTA 10.6.7.2.1 (a type 2 window answers only through its queue pair); rxe_lookup_mw mw->qp");

    /** Which key a request names. */
    enum KeySource { GRANTED, UNKNOWN, OTHER_PD, WITHOUT_RIGHT, REVOKED }

    /** Where a request points, relative to the granted range. */
    enum Place { MIDDLE, FIRST, LAST, BEFORE, PAST, CROSSING, ZERO_AT_START, ZERO_AT_END, ZERO_PAST_END }

    /** Where a request lands: {@code offset} in the target's memory, {@code length} bytes. */
    record Placement(long offset, int length) {
    }

    /** The length of most ranged requests. */
    static final int LENGTH = 64;
    private static final int ATOMIC = 8;

    private final String idPattern;
    private final String description;
    private final KeySource keySource;
    private final Place place;
    private final Revocation revocation;
    private final String citation;

    Check(String idPattern, String description, KeySource keySource, Place place, String citation) {
        this.idPattern = idPattern;
        this.description = description;
        this.keySource = keySource;
        this.place = place;
        this.revocation = null;
        this.citation = citation;
    }

    Check(Revocation revocation, String citation) {
        this.idPattern = revocation.id();
        this.description = "naming a key " + revocation.description();
        this.keySource = KeySource.REVOKED;
        this.place = Place.MIDDLE;
        this.revocation = revocation;
        this.citation = citation;
    }

    String id(KeyKind kind, Operation op) {
        return idPattern.formatted(this != WITHOUT_RIGHT ? kind.noun() : op.right() == null ? "Right" : camel(op));
    }

    String describe(KeyKind kind, Operation op) {
        if (this == VALID_KEY && op.shape() == Operation.Shape.KEY) {
            return "naming the key as issued";
        }
        Object subject = this != WITHOUT_RIGHT ? kind.noun().toLowerCase() : op.right() == null ? "a right" : op.right();
        return description.formatted(subject, op.shape() == Operation.Shape.EIGHT_BYTES ? "8 bytes" : "one byte");
    }

    /** What the check stands for in IBTA or the kernel rxe, or null for a positive control. */
    String citation() {
        return citation;
    }

    KeySource keySource() {
        return keySource;
    }

    /** The revocation before the request, or null. */
    Revocation revocation() {
        return revocation;
    }

    boolean throughAnotherQueuePair() {
        return this == THROUGH_ANOTHER_QUEUE_PAIR;
    }

    boolean zeroLength() {
        return place == Place.ZERO_AT_START || place == Place.ZERO_AT_END || place == Place.ZERO_PAST_END;
    }

    /** Whether the request reaches outside the granted range. */
    boolean outOfRange() {
        return place == Place.BEFORE || place == Place.PAST || place == Place.CROSSING || place == Place.ZERO_PAST_END;
    }

    /** Whether the key the request names grants it nothing (wrong, foreign, insufficient or revoked). */
    boolean badKey(KeyKind kind) {
        return keySource != KeySource.GRANTED || (throughAnotherQueuePair() && kind.boundToQueuePair());
    }

    /** Why this check makes no sense for {@code op} through {@code kind}, if it does not. */
    Optional<String> notApplicable(Operation op, KeyKind kind) {
        if (revocation != null && kind.cannotBe(revocation).isPresent()) {
            return kind.cannotBe(revocation);
        }
        if (op.shape() == Operation.Shape.KEY) {
            return switch (this) {
                case VALID_KEY, UNKNOWN_KEY, KEY_OF_ANOTHER_PD, REVOKED_BY_REBIND, REVOKED_BY_DEALLOC, REVOKED_BY_DEREG ->
                        Optional.empty();
                case REVOKED_BY_LOCAL_INVALIDATE -> Optional.of("SEND_WITH_INV of a key LOCAL_INV already invalidated repeats an"
                        + " invalidation; the data operations check that the key no longer grants access");
                case THROUGH_ANOTHER_QUEUE_PAIR -> Optional.of("SEND_WITH_INV through another queue pair: the tie of a type 2"
                        + " window to its queue pair is checked on the data operations");
                default -> Optional.of("SEND_WITH_INV names a key to invalidate, not a range or an access right");
            };
        }
        if (op.shape() == Operation.Shape.EIGHT_BYTES) {
            if (place == Place.CROSSING) {
                return Optional.of("an aligned 8-byte atomic cannot straddle the 8-byte aligned end of the granted range");
            }
            if (zeroLength()) {
                return Optional.of("an atomic always accesses 8 bytes: there is no zero-length form");
            }
        }
        return Optional.empty();
    }

    /** Where the request lands for {@code op} under {@code grant}, with path MTU {@code mtu}. */
    Placement place(Operation op, Grant grant, int mtu) {
        long start = grant.offset();
        long length = grant.length();
        int size = op.shape() == Operation.Shape.EIGHT_BYTES ? ATOMIC : LENGTH;
        int step = op.shape() == Operation.Shape.EIGHT_BYTES ? ATOMIC : 1;
        return switch (place) {
            case MIDDLE -> new Placement(start + (length / 2 & ~7L), size);
            case FIRST -> new Placement(start, size);
            case LAST -> new Placement(start + length - size, size);
            case BEFORE -> new Placement(start - step, size);
            case PAST -> new Placement(start + length - size + step, size);
            case CROSSING -> {
                int span = 2 * mtu + 512;
                yield new Placement(start + length - span + 256, span);
            }
            case ZERO_AT_START -> new Placement(start, 0);
            case ZERO_AT_END -> new Placement(start + length, 0);
            case ZERO_PAST_END -> new Placement(start + length + GuardedTarget.PAGE, 0);
        };
    }

    private static String camel(Operation op) {
        StringBuilder out = new StringBuilder();
        for (String word : op.right().name().split("_")) {
            out.append(word.charAt(0)).append(word.substring(1).toLowerCase());
        }
        return out.toString();
    }
}

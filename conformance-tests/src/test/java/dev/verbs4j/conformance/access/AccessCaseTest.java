package dev.verbs4j.conformance.access;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated matrix as the report sees it: stable, unique, readable ids and names that cite what they check. */
class AccessCaseTest {
    private static final Pattern ID = Pattern.compile("[a-z][A-Za-z]*\\.(mr|mw1|mw2|fr|odp)\\.[a-z][A-Za-z]*");
    private static final Pattern CITATION = Pattern.compile("\\[.*(IBTA|C9-|o10-|rxe ).*]$");

    @Test
    void everyCombinationIsOneCaseWithItsOwnId() {
        List<AccessCase> all = AccessCase.all();
        Set<String> ids = new HashSet<>();
        all.forEach(c -> ids.add(c.key()));

        assertEquals(Operation.values().length * KeyKind.values().length * Check.values().length, all.size());
        assertEquals(all.size(), ids.size(), "ids are unique");
        all.forEach(c -> assertTrue(ID.matcher(c.key()).matches(), "readable id: " + c.key()));
    }

    @Test
    void idsNameOperationKeyKindAndCheck() {
        assertEquals("write.mw2.firstByteBeforeWindow", new AccessCase(Operation.WRITE, KeyKind.MW2, Check.FIRST_BYTE_BEFORE).key());
        assertEquals("read.mr.lastBytePastRegion", new AccessCase(Operation.READ, KeyKind.MR, Check.LAST_BYTE_PAST).key());
        assertEquals("fetchAdd.odp.withoutRemoteAtomic", new AccessCase(Operation.FETCH_ADD, KeyKind.ODP, Check.WITHOUT_RIGHT).key());
        assertEquals("flushRange.fr.revokedByLocalInvalidate",
                new AccessCase(Operation.FLUSH_RANGE, KeyKind.FR, Check.REVOKED_BY_LOCAL_INVALIDATE).key());
        assertEquals("sendInv.mw1.validKey", new AccessCase(Operation.SEND_WITH_INV, KeyKind.MW1, Check.VALID_KEY).key());
    }

    @Test
    void everyApplicableCaseCitesWhatItStandsFor() {
        for (AccessCase c : AccessCase.all()) {
            boolean positiveControl = c.check() == Check.VALID_KEY && c.op() != Operation.SEND_WITH_INV;
            if (c.check().notApplicable(c.op(), c.kind()).isEmpty() && !positiveControl) {
                assertTrue(CITATION.matcher(c.displayName()).find(), "cites IBTA or rxe: " + c.displayName());
            }
        }
    }

    @Test
    void outcomesFollowTheResponderChecks() {
        assertEquals(Outcome.REMOTE_ACCESS_ERROR, Outcome.of(Operation.WRITE, KeyKind.MW1, Check.FIRST_BYTE_BEFORE));
        assertEquals(Outcome.ACCESS, Outcome.of(Operation.WRITE, KeyKind.MR, Check.ZERO_LENGTH_WITH_UNKNOWN_KEY), "C9-88");
        assertEquals(Outcome.REMOTE_ACCESS_ERROR, Outcome.of(Operation.FLUSH_RANGE, KeyKind.MR, Check.ZERO_LENGTH_WITH_UNKNOWN_KEY));
        assertEquals(Outcome.ACCESS, Outcome.of(Operation.FLUSH_REGION, KeyKind.MR, Check.LAST_BYTE_PAST), "whole region: range ignored");
        assertEquals(Outcome.REMOTE_ACCESS_ERROR, Outcome.of(Operation.READ, KeyKind.MW2, Check.THROUGH_ANOTHER_QUEUE_PAIR));
        assertEquals(Outcome.ACCESS, Outcome.of(Operation.READ, KeyKind.MW1, Check.THROUGH_ANOTHER_QUEUE_PAIR));
        assertEquals(Outcome.INVALIDATED, Outcome.of(Operation.SEND_WITH_INV, KeyKind.FR, Check.VALID_KEY));
        assertEquals(Outcome.INVALIDATION_REFUSED, Outcome.of(Operation.SEND_WITH_INV, KeyKind.MW1, Check.VALID_KEY));
        assertEquals(Outcome.INVALIDATION_REFUSED, Outcome.of(Operation.SEND_WITH_INV, KeyKind.MW2, Check.KEY_OF_ANOTHER_PD));
    }
}

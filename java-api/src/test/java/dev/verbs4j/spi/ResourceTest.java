package dev.verbs4j.spi;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResourceTest {
    static final class Node extends Resource {
        int destroyed;

        Node(String kind, Resource... deps) {
            super(kind, deps);
        }

        @Override
        protected void destroy() {
            destroyed++;
        }
    }

    @Test
    void parentWithLiveChildRefusesToCloseWithEbusy() {
        Node pd = new Node("protection domain");
        Node mr = new Node("memory region", pd);
        VerbsException e = assertThrows(VerbsException.class, pd::close);
        assertEquals(Errno.EBUSY, e.error());
        assertEquals(0, pd.destroyed);
        mr.close();
        pd.close();
        assertEquals(1, pd.destroyed);
    }

    @Test
    void secondCloseDoesNothing() {
        Node pd = new Node("protection domain");
        Node mr = new Node("memory region", pd);
        mr.close();
        mr.close();
        assertEquals(1, mr.destroyed);
        assertEquals(0, pd.dependents(), "a double close must not release the parent twice");
    }

    @Test
    void closedResourceCannotBeUsedOrGainDependents() {
        Node cq = new Node("completion queue");
        cq.close();
        assertTrue(cq.isClosed());
        assertThrows(IllegalStateException.class, cq::ensureOpen);
        assertThrows(IllegalStateException.class, () -> new Node("queue pair", cq));
    }

    @Test
    void failedDestroyLeavesTheResourceOpen() {
        Node parent = new Node("pd");
        Resource failing = new Resource("mr", parent) {
            @Override
            protected void destroy() {
                throw new VerbsException(Errno.EBUSY, "windows bound");
            }
        };
        assertThrows(VerbsException.class, failing::close);
        assertTrue(!failing.isClosed());
        assertEquals(1, parent.dependents());
    }

    @Test
    void aClosedSecondDependencyLeavesNoCountOnTheFirst() {
        Node pd = new Node("protection domain");
        Node cq = new Node("completion queue");
        cq.close();
        assertThrows(IllegalStateException.class, () -> new Node("queue pair", pd, cq));
        assertEquals(0, pd.dependents(), "the domain must stay closable");
        pd.close();
        assertEquals(1, pd.destroyed);
    }

    @Test
    void aResourceHeldByARunningCallRefusesToCloseUntilReleased() {
        Node ah = new Node("address handle");
        assertTrue(ah.tryRetain());
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, ah::close).error());
        ah.release();
        ah.close();
        assertTrue(!ah.tryRetain(), "a closed resource cannot be held");
        assertEquals(0, ah.dependents());
    }
}

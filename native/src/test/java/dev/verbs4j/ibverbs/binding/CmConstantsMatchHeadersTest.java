package dev.verbs4j.ibverbs.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.PortSpace;
import org.junit.jupiter.api.Test;

/** The connection manager's Java numbers equal librdmacm's headers. */
class CmConstantsMatchHeadersTest {

    private static long header(String name) {
        long value = CmHeaderValues.value(name);
        assertTrue(value != CmHeaderValues.ABSENT, name + " is not in the C table");
        return value;
    }

    @Test
    void everyEventTypeHasItsRdmaCmNumber() {
        for (CmEventType type : CmEventType.values()) {
            assertEquals(header("RDMA_CM_EVENT_" + type.name()), type.value(), type.name());
        }
    }

    @Test
    void everyPortSpaceHasItsRdmaPsNumber() {
        for (PortSpace space : PortSpace.values()) {
            assertEquals(header("RDMA_PS_" + space.name()), space.value(), space.name());
        }
    }

    @Test
    void theBindingsOptionsAndLimitsAreTheHeaders() {
        assertEquals(header("RDMA_OPTION_ID_TOS"), CmVerbs.RDMA_OPTION_ID_TOS);
        assertEquals(header("RDMA_OPTION_ID_REUSEADDR"), CmVerbs.RDMA_OPTION_ID_REUSEADDR);
        assertEquals(header("RDMA_OPTION_ID_ACK_TIMEOUT"), CmVerbs.RDMA_OPTION_ID_ACK_TIMEOUT);
        assertEquals(header("RDMA_MAX_RESP_RES"), CmVerbs.RDMA_MAX_DEPTH);
        assertEquals(header("RDMA_MAX_INIT_DEPTH"), CmVerbs.RDMA_MAX_DEPTH);
        assertEquals(header("RDMA_MAX_PRIVATE_DATA"), cm_event_copy.PRIVATE_DATA_CAPACITY);
    }
}

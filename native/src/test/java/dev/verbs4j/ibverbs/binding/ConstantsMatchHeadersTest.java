package dev.verbs4j.ibverbs.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The Java constants of the binding equal what the C++ compiler sees in
 * the headers, name by name, in both directions.
 */
class ConstantsMatchHeadersTest {

    /**
     * Constants that supported headers may not declare, with the value the
     * kernel uAPI fixes (include/uapi/rdma/ib_user_verbs.h and
     * ib_user_ioctl_verbs.h): device capability bits 38-40 have no ibv_
     * name at all, the ODP transport bits are named from rdma-core 58.
     */
    private static final Map<String, Long> KERNEL_UAPI_VALUES = Map.of(
            "IB_UVERBS_DEVICE_FLUSH_GLOBAL", 1L << 38,
            "IB_UVERBS_DEVICE_FLUSH_PERSISTENT", 1L << 39,
            "IB_UVERBS_DEVICE_ATOMIC_WRITE", 1L << 40,
            "IBV_ODP_SUPPORT_FLUSH", 1L << 6,
            "IBV_ODP_SUPPORT_ATOMIC_WRITE", 1L << 7);

    private static Map<String, Long> javaConstants() throws IllegalAccessException {
        Map<String, Long> constants = new TreeMap<>();
        for (Class<?> holder : new Class<?>[] {IbverbsConstants.class, Errno.class}) {
            for (Field field : holder.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
                    constants.put(field.getName(), ((Number) field.get(null)).longValue());
                }
            }
        }
        return constants;
    }

    @Test
    void everyJavaConstantEqualsItsHeaderValue() throws Exception {
        Map<String, Long> constants = javaConstants();
        assertTrue(constants.size() > 290, "constants found: " + constants.size());
        for (Map.Entry<String, Long> constant : constants.entrySet()) {
            String name = constant.getKey();
            int status = HeaderValues.constantStatus(name);
            if (status == HeaderValues.DECLARED) {
                assertEquals(HeaderValues.constantValue(name), constant.getValue(), name);
            } else {
                assertEquals(HeaderValues.NOT_DECLARED, status, name + " is missing from the C table");
                assertEquals(KERNEL_UAPI_VALUES.get(name), constant.getValue(), name + " (by value: not in these headers)");
            }
        }
    }

    @Test
    void everyHeaderValueInTheTableHasAJavaConstant() throws Exception {
        Map<String, Long> constants = javaConstants();
        for (int i = 0; i < HeaderValues.constantCount(); i++) {
            String name = HeaderValues.constantName(i);
            assertTrue(constants.containsKey(name), name + " has no Java constant");
        }
        assertEquals(HeaderValues.constantCount(), constants.size());
    }

    @Test
    void flushApiConstantsAreDeclaredByTheHeadersTheBindingIsBuiltWith() {
        // The build refuses headers older than rdma-core 45; these prove it.
        for (String name : new String[] {"IBV_WR_FLUSH", "IBV_WC_FLUSH", "IBV_QP_EX_WITH_FLUSH",
                "IBV_ACCESS_FLUSH_GLOBAL", "IBV_ACCESS_FLUSH_PERSISTENT", "IBV_FLUSH_GLOBAL", "IBV_FLUSH_MR"}) {
            assertEquals(HeaderValues.DECLARED, HeaderValues.constantStatus(name), name);
        }
    }

    @Test
    void capabilityBitsBeyond32FitTheSixtyFourBitWord() {
        assertEquals(0x0000_0040_0000_0000L, IbverbsConstants.IB_UVERBS_DEVICE_FLUSH_GLOBAL);
        assertEquals(0x0000_0080_0000_0000L, IbverbsConstants.IB_UVERBS_DEVICE_FLUSH_PERSISTENT);
        assertEquals(0x0000_0100_0000_0000L, IbverbsConstants.IB_UVERBS_DEVICE_ATOMIC_WRITE);
    }
}

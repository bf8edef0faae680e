package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * An ordering guarantee of the data an operation places in memory
 * ({@code enum ibv_query_qp_data_in_order_caps}), as {@link QueuePair#dataInOrder} reports it.
 */
public enum DataInOrder {
    /** A message's data is written in address order: seeing its last byte means all of it is there. */
    WHOLE_MESSAGE(1),
    /** Each aligned 128-byte block is written in address order. */
    ALIGNED_128_BYTES(1 << 1);

    private final int value;

    DataInOrder(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_QUERY_QP_DATA_IN_ORDER_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The guarantees set in a capability word.
     *
     * @param mask what {@code ibv_query_qp_data_in_order} returned
     * @return a new set
     */
    public static Set<DataInOrder> fromMask(int mask) {
        EnumSet<DataInOrder> set = EnumSet.noneOf(DataInOrder.class);
        for (DataInOrder d : values()) {
            if ((mask & d.value) != 0) {
                set.add(d);
            }
        }
        return set;
    }
}

package dev.verbs4j;

/** Logical port state ({@code enum ibv_port_state}). */
public enum PortState {
    /** {@code IBV_PORT_NOP}: no state change reported (also what an unknown number maps to here). */
    NOP,

    /** {@code IBV_PORT_DOWN}: the link is down (on RoCE: the network device has no carrier or is down). */
    DOWN,

    /** {@code IBV_PORT_INIT}: the link is up but the subnet manager has not configured the port. */
    INIT,

    /** {@code IBV_PORT_ARMED}: configured, waiting for a neighbour to become active. */
    ARMED,

    /** {@code IBV_PORT_ACTIVE}: the port passes traffic; queue pairs need it to reach RTR. */
    ACTIVE,

    /** {@code IBV_PORT_ACTIVE_DEFER}: active, with a transition to down deferred. */
    ACTIVE_DEFER;


    /**
     * The {@code IBV_PORT_*} number.
     *
     * @return the number {@code ibv_port_attr.state} holds
     */
    public int value() {
        return ordinal();
    }

    /**
     * The state with the given number.
     *
     * @param value an {@code ibv_port_attr.state} number
     * @return the state, {@link #NOP} for a number outside 0-5
     */
    public static PortState of(int value) {
        return value >= 0 && value < 6 ? values()[value] : NOP;
    }
}

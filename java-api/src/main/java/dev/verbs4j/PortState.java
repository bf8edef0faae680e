package dev.verbs4j;

/** Logical port state ({@code enum ibv_port_state}). */
public enum PortState {
    NOP, DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER;

    /** The {@code IBV_PORT_*} number. */
    public int value() {
        return ordinal();
    }

    /** The state with the given number. */
    public static PortState of(int value) {
        return value >= 0 && value < 6 ? values()[value] : NOP;
    }
}

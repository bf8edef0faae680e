package dev.verbs4j;

/** An address handle ({@code struct ibv_ah}): the destination of UD sends. */
public interface AddressHandle extends AutoCloseable {
    /**
     * The attributes the handle was created with ({@code ibv_create_ah}'s {@code ibv_ah_attr}).
     *
     * @return the attributes
     */
    AddressHandleAttributes attributes();

    /**
     * Destroys the handle ({@code ibv_destroy_ah}).
     *
     * @throws VerbsException with the errno {@code ibv_destroy_ah} gives
     */
    @Override
    void close();
}

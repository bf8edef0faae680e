package dev.verbs4j;

/** An address handle ({@code struct ibv_ah}): the destination of UD sends. */
public interface AddressHandle extends AutoCloseable {
    AddressHandleAttributes attributes();

    @Override
    void close();
}

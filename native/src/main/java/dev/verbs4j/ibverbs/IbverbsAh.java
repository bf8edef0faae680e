package dev.verbs4j.ibverbs;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.ibverbs.binding.QueuePairVerbs;
import dev.verbs4j.ibverbs.binding.ibv_ah;
import dev.verbs4j.spi.Resource;

/** An address handle ({@code struct ibv_ah}) for UD sends. */
final class IbverbsAh extends Resource implements AddressHandle {
    final ibv_ah handle;
    private final AddressHandleAttributes attributes;

    IbverbsAh(IbverbsPd pd, ibv_ah handle, AddressHandleAttributes attributes) {
        super("address handle", pd);
        this.handle = handle;
        this.attributes = attributes;
    }

    @Override
    public AddressHandleAttributes attributes() {
        return attributes;
    }

    @Override
    protected void destroy() {
        NativeErrors.check(QueuePairVerbs.ibv_destroy_ah(handle), "ibv_destroy_ah");
    }
}

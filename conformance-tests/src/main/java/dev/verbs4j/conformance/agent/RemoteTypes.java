package dev.verbs4j.conformance.agent;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SharedReceiveQueue;

import java.util.List;

/**
 * The API's resources: what stays in the agent and crosses the control channel as a
 * handle. Everything else a call takes or returns (work requests, completions, attributes,
 * enums, records) crosses as a value.
 */
final class RemoteTypes {
    static final List<Class<?>> INTERFACES = List.of(DeviceContext.class, ProtectionDomain.class, MemoryRegion.class,
            MemoryWindow.class, CompletionQueue.class, CompletionChannel.class, QueuePair.class, SharedReceiveQueue.class,
            AddressHandle.class, Device.class);

    private RemoteTypes() {
    }

    /** The API interface {@code value} is a resource of, or null for a value. */
    static Class<?> interfaceOf(Object value) {
        for (Class<?> type : INTERFACES) {
            if (type.isInstance(value)) {
                return type;
            }
        }
        return null;
    }
}

package dev.verbs4j.conformance.agent;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SharedReceiveQueue;

import java.util.List;
import java.util.Set;

/**
 * The API's resources: what stays in the agent and crosses the control channel as a
 * handle. Everything else a call takes or returns (work requests, completions, attributes,
 * enums, records) crosses as a value.
 */
final class RemoteTypes {
    static final List<Class<?>> INTERFACES = List.of(DeviceContext.class, ProtectionDomain.class, MemoryRegion.class,
            MemoryWindow.class, ExtendedCompletionQueue.class, CompletionQueue.class, CompletionChannel.class, QueuePair.class, SharedReceiveQueue.class,
            AddressHandle.class, Device.class, dev.verbs4j.cm.CmEventChannel.class, dev.verbs4j.cm.CmId.class);

    /**
     * Calls without arguments whose answer never changes for the resource's life: the test
     * process asks the agent once. (A region's keys and addresses are not among them: a
     * fast-register region gets new ones with each registration; nor are the sizes of the
     * queues that can be resized.)
     */
    private static final Set<String> FIXED_ANSWERS = Set.of(
            "Device#name", "Device#providerName", "Device#guid",
            "DeviceContext#device", "DeviceContext#queryDevice",
            "ProtectionDomain#context",
            "QueuePair#qpn", "QueuePair#type", "QueuePair#protectionDomain", "QueuePair#sendCq", "QueuePair#recvCq",
            "QueuePair#srq",
            "CompletionQueue#channel", "ExtendedCompletionQueue#fields",
            "MemoryWindow#type",
            "SharedReceiveQueue#maxSge",
            "AddressHandle#attributes",
            "CmId#channel", "CmId#portSpace", "CmId#qpType");

    private RemoteTypes() {
    }

    /** Whether {@code method}'s answer is fixed for the life of the resource it is called on. */
    static boolean answerIsFixed(java.lang.reflect.Method method) {
        return method.getParameterCount() == 0
                && FIXED_ANSWERS.contains(method.getDeclaringClass().getSimpleName() + "#" + method.getName());
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

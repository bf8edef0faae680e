package dev.verbs4j.conformance.report;

import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.OdpCapability;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.QpType;

import java.util.ArrayList;
import java.util.List;

/**
 * What each side's device reported when the run opened it ({@code ibv_query_device_ex}), as
 * words: the {@code device_cap_flags_ex} bits by name ({@code FLUSH_GLOBAL}, {@code MEM_WINDOW},
 * ...), the atomic guarantee ({@code ATOMIC_HCA}), and On-Demand Paging ({@code ODP},
 * {@code ODP_IMPLICIT}, and per transport {@code RC_ODP_WRITE}, {@code UD_ODP_SEND}, ...).
 *
 * @param local  the local side's words, empty when no device was opened
 * @param remote the remote side's words
 */
public record RunCapabilities(List<String> local, List<String> remote) {
    /** Nothing recorded. */
    public static final RunCapabilities NONE = new RunCapabilities(List.of(), List.of());

    private static volatile RunCapabilities opened = NONE;

    /** Capabilities holding copies of both lists. */
    public RunCapabilities {
        local = List.copyOf(local);
        remote = List.copyOf(remote);
    }

    /**
     * The words for one device's attributes.
     *
     * @param attributes what {@code ibv_query_device_ex} reported
     * @return the words
     */
    public static List<String> words(DeviceAttributes attributes) {
        List<String> words = new ArrayList<>();
        for (DeviceCapability c : DeviceCapability.values()) {
            if (attributes.has(c)) {
                words.add(c.name());
            }
        }
        words.add("ATOMIC_" + attributes.atomicCapability().name());
        if (attributes.odp().general().contains(OdpCapability.SUPPORT)) {
            words.add("ODP");
        }
        if (attributes.odp().general().contains(OdpCapability.SUPPORT_IMPLICIT)) {
            words.add("ODP_IMPLICIT");
        }
        for (QpType type : QpType.values()) {
            for (OdpTransportCapability c : OdpTransportCapability.values()) {
                if (attributes.odp().of(type).contains(c)) {
                    words.add(type.name() + "_ODP_" + c.name());
                }
            }
        }
        return words;
    }

    /**
     * Called by the fixture when it opens a run's devices; the report of that run carries them.
     *
     * @param local the local device's attributes
     * @param remote the remote device's attributes
     */
    public static void opened(DeviceAttributes local, DeviceAttributes remote) {
        opened = new RunCapabilities(words(local), words(remote));
    }

    /** What the current run's devices reported, {@link #NONE} before they are opened. */
    static RunCapabilities ofCurrentRun() {
        return opened;
    }

    /** Forgets the devices of an earlier run. */
    static void reset() {
        opened = NONE;
    }
}

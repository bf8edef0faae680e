package dev.verbs4j.probe;

import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;

/**
 * Prints the ibverbs provider's module, its devices and why it has none: listing them calls
 * {@code ibv_get_device_list} through the JNI library JavaCPP loads.
 */
public final class ListDevices {
    private ListDevices() {
    }

    public static void main(String[] args) {
        Provider ibverbs = Verbs.provider("ibverbs");
        System.out.println("provider: " + ibverbs.getClass().getModule());
        System.out.println("devices: " + ibverbs.devices());
        System.out.println("unavailable: " + ibverbs.unavailableReason().orElse("no"));
    }
}

package dev.verbs4j.nvmeof.host;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;

import java.util.EnumSet;
import java.util.Set;

/** How a host makes the keys its SGLs carry: see {@link BufferKeys}' implementations. */
public enum KeyMethod {
    /** REG_MR work requests on fast-register regions, invalidated by the controller or the host. */
    FAST_REGISTER,
    /** Type 2 memory windows bound per command, invalidated like fast-registered keys. */
    WINDOW,
    /** The registered regions' own keys: no per-command grant, nothing invalidated. */
    REGION;

    /**
     * The best a device offers: fast registration on the soft provider (libibverbs has no
     * REG_MR in user space), else type 2 windows where the device has them, else regions.
     */
    public static KeyMethod best(String providerName, DeviceAttributes attributes) {
        if ("soft".equals(providerName)) {
            return FAST_REGISTER;
        }
        if (attributes.has(DeviceCapability.MEM_WINDOW_TYPE_2B) || attributes.has(DeviceCapability.MEM_WINDOW_TYPE_2A)) {
            return WINDOW;
        }
        return REGION;
    }

    /** The access the host's data memory is registered with for this method. */
    Set<Access> bufferAccess() {
        return switch (this) {
            case FAST_REGISTER -> EnumSet.of(Access.LOCAL_WRITE);
            case WINDOW -> EnumSet.of(Access.LOCAL_WRITE, Access.MW_BIND);
            case REGION -> EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
        };
    }
}

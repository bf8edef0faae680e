package dev.verbs4j.nvmeof.host;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;

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
     * The best that {@code pd}'s provider and device offer: fast registration where the device
     * has the memory management extensions and the provider can allocate a fast-register
     * region (libibverbs has no REG_MR in user space: it answers EOPNOTSUPP), else type 2
     * windows where the device has them, else regions. Asks the provider, never its name.
     */
    public static KeyMethod best(ProtectionDomain pd, DeviceAttributes attributes) {
        if (attributes.has(DeviceCapability.MEM_MGT_EXTENSIONS) && canFastRegister(pd)) {
            return FAST_REGISTER;
        }
        if (attributes.has(DeviceCapability.MEM_WINDOW_TYPE_2B) || attributes.has(DeviceCapability.MEM_WINDOW_TYPE_2A)) {
            return WINDOW;
        }
        return REGION;
    }

    private static boolean canFastRegister(ProtectionDomain pd) {
        try (MemoryRegion probe = pd.allocateFastRegMr(1)) {
            return probe != null;
        } catch (VerbsException e) {
            if (e.error() == Errno.EOPNOTSUPP) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The operations a queue pair posts beyond the defaults for this method: a REG_MR only
     * for fast registration, which a provider without it refuses at creation.
     */
    WrOpcode[] extraOperations() {
        return this == FAST_REGISTER ? new WrOpcode[] {WrOpcode.REG_MR} : new WrOpcode[0];
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

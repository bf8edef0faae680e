package dev.verbs4j;

import java.util.Set;

/**
 * Device attributes ({@code struct ibv_device_attr_ex}), as {@code ibv_query_device_ex} reports them.
 *
 * @param firmwareVersion     {@code fw_ver}
 * @param nodeGuid            node GUID
 * @param systemImageGuid     system image GUID
 * @param maxMrSize           largest region in bytes
 * @param pageSizeCap         supported page sizes (bit mask)
 * @param vendorId            IEEE vendor id
 * @param vendorPartId        vendor part id
 * @param hardwareVersion     hardware version
 * @param maxQp               queue pairs
 * @param maxQpWr             work requests per queue
 * @param capabilityFlags     the raw 64-bit {@code device_cap_flags_ex}
 * @param maxSge              scatter/gather entries per send or receive request
 * @param maxSgeRd            scatter/gather entries per RDMA READ
 * @param maxCq               completion queues
 * @param maxCqe              entries per completion queue
 * @param maxMr               memory regions
 * @param maxPd               protection domains
 * @param maxQpRdAtom         outstanding RDMA READ/atomic requests a QP can answer
 * @param maxQpInitRdAtom     outstanding RDMA READ/atomic requests a QP can issue
 * @param atomicCapability    atomicity guarantee
 * @param maxMw               memory windows
 * @param maxSrq              shared receive queues
 * @param maxSrqWr            work requests per SRQ
 * @param maxSrqSge           scatter/gather entries per SRQ request
 * @param maxPkeys            P_Key table entries
 * @param maxAh               address handles
 * @param physicalPortCount   ports
 * @param odp                 On-Demand Paging capabilities
 * @param maxInlineData       largest inline send (provider-reported; 0 when unknown)
 * @param completionTimestampMask the bits of a completion timestamp that count
 *                            ({@code completion_timestamp_mask}); 0 when completions carry no timestamp
 * @param hcaCoreClockKhz     the frequency of the clock completion timestamps count, in kHz ({@code hca_core_clock}); 0 when none
 */
public record DeviceAttributes(
        String firmwareVersion,
        long nodeGuid,
        long systemImageGuid,
        long maxMrSize,
        long pageSizeCap,
        int vendorId,
        int vendorPartId,
        int hardwareVersion,
        int maxQp,
        int maxQpWr,
        long capabilityFlags,
        int maxSge,
        int maxSgeRd,
        int maxCq,
        int maxCqe,
        int maxMr,
        int maxPd,
        int maxQpRdAtom,
        int maxQpInitRdAtom,
        AtomicCapability atomicCapability,
        int maxMw,
        int maxSrq,
        int maxSrqWr,
        int maxSrqSge,
        int maxPkeys,
        int maxAh,
        int physicalPortCount,
        OdpCapabilities odp,
        int maxInlineData,
        long completionTimestampMask,
        long hcaCoreClockKhz) {

    /**
     * The named capabilities set in {@link #capabilityFlags()}.
     *
     * @return a new set
     */
    public Set<DeviceCapability> capabilities() {
        return DeviceCapability.fromMask(capabilityFlags);
    }

    /**
     * Whether a capability bit is set.
     *
     * @param capability the capability
     * @return true if its bit is set in {@code device_cap_flags_ex}
     */
    public boolean has(DeviceCapability capability) {
        return (capabilityFlags & capability.value()) != 0;
    }
}

package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.AtomicCapability;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;
import dev.verbs4j.OdpCapability;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.PortState;
import dev.verbs4j.QpType;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.ibv_device_attr_ex;
import dev.verbs4j.ibverbs.binding.ibv_gid;
import dev.verbs4j.ibverbs.binding.ibv_port_attr;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Device, port and GID structs as {@code ibv_query_device_ex}, {@code ibv_query_port} and {@code ibv_query_gid_ex} fill them. */
class DeviceMappingTest {

    @Test
    void deviceAttributesKeepTheRawCapabilityWordWithFlushAndAtomicWriteBits() {
        try (ibv_device_attr_ex attr = new ibv_device_attr_ex()) {
            FakeVerbs.fillDeviceAttrEx(attr);
            DeviceAttributes d = DeviceMapping.deviceAttributes(attr);
            long expected = IbverbsConstants.IBV_DEVICE_MEM_WINDOW | IbverbsConstants.IBV_DEVICE_MEM_WINDOW_TYPE_2B
                    | IbverbsConstants.IB_UVERBS_DEVICE_FLUSH_GLOBAL | IbverbsConstants.IB_UVERBS_DEVICE_FLUSH_PERSISTENT
                    | IbverbsConstants.IB_UVERBS_DEVICE_ATOMIC_WRITE;
            assertEquals(expected, d.capabilityFlags());
            assertTrue(d.has(DeviceCapability.FLUSH_GLOBAL) && d.has(DeviceCapability.FLUSH_PERSISTENT)
                    && d.has(DeviceCapability.ATOMIC_WRITE) && d.has(DeviceCapability.MEM_WINDOW_TYPE_2B));
        }
    }

    @Test
    void deviceAttributesCarryEveryLimitAndHostOrderGuids() {
        try (ibv_device_attr_ex attr = new ibv_device_attr_ex()) {
            FakeVerbs.fillDeviceAttrEx(attr);
            DeviceAttributes d = DeviceMapping.deviceAttributes(attr);
            assertEquals("1.2.3", d.firmwareVersion());
            assertEquals(0x0123456789abcdefL, d.nodeGuid(), "be64 turned to host order");
            assertEquals(0xfedcba9876543210L, d.systemImageGuid());
            assertEquals(-1L, d.maxMrSize(), "all 64 bits");
            assertEquals(0xfffff000L, d.pageSizeCap());
            assertEquals(0xffffff, d.vendorId());
            assertEquals(0x1234, d.vendorPartId());
            assertEquals(7, d.hardwareVersion());
            assertEquals(1001, d.maxQp());
            assertEquals(1002, d.maxQpWr());
            assertEquals(1003, d.maxSge());
            assertEquals(1004, d.maxSgeRd());
            assertEquals(1005, d.maxCq());
            assertEquals(1006, d.maxCqe());
            assertEquals(1007, d.maxMr());
            assertEquals(1008, d.maxPd());
            assertEquals(1009, d.maxQpRdAtom());
            assertEquals(1010, d.maxQpInitRdAtom());
            assertEquals(AtomicCapability.HCA, d.atomicCapability());
            assertEquals(1011, d.maxMw());
            assertEquals(1012, d.maxSrq());
            assertEquals(1013, d.maxSrqWr());
            assertEquals(1014, d.maxSrqSge());
            assertEquals(0xffff, d.maxPkeys(), "uint16_t read unsigned");
            assertEquals(1015, d.maxAh());
            assertEquals(1, d.physicalPortCount());
        }
    }

    @Test
    void odpCapabilitiesKeepFlushAndAtomicWriteBits() {
        try (ibv_device_attr_ex attr = new ibv_device_attr_ex()) {
            FakeVerbs.fillDeviceAttrEx(attr);
            var odp = DeviceMapping.deviceAttributes(attr).odp();
            assertEquals(Set.of(OdpCapability.SUPPORT), odp.general());
            assertEquals(Set.of(OdpTransportCapability.SEND, OdpTransportCapability.FLUSH,
                    OdpTransportCapability.ATOMIC_WRITE), odp.of(QpType.RC));
            assertEquals(Set.of(OdpTransportCapability.WRITE), odp.of(QpType.UC));
            assertEquals(Set.of(OdpTransportCapability.RECV), odp.of(QpType.UD));
            assertEquals(Set.of(OdpTransportCapability.SRQ_RECV), odp.xrc());
            assertEquals(IbverbsConstants.IBV_ODP_SUPPORT_FLUSH, OdpTransportCapability.FLUSH.value());
            assertEquals(IbverbsConstants.IBV_ODP_SUPPORT_ATOMIC_WRITE, OdpTransportCapability.ATOMIC_WRITE.value());
        }
    }

    @Test
    void atomicCapabilityOfAnUnknownNumberIsNone() {
        assertEquals(AtomicCapability.GLOB, DeviceMapping.atomicCapability(IbverbsConstants.IBV_ATOMIC_GLOB));
        assertEquals(AtomicCapability.NONE, DeviceMapping.atomicCapability(9));
    }

    @Test
    void portAttributesOfARocePort() {
        try (ibv_port_attr attr = new ibv_port_attr()) {
            FakeVerbs.fillPortAttr(attr);
            PortAttributes p = DeviceMapping.portAttributes(attr);
            assertEquals(PortState.ACTIVE, p.state());
            assertEquals(Mtu.MTU_4096, p.maxMtu());
            assertEquals(Mtu.MTU_1024, p.activeMtu());
            assertEquals(16, p.gidTableLength());
            assertEquals(0, p.lid());
            assertTrue(p.linkLayerEthernet());
            assertEquals(32, p.activeSpeed());
            assertEquals(2, p.activeWidth());
            assertEquals(0x80000000L, p.maxMsgSize(), "uint32_t read unsigned");
            assertEquals(64, p.pkeyTableLength());
        }
    }

    @Test
    void mtuOutsideTheEnumIsAbsent() {
        assertNull(DeviceMapping.mtuOrNull(0));
        assertNull(DeviceMapping.mtuOrNull(6));
        assertEquals(Mtu.MTU_256, DeviceMapping.mtuOrNull(IbverbsConstants.IBV_MTU_256));
    }

    @Test
    void gidIsStoredInNetworkOrder() {
        try (ibv_gid gid = new ibv_gid()) {
            Gid v6 = Gid.parse("fe80::1:2:3:4");
            DeviceMapping.writeGid(v6, gid);
            assertEquals((byte) 0xfe, gid.raw(0));
            assertEquals((byte) 0x04, gid.raw(15));
            assertEquals(v6, DeviceMapping.gid(gid));
        }
    }
}

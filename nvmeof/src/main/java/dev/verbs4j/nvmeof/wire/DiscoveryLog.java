package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * The discovery log page (log identifier 70h): a 1024-byte header (generation counter,
 * record count, record format) and one 1024-byte entry per subsystem a host may reach.
 *
 * <pre>
 * entry: 0 TRTYPE (1 RDMA) | 1 ADRFAM (1 IPv4, 2 IPv6) | 2 SUBTYPE (2 NVM subsystem, 3 this
 *        discovery subsystem) | 3 TREQ | 4 PORTID | 6 CNTLID | 8 ASQSZ | 32 TRSVCID (32)
 *        256 SUBNQN (256) | 512 TRADDR (256) | 768 TSAS: RDMA QPTYPE, PRTYPE, CMS, PKEY (776)
 * </pre>
 */
public final class DiscoveryLog {
    public static final int HEADER_BYTES = 1024;
    public static final int ENTRY_BYTES = 1024;
    public static final int GENERATION = 0;
    public static final int RECORDS = 8;
    public static final int RECFMT = 16;

    public static final int TRTYPE = 0;
    public static final int ADRFAM = 1;
    public static final int SUBTYPE = 2;
    public static final int TREQ = 3;
    public static final int PORTID = 4;
    public static final int CNTLID = 6;
    public static final int ASQSZ = 8;
    public static final int TRSVCID = 32;
    public static final int SUBNQN = 256;
    public static final int TRADDR = 512;
    public static final int TSAS = 768;

    public static final int TRTYPE_RDMA = 1;
    public static final int ADRFAM_IPV4 = 1;
    public static final int ADRFAM_IPV6 = 2;
    public static final int SUBTYPE_NVM = 2;
    public static final int SUBTYPE_CURRENT_DISCOVERY = 3;
    /** TSAS RDMA: reliable connected queue pairs, no provider type, RDMA CM connections. */
    public static final int QPTYPE_CONNECTED = 1;
    public static final int PRTYPE_NOT_SPECIFIED = 1;
    public static final int CMS_RDMA_CM = 1;

    /** One reachable subsystem. */
    public record Entry(String subnqn, boolean ipv6, String address, int port, int subtype, int adminQueueSize) {
    }

    private DiscoveryLog() {
    }

    public static void header(MemorySegment s, long generation, long records) {
        s.asSlice(0, HEADER_BYTES).fill((byte) 0);
        Le.u64(s, GENERATION, generation);
        Le.u64(s, RECORDS, records);
        Le.u16(s, RECFMT, 0);
    }

    public static void entry(MemorySegment s, long offset, Entry e) {
        MemorySegment d = s.asSlice(offset, ENTRY_BYTES);
        d.fill((byte) 0);
        Le.u8(d, TRTYPE, TRTYPE_RDMA);
        Le.u8(d, ADRFAM, e.ipv6() ? ADRFAM_IPV6 : ADRFAM_IPV4);
        Le.u8(d, SUBTYPE, e.subtype());
        Le.u8(d, TREQ, 0);
        Le.u16(d, PORTID, 1);
        Le.u16(d, CNTLID, Connect.CNTLID_DYNAMIC);
        Le.u16(d, ASQSZ, e.adminQueueSize());
        Le.ascii(d, TRSVCID, 32, Integer.toString(e.port()), (byte) 0);
        Le.ascii(d, SUBNQN, 256, e.subnqn(), (byte) 0);
        Le.ascii(d, TRADDR, 256, e.address(), (byte) 0);
        Le.u8(d, TSAS, QPTYPE_CONNECTED);
        Le.u8(d, TSAS + 1, PRTYPE_NOT_SPECIFIED);
        Le.u8(d, TSAS + 2, CMS_RDMA_CM);
    }

    public static long records(MemorySegment s) {
        return Le.u64(s, RECORDS);
    }

    public static String subnqn(MemorySegment s, int index) {
        return Le.ascii(s, HEADER_BYTES + (long) index * ENTRY_BYTES + SUBNQN, 256);
    }

    public static String address(MemorySegment s, int index) {
        return Le.ascii(s, HEADER_BYTES + (long) index * ENTRY_BYTES + TRADDR, 256);
    }

    public static String serviceId(MemorySegment s, int index) {
        return Le.ascii(s, HEADER_BYTES + (long) index * ENTRY_BYTES + TRSVCID, 32);
    }
}

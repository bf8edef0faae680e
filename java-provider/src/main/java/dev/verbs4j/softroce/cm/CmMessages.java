package dev.verbs4j.softroce.cm;

import dev.verbs4j.Gid;
import dev.verbs4j.QpType;
import dev.verbs4j.cm.ConnectionParameters;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;

import static dev.verbs4j.softroce.cm.CmMad.*;

/** Writes and reads the CM messages' fields (IBTA 12.6); {@link CmAgent} decides when. */
final class CmMessages {
    private CmMessages() {
    }

    /** A REQ over RoCE: permissive LIDs, the GIDs of both ends, hop limit 64, and the RDMA CM header first in the private data. */
    static void req(MemorySegment mad, CmConnection c, QpType type, ConnectionParameters p, InetSocketAddress from,
                    InetSocketAddress to, Gid localGid, long caGuid, CmTimeouts t) {
        header(mad, ATTR_REQ, c.transactionId);
        u32(mad, LOCAL_COMM_ID, c.localCommId);
        u64(mad, REQ_SERVICE_ID, c.serviceId);
        u64(mad, REQ_LOCAL_CA_GUID, caGuid);
        u24(mad, REQ_LOCAL_QPN, c.localQpn);
        u8(mad, REQ_RESPONDER_RESOURCES, p.responderResources());
        u8(mad, REQ_INITIATOR_DEPTH, p.initiatorDepth());
        bits(mad, REQ_TIMEOUT_TYPE_FC, 0, 5, t.responseTimeout());
        bits(mad, REQ_TIMEOUT_TYPE_FC, 5, 2, type == QpType.UC ? TRANSPORT_UC : TRANSPORT_RC);
        bits(mad, REQ_TIMEOUT_TYPE_FC, 7, 1, p.flowControl() ? 1 : 0);
        u24(mad, REQ_STARTING_PSN, c.localPsn);
        bits(mad, REQ_LOCAL_TIMEOUT_RETRY, 0, 5, t.responseTimeout());
        bits(mad, REQ_LOCAL_TIMEOUT_RETRY, 5, 3, p.retryCount());
        u16(mad, REQ_PKEY, 0xFFFF);
        bits(mad, REQ_MTU_RDC_RNR, 0, 4, c.pathMtu.value());
        bits(mad, REQ_MTU_RDC_RNR, 5, 3, p.rnrRetryCount());
        bits(mad, REQ_CM_RETRIES_SRQ, 0, 4, t.maxRetries());
        bits(mad, REQ_CM_RETRIES_SRQ, 4, 1, p.srq() ? 1 : 0);
        u16(mad, REQ_PRIMARY_LOCAL_LID, PERMISSIVE_LID);
        u16(mad, REQ_PRIMARY_REMOTE_LID, PERMISSIVE_LID);
        gid(mad, REQ_PRIMARY_LOCAL_GID, localGid);
        gid(mad, REQ_PRIMARY_REMOTE_GID, c.remoteGid);
        u8(mad, REQ_PRIMARY_TRAFFIC_CLASS, c.trafficClass);
        u8(mad, REQ_PRIMARY_HOP_LIMIT, c.hopLimit);
        bits(mad, REQ_PRIMARY_ACK_TIMEOUT, 0, 5, Math.min(31, t.packetLife() + 1));
        CmaHeader.write(mad, REQ_PRIVATE_DATA, from, to);
        byte[] data = p.privateData();
        privateData(mad, REQ_PRIVATE_DATA + CmaHeader.LENGTH, data);
    }

    /**
     * Reads a REQ into a passive connection and returns the peer's offer seen from this side
     * (its initiator depth is this side's responder resources and back, as the kernel reports
     * it), with the private data after the RDMA CM header.
     */
    static ConnectionParameters readReq(MemorySegment mad, CmConnection c) {
        c.remoteCommId = u32(mad, LOCAL_COMM_ID);
        c.serviceId = u64(mad, REQ_SERVICE_ID);
        c.remoteCaGuid = u64(mad, REQ_LOCAL_CA_GUID);
        c.transactionId = u64(mad, TID);
        c.remoteQpn = u24(mad, REQ_LOCAL_QPN);
        c.remotePsn = u24(mad, REQ_STARTING_PSN);
        c.peerResponseTimeout = bits(mad, REQ_LOCAL_TIMEOUT_RETRY, 0, 5);
        c.maxRetries = bits(mad, REQ_CM_RETRIES_SRQ, 0, 4);
        c.peerResponderResources = u8(mad, REQ_RESPONDER_RESOURCES);
        c.peerInitiatorDepth = u8(mad, REQ_INITIATOR_DEPTH);
        c.peerRetryCount = bits(mad, REQ_LOCAL_TIMEOUT_RETRY, 5, 3);
        c.peerRnrRetryCount = bits(mad, REQ_MTU_RDC_RNR, 5, 3);
        c.peerSrq = bits(mad, REQ_CM_RETRIES_SRQ, 4, 1) != 0;
        c.remoteGid = readGid(mad, REQ_PRIMARY_LOCAL_GID);
        c.trafficClass = u8(mad, REQ_PRIMARY_TRAFFIC_CLASS);
        return offer(c, bits(mad, REQ_TIMEOUT_TYPE_FC, 7, 1) != 0).retryCount(c.peerRetryCount)
                .privateData(privateData(mad, REQ_PRIVATE_DATA + CmaHeader.LENGTH,
                        REQ_PRIVATE_DATA_SIZE - CmaHeader.LENGTH));
    }

    /** The transport service type of a REQ: RC, UC, or {@code null} for one this agent does not connect. */
    static QpType reqTransport(MemorySegment mad) {
        if (bits(mad, REQ_CM_RETRIES_SRQ, 5, 3) != 0) {
            return null; // XRC
        }
        return switch (bits(mad, REQ_TIMEOUT_TYPE_FC, 5, 2)) {
            case TRANSPORT_RC -> QpType.RC;
            case TRANSPORT_UC -> QpType.UC;
            default -> null;
        };
    }

    static int reqPathMtu(MemorySegment mad) {
        return bits(mad, REQ_MTU_RDC_RNR, 0, 4);
    }

    static void rep(MemorySegment mad, CmConnection c, ConnectionParameters p, long caGuid, int ackDelay) {
        header(mad, ATTR_REP, c.transactionId);
        u32(mad, LOCAL_COMM_ID, c.localCommId);
        u32(mad, REMOTE_COMM_ID, c.remoteCommId);
        u24(mad, REP_LOCAL_QPN, c.localQpn);
        u24(mad, REP_STARTING_PSN, c.localPsn);
        u8(mad, REP_RESPONDER_RESOURCES, p.responderResources());
        u8(mad, REP_INITIATOR_DEPTH, p.initiatorDepth());
        bits(mad, REP_ACK_DELAY_FAILOVER_FC, 0, 5, ackDelay);
        bits(mad, REP_ACK_DELAY_FAILOVER_FC, 7, 1, p.flowControl() ? 1 : 0);
        bits(mad, REP_RNR_SRQ, 0, 3, p.rnrRetryCount());
        bits(mad, REP_RNR_SRQ, 3, 1, p.srq() ? 1 : 0);
        u64(mad, REP_LOCAL_CA_GUID, caGuid);
        privateData(mad, REP_PRIVATE_DATA, p.privateData());
    }

    /** Reads a REP into an active connection and returns the peer's offer, seen from this side as for a REQ. */
    static ConnectionParameters readRep(MemorySegment mad, CmConnection c) {
        c.remoteCommId = u32(mad, LOCAL_COMM_ID);
        c.remoteCaGuid = u64(mad, REP_LOCAL_CA_GUID);
        c.remoteQpn = u24(mad, REP_LOCAL_QPN);
        c.remotePsn = u24(mad, REP_STARTING_PSN);
        c.peerResponderResources = u8(mad, REP_RESPONDER_RESOURCES);
        c.peerInitiatorDepth = u8(mad, REP_INITIATOR_DEPTH);
        c.peerRnrRetryCount = bits(mad, REP_RNR_SRQ, 0, 3);
        c.peerSrq = bits(mad, REP_RNR_SRQ, 3, 1) != 0;
        return offer(c, bits(mad, REP_ACK_DELAY_FAILOVER_FC, 7, 1) != 0).retryCount(0) // a REP has no retry count
                .privateData(privateData(mad, REP_PRIVATE_DATA, REP_PRIVATE_DATA_SIZE));
    }

    /** The peer's offer from what a REQ or REP told {@code c}, seen from this side (its depth is our resources). */
    private static ConnectionParameters offer(CmConnection c, boolean flowControl) {
        return new ConnectionParameters().responderResources(c.peerInitiatorDepth).initiatorDepth(c.peerResponderResources)
                .flowControl(flowControl).rnrRetryCount(c.peerRnrRetryCount).srq(c.peerSrq).qpNumber(c.remoteQpn);
    }

    static void rtu(MemorySegment mad, CmConnection c) {
        header(mad, ATTR_RTU, c.transactionId);
        u32(mad, LOCAL_COMM_ID, c.localCommId);
        u32(mad, REMOTE_COMM_ID, c.remoteCommId);
    }

    /**
     * A REJ. {@code localCommId} is 0 when rejecting a REQ that has no connection here yet,
     * as the kernel does for a request it refuses before accepting.
     */
    static void rej(MemorySegment mad, long transactionId, int localCommId, int remoteCommId, int message, int reason,
                    byte[] privateData) {
        header(mad, ATTR_REJ, transactionId);
        u32(mad, LOCAL_COMM_ID, localCommId);
        u32(mad, REMOTE_COMM_ID, remoteCommId);
        bits(mad, REJ_MESSAGE, 0, 2, message);
        u16(mad, REJ_REASON, reason);
        if (privateData != null) {
            privateData(mad, REJ_PRIVATE_DATA, privateData);
        }
    }

    static void dreq(MemorySegment mad, CmConnection c, long transactionId) {
        header(mad, ATTR_DREQ, transactionId);
        u32(mad, LOCAL_COMM_ID, c.localCommId);
        u32(mad, REMOTE_COMM_ID, c.remoteCommId);
        u24(mad, DREQ_REMOTE_QPN, c.remoteQpn);
    }

    /** A DREP answering the peer's DREQ on {@code c}. */
    static void drep(MemorySegment mad, CmConnection c) {
        header(mad, ATTR_DREP, c.dreqTransactionId);
        u32(mad, LOCAL_COMM_ID, c.localCommId);
        u32(mad, REMOTE_COMM_ID, c.remoteCommId);
    }

    /** A DREP answering the DREQ in {@code dreq}, from what that DREQ names. */
    static void drep(MemorySegment mad, MemorySegment dreq) {
        long tid = u64(dreq, TID);
        int theirs = u32(dreq, LOCAL_COMM_ID);
        int ours = u32(dreq, REMOTE_COMM_ID);
        header(mad, ATTR_DREP, tid);
        u32(mad, LOCAL_COMM_ID, ours);
        u32(mad, REMOTE_COMM_ID, theirs);
    }

    static ConnectionParameters withPrivateData(MemorySegment mad, int offset, int length) {
        return new ConnectionParameters().privateData(privateData(mad, offset, length));
    }

    private static void gid(MemorySegment mad, int offset, Gid gid) {
        byte[] raw = gid.toBytes();
        MemorySegment.copy(raw, 0, mad, ValueLayout.JAVA_BYTE, offset, raw.length);
    }

    private static Gid readGid(MemorySegment mad, int offset) {
        return Gid.fromBytes(privateData(mad, offset, 16));
    }
}

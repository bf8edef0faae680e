package dev.verbs4j.softroce.cm;

import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

/**
 * One connection of the {@link CmAgent}: both sides' communication ids, what was agreed, and
 * the message that is retransmitted until it is answered. Owned by the engine's thread.
 */
public final class CmConnection {
    CmEndpoint endpoint;
    CmState state = CmState.IDLE;
    final boolean active;
    final int localCommId;
    int remoteCommId;
    long remoteCaGuid;
    long transactionId;
    /** The transaction id of the peer's DREQ, which the DREP answers. */
    long dreqTransactionId;
    final InetAddress peer;
    long serviceId;

    int localQpn;
    int remoteQpn;
    int localPsn;
    int remotePsn;
    Mtu pathMtu;
    Gid remoteGid;
    int hopLimit = 64;
    int trafficClass;
    /** The peer's offer, from its REQ or REP, as the peer wants this side's queue pair set. */
    int peerResponderResources;
    int peerInitiatorDepth;
    int peerRetryCount;
    int peerRnrRetryCount;
    boolean peerSrq;
    /** How long the peer takes to answer, and how often this side retries a message to it. */
    int peerResponseTimeout = 20;
    int maxRetries;

    /** The last message sent that waits for an answer, sent again at {@link #deadlineNs}. */
    final MemorySegment pending = Arena.ofAuto().allocate(CmMad.SIZE, 8);
    boolean retransmitting;
    long deadlineNs;
    int retriesLeft;
    long waitNs;

    CmConnection(boolean active, int localCommId, InetAddress peer) {
        this.active = active;
        this.localCommId = localCommId;
        this.peer = peer;
    }

    /** The local communication id (the IBTA's Local Communication ID). */
    public int localCommId() {
        return localCommId;
    }

    /** The peer's queue pair number. */
    public int remoteQpn() {
        return remoteQpn;
    }

    /** The PSN the peer announced: the first it expects, which this side sends first. */
    public int remotePsn() {
        return remotePsn;
    }

    /** The PSN this side announced: the first it expects to receive. */
    public int localPsn() {
        return localPsn;
    }

    public Mtu pathMtu() {
        return pathMtu;
    }

    public Gid remoteGid() {
        return remoteGid;
    }

    public int hopLimit() {
        return hopLimit;
    }

    public int trafficClass() {
        return trafficClass;
    }

    /** READ and atomic requests the peer takes in flight: this side's initiator depth at most. */
    public int peerResponderResources() {
        return peerResponderResources;
    }

    /** READ and atomic requests the peer sends in flight: this side's responder resources at least. */
    public int peerInitiatorDepth() {
        return peerInitiatorDepth;
    }

    /** The transport retry count the peer asks this side's queue pair to use (from a REQ). */
    public int peerRetryCount() {
        return peerRetryCount;
    }

    /** The RNR retry count the peer asks this side's queue pair to use. */
    public int peerRnrRetryCount() {
        return peerRnrRetryCount;
    }

    public boolean isActive() {
        return active;
    }

    public InetAddress peer() {
        return peer;
    }

    /** The state's name, for diagnostics. */
    public String stateName() {
        return state.name();
    }

    @Override
    public String toString() {
        return "CmConnection[" + (active ? "active" : "passive") + " " + Integer.toHexString(localCommId) + "/"
                + Integer.toHexString(remoteCommId) + " " + state + " peer " + peer.getHostAddress() + "]";
    }
}

package dev.verbs4j.softroce.engine;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One send queue slot: a copy of the posted request plus the requester's progress on it.
 * Slots are allocated with the queue pair and reused; posting copies into them.
 */
final class Wqe {
    /** Posted, no packet sent yet. */
    static final int POSTED = 0;
    /** Some packets sent. */
    static final int SENDING = 1;
    /** Every packet sent; waiting for the acknowledgement or response. */
    static final int SENT = 2;
    /** Finished; the completer reports {@link #status}. */
    static final int DONE = 3;

    long wrId;
    WrOpcode opcode;
    int flags;
    int immData;
    int invalidateRkey;
    long remoteAddress;
    int rkey;
    long compareAdd;
    long swap;
    long remoteLength;
    int flushType;
    int flushLevel;
    Object ah;
    int remoteQpn;
    int remoteQkey;
    Object mw;
    Object region;
    int newKey;
    int accessMask;
    long bindAddress;
    long bindLength;
    long[] pages = new long[0];
    int pageCount;
    int pageShift;

    final ScatterGatherList sges;
    final MemorySegment inline;
    boolean isInline;
    long totalLength;

    int state;
    WcStatus status = WcStatus.SUCCESS;
    int firstPsn;
    int lastPsn;
    /** Bytes of the message already carried by sent packets (or, for a read, requested). */
    long sentBytes;
    /** Bytes of a read response already placed, or 8 once an atomic result arrived. */
    long receivedBytes;
    /** For a read: whether the answer to the latest read request has started (FIRST seen). */
    boolean responseStarted;
    /** PSNs this request consumes: packets for sends and writes, response packets for a read. */
    int psnCount;

    Wqe(int maxSge, int maxInline, Arena arena) {
        sges = new ScatterGatherList(maxSge);
        inline = maxInline > 0 ? arena.allocate(maxInline, 8) : MemorySegment.NULL;
    }

    /** Copies a request into this slot; inline data is copied by {@code inlineSource} (null when not inline). */
    void copyFrom(SendWorkRequest wr, InlineSource inlineSource) {
        wrId = wr.wrId();
        opcode = wr.opcode();
        flags = wr.flags();
        immData = wr.immData();
        invalidateRkey = wr.invalidateRkey();
        remoteAddress = wr.remoteAddress();
        rkey = wr.rkey();
        compareAdd = wr.compareAdd();
        swap = wr.swap();
        remoteLength = wr.remoteLength();
        flushType = wr.flushType();
        flushLevel = wr.flushLevel().value();
        ah = wr.ah();
        remoteQpn = wr.remoteQpn();
        remoteQkey = wr.remoteQkey();
        mw = wr.mw();
        region = wr.region();
        newKey = wr.newKey();
        accessMask = wr.accessMask();
        bindAddress = wr.bindAddress();
        bindLength = wr.bindLength();
        pageShift = wr.pageShift();
        pageCount = 0;
        if (opcode == WrOpcode.REG_MR && wr.pages() != null) {
            pageCount = wr.pageCount();
            if (pages.length < pageCount) {
                pages = new long[pageCount];
            }
            System.arraycopy(wr.pages(), 0, pages, 0, pageCount);
        }
        sges.copyFrom(wr.sges());
        totalLength = sges.totalLength();
        isInline = inlineSource != null;
        if (isInline) {
            inlineSource.copy(sges, inline);
        }
        state = POSTED;
        status = WcStatus.SUCCESS;
        sentBytes = 0;
        receivedBytes = 0;
        responseStarted = false;
        psnCount = 0;
    }

    boolean isReadLike() {
        return opcode.usesResponderResources();
    }

    boolean isLocal() {
        return opcode.isLocal();
    }
}

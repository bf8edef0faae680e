package dev.verbs4j.replicatedlog;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The writer of a replicated log. Each {@link #append} sends, to every replica at once:
 * <ol>
 * <li>RDMA WRITE of the record after the published tail,</li>
 * <li>FLUSH of the record's range (placement type persistent, or global visibility only),</li>
 * <li>ATOMIC WRITE of the new tail, fenced: it leaves only when the FLUSH has completed,</li>
 * <li>FLUSH of the tail word, signaled;</li>
 * </ol>
 * and returns once every replica's last FLUSH completed: from then on the record survives a
 * power loss of any replica. Only the last request is signaled; an error in any of them
 * completes with its status and fails the append. After construction nothing allocates.
 */
public final class Replicator implements AutoCloseable {
    private static final int SEND_DEPTH = 16;
    private static final int ACK_TIMEOUT = 18;

    private final Arena arena = Arena.ofShared();
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair[] qps;
    private final Socket[] sideChannels;
    private final long[] remoteBase;
    private final int[] rkeys;
    private final MemorySegment staging;
    private final MemoryRegion stagingRegion;
    private final CRC32C crc = new CRC32C();
    private final SendWorkRequest write = new SendWorkRequest();
    private final SendWorkRequest flushRecord = new SendWorkRequest();
    private final SendWorkRequest publish = new SendWorkRequest();
    private final SendWorkRequest flushTail = new SendWorkRequest();
    private final WorkCompletion[] completions;
    private final FlushType placement;
    private final boolean fence;
    private final long timeoutNanos;
    private long capacity;
    private long tail;
    private long nextSeq;

    /**
     * Connects to every server and resumes the log where all of them agree: at the smallest
     * published tail. A replica that published more (appends that were never acknowledged)
     * is cut back to it first, so that records rewritten there are never covered by a stale tail.
     *
     * @param placement  {@link FlushType#PERSISTENT} for durability, {@link FlushType#GLOBAL} for visibility only
     * @param fence      whether the ATOMIC WRITE waits for the record's FLUSH to complete
     *                   (false trusts the responder to execute the requests in order)
     */
    public Replicator(DeviceContext context, List<InetSocketAddress> servers, int maxPayload, FlushType placement,
                      boolean fence, Duration timeout) throws IOException {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("no server to replicate to");
        }
        this.placement = placement;
        this.fence = fence;
        this.timeoutNanos = timeout.toNanos();
        int n = servers.size();
        pd = context.allocatePd();
        cq = context.createCq(SEND_DEPTH * n);
        qps = new QueuePair[n];
        sideChannels = new Socket[n];
        remoteBase = new long[n];
        rkeys = new int[n];
        completions = new WorkCompletion[n];
        staging = arena.allocate(LogLayout.recordBytes(maxPayload), 4096);
        stagingRegion = pd.registerMemory(staging, EnumSet.of(Access.LOCAL_WRITE));
        try {
            connect(servers, timeout);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The side channel to every server, the QPs brought up, and the replicas cut back to the common tail. */
    private void connect(List<InetSocketAddress> servers, Duration timeout) throws IOException {
        int n = servers.size();
        long[] tails = new long[n];
        long minTail = Long.MAX_VALUE;
        long seqAtMin = 1;
        long minCapacity = Long.MAX_VALUE;
        // A persistent FLUSH waits for the disk: an ACK timeout of about 1 s (4.096 µs * 2^18)
        // instead of 67 ms, so that a slow write-back is not taken for a lost packet.
        RcOptions options = new RcOptions().timeout(ACK_TIMEOUT);
        for (int i = 0; i < n; i++) {
            completions[i] = new WorkCompletion();
            qps[i] = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(SEND_DEPTH, 1, 1, 1, 0)
                    .allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE));
            sideChannels[i] = new Socket();
            sideChannels[i].connect(servers.get(i), (int) timeout.toMillis());
            sideChannels[i].setSoTimeout((int) timeout.toMillis());
            Handshake.Offer offer = Handshake.join(sideChannels[i], qps[i], options);
            remoteBase[i] = offer.endpoint().address();
            rkeys[i] = offer.endpoint().rkey();
            tails[i] = offer.tail();
            minCapacity = Math.min(minCapacity, offer.capacity());
            if (offer.tail() < minTail) {
                minTail = offer.tail();
                seqAtMin = offer.nextSeq();
            }
        }
        this.capacity = minCapacity;
        tail = minTail;
        nextSeq = seqAtMin;
        int behind = 0;
        for (int i = 0; i < n; i++) {
            if (tails[i] != tail) {
                postPublish(i);
                behind++;
            }
        }
        awaitCompletions(behind);
    }

    /** The published tail: bytes of records every replica holds durably. */
    public long tail() {
        return tail;
    }

    /** The sequence number the next append gets. */
    public long nextSeq() {
        return nextSeq;
    }

    /** The replicas. */
    public int replicas() {
        return qps.length;
    }

    /**
     * Appends the first {@code length} bytes of {@code payload} to every replica and returns
     * its sequence number once all of them have the record and the tail that covers it
     * flushed with the chosen placement type.
     *
     * @throws VerbsException ENOSPC when the log is full, EIO when a replica's request
     *                        failed, ETIMEDOUT when one did not complete in time
     */
    public long append(byte[] payload, int length) {
        if (length > staging.byteSize() - LogLayout.RECORD_HEADER_BYTES) {
            throw new IllegalArgumentException("payload of " + length + " bytes exceeds the " + (staging.byteSize() - LogLayout.RECORD_HEADER_BYTES) + " this replicator was made for");
        }
        int bytes = LogLayout.recordBytes(length);
        if (tail + bytes > capacity) {
            throw new VerbsException(Errno.ENOSPC, "the log is full: " + tail + " of " + capacity + " bytes used");
        }
        long seq = nextSeq;
        LogLayout.encode(staging, 0, seq, payload, length, crc);
        long newTail = tail + bytes;
        for (int i = 0; i < qps.length; i++) {
            long recordAddress = remoteBase[i] + LogLayout.HEADER_BYTES + tail;
            qps[i].postSend(write.wrId(i).signaled(false).buffer(stagingRegion, 0, bytes).rdmaWrite(recordAddress, rkeys[i]));
            qps[i].postSend(flushRecord.wrId(i).signaled(false)
                    .flush(recordAddress, rkeys[i], bytes, placement, FlushLevel.RANGE));
        }
        long oldTail = tail;
        tail = newTail;
        try {
            for (int i = 0; i < qps.length; i++) {
                postPublish(i);
            }
            awaitCompletions(qps.length);
        } catch (RuntimeException e) {
            tail = oldTail;
            throw e;
        }
        nextSeq = seq + 1;
        return seq;
    }

    /** ATOMIC WRITE of {@link #tail} to replica {@code i}, then a signaled FLUSH of it. */
    private void postPublish(int i) {
        long tailAddress = remoteBase[i] + LogLayout.TAIL_OFFSET;
        qps[i].postSend(publish.wrId(i).signaled(false).fence(fence)
                .atomicWrite(tailAddress, rkeys[i], LogLayout.tailWord(tail)));
        qps[i].postSend(flushTail.wrId(i).signaled(true).flush(tailAddress, rkeys[i], 8, placement, FlushLevel.RANGE));
    }

    private void awaitCompletions(int expected) {
        long deadline = System.nanoTime() + timeoutNanos;
        int seen = 0;
        while (seen < expected) {
            int got = cq.poll(completions, expected - seen);
            for (int k = 0; k < got; k++) {
                WorkCompletion wc = completions[k];
                if (wc.status() != WcStatus.SUCCESS) {
                    throw new VerbsException(Errno.EIO, "replica " + wc.wrId() + ": " + wc.opcode() + " completed with " + wc.status());
                }
            }
            seen += got;
            if (got == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new VerbsException(Errno.ETIMEDOUT, (expected - seen) + " replica(s) did not complete the append in time");
                }
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < qps.length; i++) {
            if (qps[i] != null) {
                qps[i].close();
            }
            if (sideChannels[i] != null) {
                try {
                    sideChannels[i].close();
                } catch (IOException ignored) {
                    // The server notices the closed channel either way.
                }
            }
        }
        stagingRegion.close();
        cq.close();
        pd.close();
        arena.close();
    }
}

#!/usr/bin/env bash
# One boot of the power-loss test (scripts/vm-power-loss.py boots it with the log disk as
# /dev/vda, then SIGKILLs qemu): mounts the disk's ext4 (no journal; the replicas' log files
# are allocated at full size, so appending rewrites data blocks only), makes the guest keep
# dirty pages as long as it can (nothing but an explicit write-back, the soft provider's
# force() on a persistent FLUSH, puts them on the disk), starts one soft-provider log server
# per replica and runs the append client until the VM dies. Its "ack seq=N" lines are what
# the host counts as acknowledged.
#
# Environment: POWER_LOSS_REPLICAS (2), POWER_LOSS_SIZE (payload bytes, 64),
# POWER_LOSS_SKIP_FORCE=1 for the negative control (the soft provider's test-only switch),
# POWER_LOSS_PROBE_RXE=1 to try the server on the kernel's rxe0 first (ibverbs provider) and
# print whether it can register the file for persistent FLUSH ("rxe-probe: ..." line).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/vm-guest-env.sh
replicas=${POWER_LOSS_REPLICAS:-2}
size=${POWER_LOSS_SIZE:-64}

# No periodic write-back, no expiry within a boot, no background write-back below 90 % of memory.
echo 0 > /proc/sys/vm/dirty_writeback_centisecs
echo 8640000 > /proc/sys/vm/dirty_expire_centisecs
echo 90 > /proc/sys/vm/dirty_background_ratio
echo 95 > /proc/sys/vm/dirty_ratio

modprobe virtio_blk
modprobe ext4
for _ in $(seq 1 100); do [ -b /dev/vda ] && break; sleep 0.1; done
[ -b /dev/vda ] || { echo "power-loss guest: no /dev/vda (run.sh -d IMAGE)" >&2; exit 1; }
mkdir -p /mnt/log
mount -t ext4 /dev/vda /mnt/log

classpath="$(cat examples/replicated-log/target/runtime-classpath.txt):examples/replicated-log/target/classes"

# The kernel rxe takes IBV_ACCESS_FLUSH_PERSISTENT only for pages of a persistent-memory
# device: the same server on rxe0 shows what it answers for a file on an ordinary disk.
if [ "${POWER_LOSS_PROBE_RXE:-0}" = 1 ]; then
    if [ -s conformance-tests/target/conformance-classpath.txt ]; then
        probe_cp="$(cat conformance-tests/target/conformance-classpath.txt):examples/replicated-log/target/classes"
        java_run -cp "$probe_cp" \
            dev.verbs4j.replicatedlog.Main server --provider ibverbs --device rxe0 \
            --file /mnt/log/replica0.log --port 18799 --bind 127.0.0.1 > /tmp/rxe-probe.log 2>&1 &
        probe_pid=$!
        if await 180 "$probe_pid" has_line /tmp/rxe-probe.log '^ready '; then
            kill $(process_tree "$probe_pid")
            echo "rxe-probe: rxe0 registered the file for persistent FLUSH (not expected; not tested here)"
        else
            probe_status=0
            wait "$probe_pid" || probe_status=$?
            if grep -q 'persistent placement unavailable' /tmp/rxe-probe.log; then
                echo "rxe-probe: skipped: $(grep -m1 'persistent placement unavailable' /tmp/rxe-probe.log)"
            else
                echo "rxe-probe: the server on rxe0 failed otherwise (status $probe_status): $(head -c 400 /tmp/rxe-probe.log | tr '\n' ' ')"
            fi
        fi
    else
        echo "rxe-probe: not run: no ibverbs provider build (conformance-tests/target/conformance-classpath.txt)"
    fi
fi
skip=()
[ "${POWER_LOSS_SKIP_FORCE:-0}" != 1 ] || skip=(-Dverbs4j.soft.testOnly.skipForce=true)
servers=()
pids=()
for ((i = 0; i < replicas; i++)); do
    java_run -XX:+UseSerialGC -Dverbs4j.soft.devices="replica$i=127.0.0.$((i + 1)):27995" "${skip[@]}" \
        -cp "$classpath" dev.verbs4j.replicatedlog.Main server --file "/mnt/log/replica$i.log" \
        --port $((18700 + i)) --bind 127.0.0.1 > "/tmp/server$i.log" 2>&1 &
    pids+=($!)
    servers+=(--server "127.0.0.1:$((18700 + i))")
done
for ((i = 0; i < replicas; i++)); do
    if ! await 180 "${pids[$i]}" has_line "/tmp/server$i.log" '^ready '; then
        echo "power-loss guest: replica $i did not start:" >&2
        cat "/tmp/server$i.log" >&2
        exit 1
    fi
    grep '^server ' "/tmp/server$i.log"
done
echo "power-loss guest: $replicas replica(s) ready, appending $size-byte records"
# A writer whose append failed (a replica too slow for the retries under emulation) starts
# again and resumes where the replicas agree; only the kill ends this boot.
for attempt in 1 2 3 4 5; do
    status=0
    java_run -XX:+UseSerialGC \
        -Dverbs4j.soft.devices=writer=127.0.0.100:27995 -cp "$classpath" \
        dev.verbs4j.replicatedlog.Main append "${servers[@]}" --size "$size" || status=$?
    echo "power-loss guest: the writer exited with status $status (attempt $attempt), starting it again"
done
exit 1

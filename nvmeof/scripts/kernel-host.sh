#!/usr/bin/env bash
# The Linux host (nvme-rdma on rxe0) against the verbs4j target (soft provider), in the
# rxe-vm guest's veth mode: the target runs in network namespace "peer" on 10.9.0.2, the
# kernel host in the root namespace on rxe0 over veth0 (10.9.0.1).
#
#   mvn -pl nvmeof dependency:build-classpath -Dmdep.includeScope=test \
#       -Dmdep.outputFile=nvmeof/target/vm-classpath.txt
#   rxe-vm/run.sh -n veth -t 900 -e JAVA_HOME=$JAVA_HOME -- bash nvmeof/scripts/kernel-host.sh
#
# Checks: discovery (the log page read with the admin passthrough ioctl), connect, a seeded
# 8 MiB written and read back with O_DIRECT on both namespaces, flush, disconnect.
set -uo pipefail
cd "$(dirname "$0")/../.."
source nvmeof/scripts/checks.sh
nqn=nqn.2026-01.dev.verbs4j:vm
hostid=5e7a0c1e-0000-4000-8000-000000000001
hostnqn=nqn.2014-08.org.nvmexpress:uuid:$hostid

ip netns exec peer "$java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 \
    -Dverbs4j.soft.devices=p0=10.9.0.2 -cp "$cp" dev.verbs4j.nvmeof.TargetMain --provider soft \
    --address 10.9.0.2 --port 4420 --subsystem "$nqn" --namespace mem:32M \
    --namespace "file:$work/ns2.img:16M:4096" >"$work/target.log" 2>&1 &
target=$!
for _ in $(seq 1 600); do
    grep -q "nvmeof target on" "$work/target.log" && break
    sleep 0.1
done
cat "$work/target.log"
modprobe nvme_rdma || { echo "no nvme_rdma module"; exit 1; }

discovery() {
    local instance
    printf 'transport=rdma,traddr=10.9.0.2,trsvcid=4420,nqn=nqn.2014-08.org.nvmexpress.discovery,hostnqn=%s,hostid=%s' \
        "$hostnqn" "$hostid" >/dev/nvme-fabrics || return 1
    instance=$(grep -l nvmexpress.discovery /sys/class/nvme/*/subsysnqn | head -1 | xargs -r dirname | xargs -r basename)
    [ -n "$instance" ] || return 1
    python3 - "/dev/$instance" "$nqn" <<'PY'
import fcntl, struct, sys, ctypes
dev, nqn = sys.argv[1], sys.argv[2]
length = 4096
buf = ctypes.create_string_buffer(length)
dwords = length // 4 - 1
# struct nvme_passthru_cmd: opcode flags rsvd nsid cdw2 cdw3 metadata addr metadata_len data_len cdw10..15 timeout result
cmd = struct.pack('<BBHIIIQQIIIIIIIIII', 0x02, 0, 0, 0, 0, 0, 0, ctypes.addressof(buf), 0, length,
                  0x70 | (dwords & 0xffff) << 16, dwords >> 16, 0, 0, 0, 0, 0, 0)
arg = ctypes.create_string_buffer(cmd, len(cmd))
with open(dev, 'rb', buffering=0) as f:
    fcntl.ioctl(f.fileno(), 0xC0484E41, arg)
data = buf.raw
records = struct.unpack_from('<Q', data, 8)[0]
print('discovery log:', records, 'record(s)')
names = [data[1024 + i * 1024 + 256:1024 + i * 1024 + 512].rstrip(b'\0').decode() for i in range(records)]
print(' ', names)
sys.exit(0 if nqn in names else 1)
PY
    local rc=$?
    echo 1 >"/sys/class/nvme/$instance/delete_controller"
    return $rc
}
check "nvme discover: the discovery log lists the subsystem" discovery

connect() {
    printf 'transport=rdma,traddr=10.9.0.2,trsvcid=4420,nqn=%s,hostnqn=%s,hostid=%s,nr_io_queues=2' "$nqn" "$hostnqn" "$hostid" \
        >/dev/nvme-fabrics || return 1
    for _ in $(seq 1 100); do
        [ "$(ls /sys/block | grep -c '^nvme[0-9]*n[0-9]*$')" = 2 ] && return 0
        sleep 0.1
    done
    return 1
}
check "nvme connect: the controller and two namespaces appear" connect
ctrl=$(grep -l "$nqn" /sys/class/nvme/*/subsysnqn 2>/dev/null | head -1 | xargs -r dirname | xargs -r basename)
echo "controller: ${ctrl:-none}"
for block in $(ls /sys/block | grep '^nvme[0-9]*n[0-9]*$'); do
    echo "/dev/$block: $(cat /sys/block/$block/size) sectors of 512, logical block $(cat /sys/block/$block/queue/logical_block_size)"
done
roundtrip() { # device
    head -c 8M /dev/urandom >"$work/pattern"
    dd if="$work/pattern" of="$1" bs=1M oflag=direct status=none || return 1
    blockdev --flushbufs "$1" 2>/dev/null
    dd if="$1" of="$work/back" bs=1M count=8 iflag=direct status=none || return 1
    cmp "$work/pattern" "$work/back"
}
for block in $(ls /sys/block | grep '^nvme[0-9]*n[0-9]*$'); do
    check "write and read back 8 MiB on /dev/$block" roundtrip "/dev/$block"
done
if [ -n "$ctrl" ]; then
    cat "/sys/class/nvme/$ctrl"/{cntlid,model,serial,queue_count,sqsize} 2>/dev/null | tr '\n' ' '
    echo
    check "disconnect" sh -c "echo 1 >/sys/class/nvme/$ctrl/delete_controller"
fi
dmesg | grep -i nvme | tail -20
kill "$target" 2>/dev/null
wait "$target" 2>/dev/null
checks_end

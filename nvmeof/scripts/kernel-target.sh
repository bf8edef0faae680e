#!/usr/bin/env bash
# The verbs4j host (soft provider) against the Linux target (nvmet-rdma on rxe0), in the
# rxe-vm guest's veth mode: the kernel target in the root namespace on 10.9.0.1, the host
# in network namespace "peer" on 10.9.0.2.
#
#   mvn -pl nvmeof dependency:build-classpath -Dmdep.includeScope=test \
#       -Dmdep.outputFile=$PWD/nvmeof/target/vm-classpath.txt
#   rxe-vm/run.sh -n veth -t 900 -e JAVA_HOME=$JAVA_HOME -- bash nvmeof/scripts/kernel-target.sh
#
# Checks: discovery, then seeded writes read back at depth with each key method the soft
# provider has (fast registration, type 2 windows, region keys), keyed and in capsule.
set -uo pipefail
cd "$(dirname "$0")/../.."
source nvmeof/scripts/checks.sh
nqn=nqn.2026-01.dev.verbs4j:kernel-target

modprobe nvmet_rdma || { echo "no nvmet_rdma module"; exit 1; }
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
cfg=/sys/kernel/config/nvmet
mkdir "$cfg/subsystems/$nqn"
echo 1 >"$cfg/subsystems/$nqn/attr_allow_any_host"
# On tmpfs, whose inodes say 4 KiB blocks: the guest's /tmp is an overlay whose inodes say
# none, and nvmet takes the file's block size for the namespace's (1 byte there).
mount -t tmpfs -o size=80M none "$work"
truncate -s 64M "$work/ns1.img"
mkdir "$cfg/subsystems/$nqn/namespaces/1"
echo -n "$work/ns1.img" >"$cfg/subsystems/$nqn/namespaces/1/device_path"
echo 1 >"$cfg/subsystems/$nqn/namespaces/1/enable"
mkdir "$cfg/ports/1"
echo rdma >"$cfg/ports/1/addr_trtype"
echo ipv4 >"$cfg/ports/1/addr_adrfam"
echo 10.9.0.1 >"$cfg/ports/1/addr_traddr"
echo 4420 >"$cfg/ports/1/addr_trsvcid"
ln -s "$cfg/subsystems/$nqn" "$cfg/ports/1/subsystems/$nqn"

host() { # HostMain arguments...
    ip netns exec peer "$java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 \
        -Dverbs4j.soft.devices=p0=10.9.0.2 -cp "$cp" dev.verbs4j.nvmeof.HostMain --provider soft \
        --source 10.9.0.2 --address 10.9.0.1 --port 4420 "$@"
}
discover() {
    host --discover | tee "$work/discovery.txt" && grep -q "$nqn" "$work/discovery.txt"
}
check "discovery lists the kernel's subsystem" discover
check "fast registration, keyed and in capsule, 2 queues at depth 32" \
    host --subsystem "$nqn" --queues 2 --depth 32 --io-bytes 16K --count 256 --seed 1
check "fast registration, 4 KiB in capsule" \
    host --subsystem "$nqn" --depth 32 --io-bytes 4K --count 256 --seed 2
check "type 2 windows" host --subsystem "$nqn" --depth 16 --io-bytes 8K --count 128 --seed 3 --key-method window
check "region keys, nothing in capsule" \
    host --subsystem "$nqn" --depth 16 --io-bytes 8K --count 128 --seed 4 --key-method region --no-in-capsule
dmesg | grep -i nvmet | tail -20
checks_end

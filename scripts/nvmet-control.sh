#!/usr/bin/env bash
# blktests' external target control (NVME_TARGET_CONTROL) for verbs4j's NVMe-oF target: the
# nvme group's tests call it to learn where the target is and to make and remove the
# subsystem each test connects to, instead of writing nvmet's configfs. Runs in the micro-VM
# (scripts/vm-guest-blktests.sh), as root, with a host build.
#
#   nvmet-control.sh config --show-trtype|--show-blkdev-type|--show-hostnqn|--show-hostid|
#                           --show-host-traddr|--show-traddr|--show-trsvid|--show-subsys-uuid|--show-subsysnqn
#   nvmet-control.sh setup --subsysnqn NQN --subsys-uuid UUID --hostnqn NQN [--hostkey K] [--ctrlkey K]
#   nvmet-control.sh cleanup --subsysnqn NQN
#   nvmet-control.sh stop                       # ends the target, whatever it serves
#
# The target: TargetMain on the soft provider in namespace 'peer' at 10.9.0.2
# (NVMET_CONTROL_PROVIDER=soft, the default) or on the ibverbs provider on rxe0 at 10.9.0.1
# (=ibverbs), port 4420. It starts with the first setup and runs until stop; setup offers a
# subsystem to it and cleanup withdraws one through its control pipe (TargetMain --control),
# as nvmet's configfs changes a running kernel target: the hosts of other subsystems keep
# their controllers, and a host whose subsystem comes back reconnects within its reconnect
# delay. Each subsystem has one namespace, a file of NVME_IMG_SIZE (default 64M) with the
# subsystem's UUID as the namespace's, and admits only its host NQN.
# The largest transfer is 1 MiB (MDTS 8), as nvmet-rdma's: blktests' nvme/029 passes 512 KiB
# through nvme-cli's passthrough, which the host cannot split as it splits block I/O; the
# queues are 32 entries deep to keep the buffers that needs (two per entry) at 64 MiB a queue.
# State and logs in NVMET_CONTROL_STATE (default /run/verbs4j-nvmet).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
state=${NVMET_CONTROL_STATE:-/run/verbs4j-nvmet}
provider=${NVMET_CONTROL_PROVIDER:-soft}
case $provider in
    soft) address=10.9.0.2 ;;
    ibverbs) address=10.9.0.1 ;;
    *) echo "nvmet-control: NVMET_CONTROL_PROVIDER is soft or ibverbs, not '$provider'" >&2; exit 2 ;;
esac
hostid=5e7a0c1e-0000-4000-8000-00000000b1c7
hostnqn=nqn.2014-08.org.nvmexpress:uuid:$hostid
subsysnqn=blktests-subsystem-1
subsys_uuid=91fdba0d-0000-4c25-b80f-000000000001
mkdir -p "$state"

log=$state/target.log
fifo=$state/control

running() {
    local pid
    pid=$(cat "$state/pid" 2>/dev/null) && kill -0 "$pid" 2>/dev/null
}

stop_target() {
    local pid
    pid=$(cat "$state/pid" 2>/dev/null) || return 0
    rm -f "$state/pid"
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
}

# Starts the target with no subsystem, reading the control pipe; returns once it does.
start_target() {
    local run=() devices=()
    cd "$root" || return 1
    # shellcheck source=vm-guest-env.sh
    source scripts/vm-guest-env.sh
    local classpath java
    classpath=$(nvmeof_classpath)
    java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1)
    [ ! -f "$(cds_archive "$classpath")" ] || java+=(-XX:SharedArchiveFile="$(cds_archive "$classpath")" -Xlog:cds=off)
    [ "$provider" = ibverbs ] || { run=(ip netns exec peer); devices=(-Dverbs4j.soft.devices=p0=$address); }
    rm -f "$fifo"
    mkfifo "$fifo" || return 1
    : > "$log"
    "${run[@]}" "${java[@]}" "${devices[@]}" -cp "$classpath" dev.verbs4j.nvmeof.TargetMain --provider "$provider" \
        --address "$address" --port 4420 --mdts 8 --queue-entries 32 --control "$fifo" >> "$log" 2>&1 < /dev/null &
    echo $! > "$state/pid"
    for _ in $(seq 1 600); do
        grep -q "^control: reading" "$log" && return 0
        running || return 1
        sleep 0.1
    done
    return 1
}

# Sends one command through the control pipe; returns 0 when the target's answer is not an error.
control() {
    local mark answer
    running || start_target || { echo "nvmet-control: the target did not start (log: $log)" >&2; return 1; }
    mark=$(wc -l < "$log")
    echo "$*" > "$fifo"
    for _ in $(seq 1 300); do
        answer=$(tail -n +"$((mark + 1))" "$log" | grep -m 1 "^control: ")
        if [ -n "$answer" ]; then
            echo "$answer" >> "$state/control.log"
            [[ $answer != "control: error"* ]]
            return
        fi
        sleep 0.1
    done
    echo "nvmet-control: no answer to '$*' (log: $log)" >&2
    return 1
}

option() { # NAME ARGS...: the value after --NAME in ARGS
    local name=$1
    shift
    while [ $# -gt 0 ]; do
        [ "$1" != "--$name" ] || { echo "${2:-}"; return 0; }
        shift
    done
}

command=${1:-}
shift || true
case $command in
    config)
        case ${1:-} in
            --show-trtype) echo rdma ;;
            --show-blkdev-type) echo file ;;
            --show-hostnqn) echo "$hostnqn" ;;
            --show-hostid) echo "$hostid" ;;
            --show-host-traddr) echo 10.9.0.1 ;;
            --show-traddr) echo "$address" ;;
            --show-trsvid) echo 4420 ;;
            --show-subsys-uuid) echo "$subsys_uuid" ;;
            --show-subsysnqn) echo "$subsysnqn" ;;
            *) echo "nvmet-control: no config item '${1:-}'" >&2; exit 2 ;;
        esac ;;
    setup)
        nqn=$(option subsysnqn "$@")
        uuid=$(option subsys-uuid "$@")
        host=$(option hostnqn "$@")
        if [ -n "$(option hostkey "$@")$(option ctrlkey "$@")" ]; then
            echo "nvmet-control: the target has no in-band authentication (DH-HMAC-CHAP)" >&2
            exit 1
        fi
        [ -n "$nqn" ] && [ -n "$uuid" ] && [ -n "$host" ] || { echo "nvmet-control: setup needs --subsysnqn, --subsys-uuid and --hostnqn" >&2; exit 2; }
        rm -f "$state/$nqn.img"
        control offer "$nqn" "$host" "file:$state/$nqn.img:${NVME_IMG_SIZE:-64M}:uuid=$uuid" ;;
    cleanup)
        nqn=$(option subsysnqn "$@")
        ! running || control withdraw "$nqn"
        rm -f "$state/$nqn.img" ;;
    stop)
        stop_target ;;
    *)
        echo "usage: nvmet-control.sh config|setup|cleanup|stop [OPTIONS]" >&2
        exit 2 ;;
esac

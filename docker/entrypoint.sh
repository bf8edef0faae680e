#!/usr/bin/env bash
# Creates a Soft-RoCE device on the host kernel's rdma_rxe, then runs the verbs4j
# conformance suite against it through the ibverbs provider and writes the report;
# or (CONFORMANCE_ROLE=agent) serves as the remote side of a suite in another container.
#
#   entrypoint.sh [CONFORMANCE_MAIN_OPTION]...     (e.g. --select base --timeout-ms 10000)
#
# Needs: rdma_rxe loaded on the host (the container loads nothing), a privileged
# container (RDMA netlink wants CAP_NET_ADMIN, the uverbs device node wants mknod
# and the device cgroup) and the host's network namespace (`--network host`):
# kernels without per-namespace rxe sockets (rxe_ns.c, recent mainline only) open
# the rxe UDP socket on port 4791 and look up routes in the initial namespace only.
#
# Environment (all optional):
#   RXE_DEVICE         device to use or create (default rxe0); an rxe device that
#                      already sits on RXE_NETDEV is used instead of creating one
#   RXE_NETDEV         interface for a new device (default: the default route's, else eth0)
#   CONFORMANCE_ROLE   suite (default) or agent: instead of the suite, the conformance agent
#                      (AgentMain) with the ibverbs provider, listening on AGENT_PORT (default
#                      18601) of the interface's IPv4 address until one suite's session ends;
#                      the suite runs elsewhere with --peer-provider ibverbs --peer-device rxe0
#                      --peer-agent ADDRESS:PORT (docker/README.md, two containers)
#   REPORT_DIR         report folder (default /report): <label>.json, the matrix, ibv_devinfo.txt
#   CONFORMANCE_LABEL  the run's label, names the JSON and the matrix column (default ibverbs-kernel-rxe)
#   VERBS4J_LIB        folder with the suite's jars (default /opt/verbs4j/lib)
#   JAVA               java launcher (default java)
#   SYSFS_ROOT, RDMA_CDEV_DIR   /sys and /dev/infiniband, for tests
#
# Exit status: the suite's (0 no case failed, 1 some failed, 2 usage) or the agent's (0
# once its session ended), or 3 when
# the device could not be set up. A device this script created is deleted on exit:
# it lives in the host's kernel, not in the container.
set -euo pipefail

RXE_DEVICE=${RXE_DEVICE:-rxe0}
RXE_NETDEV=${RXE_NETDEV:-}
CONFORMANCE_ROLE=${CONFORMANCE_ROLE:-suite}
AGENT_PORT=${AGENT_PORT:-18601}
REPORT_DIR=${REPORT_DIR:-/report}
CONFORMANCE_LABEL=${CONFORMANCE_LABEL:-ibverbs-kernel-rxe}
VERBS4J_LIB=${VERBS4J_LIB:-/opt/verbs4j/lib}
JAVA=${JAVA:-java}
SYSFS_ROOT=${SYSFS_ROOT:-/sys}
RDMA_CDEV_DIR=${RDMA_CDEV_DIR:-/dev/infiniband}
readonly SETUP_FAILED=3
readonly READY_WAIT_S=10

log() { echo "[verbs4j-rxe] $*"; }
give_up() { log "ERROR: $*"; exit "$SETUP_FAILED"; }

created_device=
delete_created_device() {
    if [[ -n $created_device ]]; then
        log "deleting $created_device"
        rdma link delete "$created_device" || log "could not delete $created_device: remove it on the host"
    fi
}
trap delete_created_device EXIT
# A stop (tini -g signals the script and the suite) leaves through `exit`, so the
# EXIT trap runs whatever the shell's own handling of fatal signals.
trap 'exit 143' TERM
trap 'exit 130' INT

# Both lookups print nothing when the tool fails (no route, no RDMA netlink): the
# `rdma link add` below then reports the real problem.
default_route_netdev() {
    { ip -o route show default 2>/dev/null || true; } |
        awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit } }'
}

# `rdma link` prints e.g. "link rxe0/1 state ACTIVE physical_state LINK_UP netdev eth0".
rxe_device_on() {
    { rdma link show 2>/dev/null || true; } |
        awk -v netdev="$1" '$(NF - 1) == "netdev" && $NF == netdev { split($2, name, "/"); print name[1]; exit }'
}

# The interface a new device goes on, and the one whose address the agent listens on.
rxe_netdev() {
    local netdev=${RXE_NETDEV:-$(default_route_netdev)}
    echo "${netdev:-eth0}"
}

ensure_device() {
    if [[ -d $SYSFS_ROOT/class/infiniband/$RXE_DEVICE ]]; then
        log "using the existing device $RXE_DEVICE"
        return
    fi
    local netdev
    netdev=$(rxe_netdev)
    local existing
    existing=$(rxe_device_on "$netdev")
    if [[ -n $existing ]]; then
        log "using $existing, the rxe device already on $netdev"
        RXE_DEVICE=$existing
        return
    fi
    log "rdma link add $RXE_DEVICE type rxe netdev $netdev"
    rdma link add "$RXE_DEVICE" type rxe netdev "$netdev" ||
        give_up "cannot create $RXE_DEVICE on $netdev: is rdma_rxe loaded on the host ('sudo modprobe rdma_rxe'), is the container privileged and on the host network?"
    created_device=$RXE_DEVICE
}

# Docker fills a privileged container's /dev when it starts, so the uverbs node of a
# device created afterwards is missing; libibverbs does not create it (rdma-core
# util/open_cdev.c only waits for udev), so make it from the numbers sysfs gives.
ensure_uverbs_node() {
    local entry
    for entry in "$SYSFS_ROOT"/class/infiniband_verbs/uverbs*; do
        [[ -f $entry/ibdev && $(<"$entry/ibdev") == "$RXE_DEVICE" ]] || continue
        local node=$RDMA_CDEV_DIR/${entry##*/}
        if [[ ! -c $node ]]; then
            local major minor
            IFS=: read -r major minor <"$entry/dev"
            mkdir -p "$RDMA_CDEV_DIR"
            mknod -m 0666 "$node" c "$major" "$minor" || give_up "cannot create $node (is the container privileged?)"
            log "created $node ($major:$minor)"
        fi
        return
    done
    give_up "no uverbs entry for $RXE_DEVICE under $SYSFS_ROOT/class/infiniband_verbs (is ib_uverbs loaded?)"
}

# The port turns ACTIVE and the IPv4-mapped GID (RoCEv2 over IPv4) appears shortly after
# the link is added: the kernel fills the GID table from the interface's addresses in the
# background.
await_port_ready() {
    local port=$SYSFS_ROOT/class/infiniband/$RXE_DEVICE/ports/1
    local waited=0
    while ((waited < READY_WAIT_S * 10)); do
        if grep -q ACTIVE "$port/state" 2>/dev/null &&
            grep -qs '^0000:0000:0000:0000:0000:ffff:' "$port"/gids/*; then
            return
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    log "WARNING: after ${READY_WAIT_S} s port 1 of $RXE_DEVICE is '$(cat "$port/state" 2>/dev/null || echo unknown)' with no IPv4 GID; running anyway"
}

# `ip -4 -o addr show dev eth0` prints e.g. "2: eth0    inet 172.17.0.3/16 brd ...".
ipv4_address() {
    { ip -4 -o addr show dev "$1" 2>/dev/null || true; } |
        awk '{ for (i = 1; i < NF; i++) if ($i == "inet") { split($(i + 1), a, "/"); print a[1]; exit } }'
}

case $CONFORMANCE_ROLE in
    suite | agent) ;;
    *) log "ERROR: CONFORMANCE_ROLE is '$CONFORMANCE_ROLE', not suite or agent"; exit 2 ;;
esac

# First, so that a failed setup still leaves a folder for whoever collects the report.
mkdir -p "$REPORT_DIR"
ensure_device
ensure_uverbs_node
await_port_ready
ibv_devinfo -v -d "$RXE_DEVICE" | tee "$REPORT_DIR/ibv_devinfo.txt" || give_up "ibv_devinfo cannot open $RXE_DEVICE"

if [[ $CONFORMANCE_ROLE == agent ]]; then
    address=$(ipv4_address "$(rxe_netdev)")
    [[ -n $address ]] || give_up "no IPv4 address on $(rxe_netdev) for the agent to listen on"
    log "conformance agent: provider ibverbs, device $RXE_DEVICE, on $address:$AGENT_PORT"
    # Not exec: the EXIT trap deletes the device once the agent's session has ended.
    status=0
    "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$VERBS4J_LIB/*" dev.verbs4j.conformance.agent.AgentMain \
        --listen "$address:$AGENT_PORT" "$@" || status=$?
    log "conformance agent exit status: $status"
    exit "$status"
fi

log "conformance suite: provider ibverbs, device $RXE_DEVICE (both sides), report in $REPORT_DIR"
status=0
"$JAVA" --enable-native-access=ALL-UNNAMED -cp "$VERBS4J_LIB/*" dev.verbs4j.conformance.ConformanceMain \
    --provider ibverbs --device "$RXE_DEVICE" --peer-device "$RXE_DEVICE" \
    --label "$CONFORMANCE_LABEL" --report-dir "$REPORT_DIR" "$@" || status=$?
log "conformance suite exit status: $status"
exit "$status"

#!/usr/bin/env bash
# Runs one command in a qemu micro-VM whose kernel has the Soft-RoCE driver
# (rdma_rxe) set up as rxe0, and exits with the command's status.
#
#   run.sh [-k KERNEL] [-t TIMEOUT_S] [-n dummy|eth0|lo|veth|link-a|link-b] [-w DIR]... [-e VAR=VAL]... [-d IMAGE] [-p PIDFILE] [-m MODULE.ko]... [-v] -- COMMAND...
#
# KERNEL selects a kernel fetch.sh cached (fetch.sh --kernels): a release or
# a version prefix such as 6.1 or 6.12; the newest that answers boots. The
# default is RXEVM_KERNEL, else the newest kernel fetched.
# The guest sees the host's / read-only (writes go to a throw-away layer);
# the current directory's git work tree (or the current directory) and each
# -w DIR are shared read-write at the same paths. COMMAND runs as root in the
# current directory with a clean environment, its stdout and stderr streamed
# to ours. Exit status: COMMAND's, or 124 on timeout or when the guest gave
# no status. See README.md for the network modes; link-a and link-b are the two
# ends of one virtual Ethernet link (qemu's UDP datagram netdev on the host's
# loopback, ports RXEVM_LINK_PORT and the next), which pair.sh boots together.
# -d IMAGE attaches a raw disk image as the guest's /dev/vda (virtio-blk; the
# guest's writes reach the image file when the guest writes them back, so a
# SIGKILL of qemu loses what the guest kept in its page cache, as a power loss
# would). -p PIDFILE has qemu write its process id there, for such a kill.
# -m MODULE.ko loads that module (built for the kernel that boots, such as
# kernel/patches/build-module.sh makes) in place of the kernel's own of that
# name, or beside them where the kernel has none: rdma_rxe.ko before rxe0 is
# made; with siw.ko (or a kernel that has siw) the guest also makes siw0 on
# rxe0's interface.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
    sed -n 's/^#   run.sh /usage: run.sh /p' "$0" >&2
    exit 2
}

TIMEOUT=600
NET=dummy
VERBOSE=0
SHARES=()
EXTRA_ENV=()
DISK_IMAGE=
PID_FILE=
MODULES=()
while getopts ':k:t:n:w:e:d:p:m:vh' opt; do
    case $opt in
        k) RXEVM_KERNEL=$OPTARG ;;
        t) [[ $OPTARG =~ ^[0-9]+$ ]] || usage; TIMEOUT=$OPTARG ;;
        n) case $OPTARG in dummy|eth0|lo|veth|link-a|link-b) NET=$OPTARG ;; *) usage ;; esac ;;
        w) [ -d "$OPTARG" ] || rxevm_die "-w $OPTARG: not a directory"
           SHARES+=("$(realpath "$OPTARG")") ;;
        e) [[ $OPTARG == [A-Za-z_]*=* ]] || usage; EXTRA_ENV+=("$OPTARG") ;;
        d) [ -f "$OPTARG" ] || rxevm_die "-d $OPTARG: not a file"
           DISK_IMAGE=$(realpath "$OPTARG") ;;
        p) PID_FILE=$(realpath -m "$OPTARG") ;;
        m) [ -f "$OPTARG" ] && [[ $OPTARG == *.ko ]] || rxevm_die "-m $OPTARG: not a .ko file"
           MODULES+=("$(realpath "$OPTARG")") ;;
        v) VERBOSE=1 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" != -- ] || shift
[ $# -gt 0 ] || usage

rxevm_load_state || rxevm_die "$RXEVM_WHY"
# initramfs.sh boots the same kernel.
export RXEVM_KERNEL=$KERNEL_RELEASE

# KVM only with real hardware virtualisation: the nested "kvm_pvm" flavour
# opens /dev/kvm but emulates every guest instruction and then fails on
# VEX-encoded ones, so TCG it is there.
accel_options() {
    if [ "${RXEVM_ACCEL:-auto}" != tcg ] && [ -w /dev/kvm ] &&
       grep -qwE 'vmx|svm' /proc/cpuinfo && [ ! -d /sys/module/kvm_pvm ]; then
        echo "-accel kvm -cpu host"
    else
        # Multi-threaded TCG: one host thread per vCPU. qemu 7.2 corrupted
        # JIT-compiled Java code this way; qemu 10 does not.
        echo "-accel tcg,thread=${RXEVM_TCG_THREAD:-multi} -cpu max"
    fi
}

# link-a and link-b: each end sends its frames as UDP datagrams to the other's
# port on the host's loopback. The MAC addresses differ in their last byte.
link_options() {
    local port=${RXEVM_LINK_PORT:-27100} here there mac
    case $NET in
        link-a) here=$port there=$((port + 1)) mac=52:54:00:09:01:0a ;;
        link-b) here=$((port + 1)) there=$port mac=52:54:00:09:01:0b ;;
        *) return 0 ;;
    esac
    echo "-netdev dgram,id=net0,local.type=inet,local.host=127.0.0.1,local.port=$here,remote.type=inet,remote.host=127.0.0.1,remote.port=$there"
    echo "-device virtio-net-pci,netdev=net0,mac=$mac,romfile="
}

# The work tree to share read-write: the git top level of the current
# directory, else the directory itself (never / itself).
default_share() {
    local top
    top=$(git -C "$PWD" rev-parse --show-toplevel 2>/dev/null || true)
    [ -n "$top" ] || top=$PWD
    [ "$top" = / ] || realpath "$top"
}

# Writes the run folder that the guest's /init reads (see guest-init.sh).
prepare_run_dir() {
    local path tag=0 var
    {
        printf 'NET=%q\n' "$NET"
        printf 'RUN_DIR=%q\n' "$RUN_DIR"
        printf 'KERNEL_MODULES=%q\n' "$KERNEL_MODULES"
        printf 'GUEST_HOSTNAME=%q\n' "$(cat /proc/sys/kernel/hostname)"
        printf 'EXTRA_MODULES=%q\n' "${MODULES[*]}"
    } >"$RUN_DIR/config"
    # Parents first, so a share inside another is mounted on top of it.
    : >"$RUN_DIR/shares"
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        # qemu's option syntax doubles commas inside values.
        QEMU_SHARES+=(-virtfs "local,path=${path//,/,,},mount_tag=rw$tag,security_model=none,multidevs=remap")
        printf 'rw%s %s\n' "$tag" "$path" >>"$RUN_DIR/shares"
        tag=$((tag + 1))
    done < <(printf '%s\n' "$(default_share)" "${SHARES[@]}" | awk 'NF && !seen[$0]++' |
             awk '{print length, $0}' | sort -n | cut -d' ' -f2-)

    # -e JAVA_HOME=... counts as given, like an exported JAVA_HOME.
    for var in "${EXTRA_ENV[@]}"; do
        [[ $var != JAVA_HOME=* ]] || JAVA_HOME=${var#JAVA_HOME=}
    done
    local env=(
        "PATH=${JAVA_HOME:+$JAVA_HOME/bin:}$RDMA_CORE_PREFIX/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        "HOME=$HOME" "USER=root" "LOGNAME=root" "LANG=C.UTF-8" "TERM=dumb"
        "LD_LIBRARY_PATH=$(rxevm_rdma_ld_path)"
    )
    [ -z "${JAVA_HOME:-}" ] || env+=("JAVA_HOME=$JAVA_HOME")
    env+=("${EXTRA_ENV[@]}")
    {
        printf 'cd -- %q || exit 125\n' "$PWD"
        printf 'exec env -i'
        for var in "${env[@]}"; do printf ' %q' "$var"; done
        printf ' %q' "$@"
        printf '\n'
    } >"$RUN_DIR/launch.sh"
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    # timeout(1) passes the TERM on to qemu and SIGKILLs it 5 s later.
    if [ -n "${VM_PID:-}" ] && kill -0 "$VM_PID" 2>/dev/null; then
        kill -TERM "$VM_PID" 2>/dev/null || true
        wait "$VM_PID" 2>/dev/null || true
    fi
    for pid in ${COPY_PIDS:-}; do kill "$pid" 2>/dev/null || true; done
    [ -z "${RUN_DIR:-}" ] || [ "${RXEVM_KEEP_RUN:-0}" = 1 ] || rm -rf "$RUN_DIR"
    exit "$status"
}

main() {
    local boot vmlinux initramfs started=
    # One VM at a time: each wants both cores. The lock also keeps two runs
    # from building the same initramfs at once.
    mkdir -p "$RXEVM_CACHE/runs"
    # pair.sh holds the lock for both of its guests.
    if [ "${RXEVM_LOCK_HELD:-0}" != 1 ]; then
        exec 9>"$RXEVM_CACHE/vm.lock"
        if ! flock -n 9; then
            rxevm_say "waiting for another rxe-vm run to finish"
            flock 9
        fi
    fi
    boot=$("$RXEVM_HOME/initramfs.sh")
    vmlinux=$(sed -n 1p <<<"$boot")
    initramfs=$(sed -n 2p <<<"$boot")

    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # Folders of runs that were SIGKILLed (no trap ran) are left behind.
    find "$RXEVM_CACHE/runs" -mindepth 1 -maxdepth 1 -name 'run.*' -mmin +60 -exec rm -rf {} +
    RUN_DIR=$(mktemp -d "$RXEVM_CACHE/runs/run.XXXXXX")
    QEMU_SHARES=()
    prepare_run_dir "$@"

    mkfifo "$RUN_DIR/stdout.pipe" "$RUN_DIR/stderr.pipe"
    # Children do not inherit the lock (fd 9): a stray one must not block
    # the next run.
    cat "$RUN_DIR/stdout.pipe" 9>&- &
    COPY_PIDS=$!
    cat "$RUN_DIR/stderr.pipe" >&2 9>&- &
    COPY_PIDS+=" $!"
    local console=$RUN_DIR/console.log loglevel=quiet
    if [ "$VERBOSE" = 1 ]; then
        mkfifo "$RUN_DIR/console.pipe"
        tee "$console" <"$RUN_DIR/console.pipe" >&2 9>&- &
        COPY_PIDS+=" $!"
        console=$RUN_DIR/console.pipe
        loglevel=ignore_loglevel
    fi

    local disk=()
    # qemu writes what the guest writes back into the host's page cache, which
    # outlives qemu; what the guest never wrote back is lost. cache=unsafe: the
    # guest's flushes do not reach the host's disk (the host does not crash).
    [ -z "$DISK_IMAGE" ] ||
        disk=(-drive "file=${DISK_IMAGE//,/,,},format=raw,if=none,id=disk0,cache=unsafe"
              -device virtio-blk-pci,drive=disk0)
    [ -z "$PID_FILE" ] || disk+=(-pidfile "$PID_FILE")

    local start_ns
    start_ns=$(date +%s%N)
    # timeout(1) enforces -t (exit 124). setpriv --pdeathsig makes both it and
    # qemu die with their parent even when this script is SIGKILLed and no
    # trap can run.
    # shellcheck disable=SC2046
    QEMU_MODULE_DIR=$QEMU_ROOT/usr/lib/x86_64-linux-gnu/qemu \
    setpriv --pdeathsig KILL -- timeout --kill-after=5 "$TIMEOUT" \
    setpriv --pdeathsig KILL -- "$QEMU_BINARY" -nodefaults -no-user-config -display none -monitor none -no-reboot \
        -L "$QEMU_ROOT/usr/share/qemu" -L "$QEMU_ROOT/usr/share/seabios" \
        -M q35 -m "${RXEVM_MEMORY_MIB:-4096}" -smp "${RXEVM_CPUS:-2}" $(accel_options) \
        -kernel "$vmlinux" -initrd "$initramfs" \
        -append "console=ttyS0 $loglevel panic=-1 mitigations=off rdinit=/init" \
        -chardev "file,id=console,path=$console" -serial chardev:console \
        -device virtio-serial-pci,id=ports \
        -chardev "file,id=out,path=$RUN_DIR/stdout.pipe" \
        -device virtserialport,bus=ports.0,nr=1,chardev=out,name=out \
        -chardev "file,id=err,path=$RUN_DIR/stderr.pipe" \
        -device virtserialport,bus=ports.0,nr=2,chardev=err,name=err \
        -device virtio-rng-pci \
        -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
        -virtfs "local,path=$RUN_DIR,mount_tag=rxevm,security_model=none" \
        "${QEMU_SHARES[@]}" "${disk[@]}" \
        $( [ "$NET" != eth0 ] || echo "-netdev user,id=net0,restrict=on -device virtio-net-pci,netdev=net0,romfile=" ) \
        $(link_options) \
        </dev/null >"$RUN_DIR/qemu.log" 2>&1 9>&- &
    VM_PID=$!

    local vm_status=0
    wait "$VM_PID" || vm_status=$?
    VM_PID=
    for pid in $COPY_PIDS; do wait "$pid" 2>/dev/null || true; done
    COPY_PIDS=

    local wall
    wall=$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    [ ! -s "$RUN_DIR/started" ] || started=$(cat "$RUN_DIR/started")
    rxevm_say "kernel $KERNEL_RELEASE, net $NET: command started at guest uptime ${started:-?} s, total ${wall} s"

    if [ "$vm_status" = 124 ]; then
        rxevm_say "timed out after $TIMEOUT s; the VM was stopped"
        exit 124
    fi
    if [ -s "$RUN_DIR/rc" ]; then
        exit "$(cat "$RUN_DIR/rc")"
    fi
    if [ -s "$RUN_DIR/error" ]; then
        rxevm_say "guest setup failed: $(cat "$RUN_DIR/error")"
    else
        rxevm_say "the guest gave no exit status (qemu exited with $vm_status)"
    fi
    [ ! -s "$RUN_DIR/qemu.log" ] || sed 's/^/qemu: /' "$RUN_DIR/qemu.log" >&2
    [ "$VERBOSE" = 1 ] || tail -n 30 "$RUN_DIR/console.log" 2>/dev/null | sed 's/^/console: /' >&2
    exit 124
}

main "$@"

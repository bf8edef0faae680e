# shellcheck shell=bash disable=SC2034
# Shared settings of the rxe-vm scripts. Sourced by them, never run on its own.
#
# Everything the harness downloads or builds lives in one cache folder, so a
# machine that already ran fetch.sh boots the VM without touching the network.

RXEVM_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RXEVM_CACHE=${RXEVM_CACHE:-${VERBS4J_CACHE:-$HOME/.cache/verbs4j}/rxe-vm}
RXEVM_STATE=$RXEVM_CACHE/state.env

# Host packages the harness itself needs (the qemu 10 runtime libraries are
# added by fetch.sh from the Depends of the qemu package it downloads).
RXEVM_HOST_PACKAGES=(
    busybox-static cpio kmod xz-utils zstd iproute2
    rdma-core ibverbs-utils libibverbs1 ibverbs-providers librdmacm1
    rdmacm-utils perftest libibverbs-dev
    cmake ninja-build libnl-3-dev libnl-route-3-dev libudev-dev pkg-config
    cython3 python3-dev
)

# What the Docker route in the guest adds (docker-image.sh installs them): the
# engine the guest runs from the host's root, and mmdebstrap for the base image.
RXEVM_DOCKER_PACKAGES=(docker.io mmdebstrap)
# The images docker-image.sh saves: the base, and docker/Dockerfile's package layer.
RXEVM_DOCKER_BASE=verbs4j/debian-sid-base:local
RXEVM_DOCKER_PACKAGES_IMAGE=verbs4j/rxe-conformance:packages

rxevm_say() { printf 'rxe-vm: %s\n' "$*" >&2; }
rxevm_die() { rxevm_say "$*"; exit 1; }

# Whether a kernel release answers to a selector: the release itself, or a
# version prefix that ends where a version part ends (6.1 names 6.1.0-41-amd64,
# not 6.12.117+deb13-amd64).
rxevm_release_matches() { # release selector
    case $1 in
        "$2" | "$2".* | "$2"-* | "$2"+*) return 0 ;;
    esac
    return 1
}

# The unpacked kernels fetch.sh recorded ($RXEVM_CACHE/kernel/RELEASE.env),
# "release record" lines, newest release first.
rxevm_cached_kernels() {
    local record release
    for record in "$RXEVM_CACHE"/kernel/*.env; do
        [ -f "$record" ] || continue
        release=${record##*/}
        printf '%s %s\n' "${release%.env}" "$record"
    done | sort -t' ' -k1,1Vr
}

# Loads the record of the newest cached kernel that answers to a selector.
rxevm_use_kernel() { # selector
    local release record
    while read -r release record; do
        if rxevm_release_matches "$release" "$1"; then
            # shellcheck source=/dev/null
            . "$record"
            return 0
        fi
    done < <(rxevm_cached_kernels)
    RXEVM_WHY="no cached kernel answers to '$1' (cached: $(rxevm_cached_kernels | cut -d' ' -f1 | tr '\n' ' ')run rxe-vm/fetch.sh --kernels $1)"
    return 1
}

# Loads state.env (written by fetch.sh) and checks that what it names is
# still on disk; the kernel is the newest fetched, or the one RXEVM_KERNEL
# selects. Returns 1 with RXEVM_WHY set when the cache is incomplete.
rxevm_load_state() {
    RXEVM_WHY=
    if [ ! -r "$RXEVM_STATE" ]; then
        RXEVM_WHY="no cache at $RXEVM_CACHE (run rxe-vm/fetch.sh)"
        return 1
    fi
    # shellcheck source=/dev/null
    . "$RXEVM_STATE"
    if [ -n "${RXEVM_KERNEL:-}" ] && [ "$RXEVM_KERNEL" != "$KERNEL_RELEASE" ]; then
        rxevm_use_kernel "$RXEVM_KERNEL" || return 1
    fi
    local path
    for path in "$KERNEL_BZIMAGE" "$KERNEL_MODULES/modules.dep" "$QEMU_BINARY" \
                "$RDMA_CORE_PREFIX/bin/ibv_devinfo" "$(rxevm_pyverbs_tests)/run_tests.py"; do
        if [ ! -e "$path" ]; then
            RXEVM_WHY="cache incomplete: $path is missing (run rxe-vm/fetch.sh)"
            return 1
        fi
    done
}

# The library path that puts the rdma-core build in front of bookworm's
# libibverbs 44 (which lacks ibv_wr_flush and the ODP FLUSH caps).
rxevm_rdma_ld_path() {
    printf '%s' "$RDMA_CORE_PREFIX/lib"
}

# rdma-core's own test suite (pyverbs' tests/ with run_tests.py), installed beside the
# library by fetch.sh; PYTHONPATH is the folder of the pyverbs package it imports.
rxevm_pyverbs_tests() {
    printf '%s' "$RDMA_CORE_PREFIX/share/doc/rdma-core/tests"
}
rxevm_pyverbs_path() {
    printf '%s' "$RDMA_CORE_PREFIX/lib/python3/dist-packages"
}

# The host's Debian mirror, so private indexes use the same (reachable) host; a host
# whose apt configuration names none needs RXEVM_MIRROR.
rxevm_debian_mirror() {
    local uri=${RXEVM_MIRROR:-}
    [ -n "$uri" ] || uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list                               /etc/apt/sources.list.d/*.sources 2>/dev/null |
                          grep -oE '(https?|ftp)://[^ ]+/debian/?( |$)' | grep -v security |
                          head -n1 | tr -d ' ' || true)
    [ -n "$uri" ] || rxevm_die "no Debian archive in the apt configuration: set RXEVM_MIRROR"
    echo "${uri%/}"
}

# Packages named in state.env (qemu runtime libraries) plus the fixed list.
rxevm_missing_host_packages() {
    local pkg status
    for pkg in "${RXEVM_HOST_PACKAGES[@]}" ${QEMU_HOST_DEPS:-}; do
        status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
        [ "$status" = installed ] || printf '%s\n' "$pkg"
    done
}

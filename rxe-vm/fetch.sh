#!/usr/bin/env bash
# Installs and fetches everything the rxe micro-VM needs:
#   - host packages (busybox-static, kmod, rdma-core 44 tools, build deps) with apt-get;
#   - the newest Debian kernel whose rdma_rxe has ODP, FLUSH and ATOMIC WRITE
#     (>= 6.17), and qemu 10 from bookworm-backports, both downloaded through a
#     private apt index and unpacked with dpkg-deb -x, never installed;
#   - rdma-core from sid's orig tarball, built here (its binaries need a newer
#     glibc than bookworm's 2.36, its source does not), with pyverbs and rdma-core's
#     own test suite (tests/run_tests.py), the reference the conformance suite is mapped to.
# A second run with a complete cache only checks it. --refresh re-reads the
# indexes and picks up newer versions.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

REFRESH=0
case "${1:-}" in
    --refresh) REFRESH=1 ;;
    "") ;;
    *) echo "usage: $0 [--refresh]" >&2; exit 2 ;;
esac

# rdma_rxe has FLUSH and ATOMIC WRITE since 6.2; on-demand paging for them is
# recent, and 6.17 is the floor the harness asks for (smoke.sh checks the caps).
MIN_KERNEL=6.17
APT_DIR=$RXEVM_CACHE/apt
DEB_DIR=$RXEVM_CACHE/debs
# Debian's own builds find /usr/bin/python3 and cython3; a pyenv shim in the
# caller's PATH would hide them.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_host_packages() {
    local missing
    missing=$(rxevm_missing_host_packages | tr '\n' ' ')
    [ -n "${missing// /}" ] || return 0
    rxevm_say "installing host packages: $missing"
    # shellcheck disable=SC2086
    if ! as_root apt-get install -y -q --no-install-recommends $missing >/dev/null; then
        as_root apt-get update -q >/dev/null
        # shellcheck disable=SC2086
        as_root apt-get install -y -q --no-install-recommends $missing >/dev/null
    fi
}

apt_private() {
    local cmd=$1; shift
    "$cmd" -q \
        -o Dir::Etc::SourceList="$APT_DIR/sources.list" \
        -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::Etc::Preferences=/dev/null \
        -o Dir::Etc::PreferencesParts=/dev/null \
        -o Dir::State::Lists="$APT_DIR/lists" \
        -o Dir::Cache="$APT_DIR/cache" \
        -o APT::Sandbox::User=root \
        "$@"
}

update_private_index() {
    local mirror suite
    mirror=$(rxevm_debian_mirror)
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$DEB_DIR"
    {
        for suite in bookworm-backports trixie trixie-backports sid; do
            echo "deb $mirror $suite main"
        done
        echo "deb-src $mirror sid main"
    } >"$APT_DIR/sources.list"
    rxevm_say "reading package indexes from $mirror (bookworm-backports trixie trixie-backports sid)"
    apt_private apt-get update >/dev/null
}

# Prints "release version" for every generic amd64 kernel in the index,
# newest release first. 7.x kernels are split into linux-binary-* (image),
# linux-modules-* and linux-base-*; 6.x ship one linux-image-*.
kernel_candidates() {
    apt_private apt-cache dumpavail |
        awk '/^Package: /{p=$2} /^Version: /{print p, $2}' |
        sed -nE 's/^linux-(image|binary)-([0-9][^ -]*-amd64)(-unsigned)? (.*)$/\2 \4/p' |
        sort -u | sort -t' ' -k1,1Vr
}

release_at_least() { # release minimum
    [ "$(printf '%s\n%s\n' "$2" "${1%%[+-]*}" | sort -V | head -n1)" = "$2" ]
}

download() { # into-dir package[=version]...
    local into=$1; shift
    (cd "$into" && apt_private apt-get download "$@" >/dev/null 2>&1)
}

deb_file() { # package version -> path of its downloaded .deb
    # apt-get download writes NAME_[EPOCH%3a]VERSION_ARCH.deb
    local name=$1 version=${2#*:} deb
    for deb in "$DEB_DIR/${name}_"*"${version}_"*.deb; do
        [ -f "$deb" ] && { echo "$deb"; return 0; }
    done
    return 0
}

unpack() { # target-dir deb...
    local target=$1 deb; shift
    rm -rf "$target.tmp"
    mkdir -p "$target.tmp"
    for deb in "$@"; do dpkg-deb -x "$deb" "$target.tmp"; done
    rm -rf "$target"
    mv "$target.tmp" "$target"
}

fetch_kernel_release() { # release version
    local release=$1 version=$2 names=() name debs=()
    if apt_private apt-cache show "linux-binary-$release=$version" >/dev/null 2>&1; then
        names=("linux-binary-$release" "linux-modules-$release" "linux-base-$release")
    elif apt_private apt-cache show "linux-image-$release-unsigned=$version" >/dev/null 2>&1; then
        names=("linux-image-$release-unsigned")
    else
        names=("linux-image-$release")
    fi
    for name in "${names[@]}"; do
        [ -n "$(deb_file "$name" "$version")" ] && continue
        download "$DEB_DIR" "$name=$version" || return 1
    done
    for name in "${names[@]}"; do debs+=("$(deb_file "$name" "$version")"); done
    unpack "$RXEVM_CACHE/kernel/$release" "${debs[@]}"
}

# Fills KERNEL_* for an unpacked release; fails when it has no rdma_rxe.
describe_kernel() { # release version
    local root=$RXEVM_CACHE/kernel/$1 dir
    KERNEL_RELEASE=$1
    KERNEL_PKG_VERSION=$2
    KERNEL_MODULES=
    for dir in "$root/usr/lib/modules/$1" "$root/lib/modules/$1"; do
        [ -d "$dir" ] && KERNEL_MODULES=$dir
    done
    # 6.x packages install /boot/vmlinuz-RELEASE, 7.x the modules dir's vmlinuz.
    KERNEL_BZIMAGE=$root/boot/vmlinuz-$1
    [ -f "$KERNEL_BZIMAGE" ] || KERNEL_BZIMAGE=$KERNEL_MODULES/vmlinuz
    [ -f "$KERNEL_BZIMAGE" ] && [ -n "$KERNEL_MODULES" ] || return 1
    find "$KERNEL_MODULES" -name 'rdma_rxe.ko*' | grep -q . || return 1
    # depmod -b wants BASE/lib/modules/RELEASE; trixie's packages use /usr/lib.
    mkdir -p "$root/depmod-base/lib/modules"
    ln -sfn "$KERNEL_MODULES" "$root/depmod-base/lib/modules/$1"
    [ -s "$KERNEL_MODULES/modules.dep" ] || depmod -b "$root/depmod-base" "$1"
}

# After --refresh moved to a newer kernel, the older one only takes space.
prune_other_kernels() { # kept-release
    local dir
    for dir in "$RXEVM_CACHE"/kernel/* "$RXEVM_CACHE"/boot/*; do
        [ -d "$dir" ] && [ "${dir##*/}" != "$1" ] && rm -rf "$dir"
    done
    for dir in "$DEB_DIR"/linux-*.deb; do
        [ -f "$dir" ] && [[ ${dir##*/} != linux-*-"$1"_* ]] && rm -f "$dir"
    done
    return 0
}

# Tries the newest releases first; a release that fails to download or lacks
# rdma_rxe falls back to the next, at most three, so a broken mirror does not
# pull every kernel in the index.
fetch_kernel() {
    local release version first='' tries=0
    while read -r release version; do
        [ -n "$first" ] || first=$release
        tries=$((tries + 1))
        [ "$tries" -le 3 ] || break
        if ! release_at_least "$release" "$MIN_KERNEL"; then
            rxevm_say "warning: no kernel >= $MIN_KERNEL could be fetched; using $release (rxe without ODP)"
        fi
        if [ -d "$RXEVM_CACHE/kernel/$release" ] || fetch_kernel_release "$release" "$version"; then
            if describe_kernel "$release" "$version"; then
                prune_other_kernels "$release"
                return 0
            fi
        fi
        rxevm_say "kernel $release ($version) unusable, trying the next one"
    done < <(kernel_candidates)
    rxevm_die "no usable kernel found in the index (newest seen: ${first:-none})"
}

# qemu 10 from bookworm-backports: bookworm's 7.2 corrupts JIT-compiled Java
# code under multi-threaded TCG, and trixie's builds need glibc 2.38+.
fetch_qemu() {
    local names=(qemu-system-x86 qemu-system-common qemu-system-data seabios) name debs=() deb
    local versions=()
    for name in "${names[@]}"; do
        versions+=("$(apt_private apt-cache madison "$name" |
            awk -F' *[|] *' '$3 ~ /bookworm-backports/ {print $2; exit}')")
    done
    [ -n "${versions[0]}" ] || rxevm_die "qemu-system-x86 not found in bookworm-backports"
    QEMU_VERSION=${versions[0]}
    local i
    for i in "${!names[@]}"; do
        [ -n "${versions[$i]}" ] || rxevm_die "${names[$i]} not found in bookworm-backports"
        deb=$(deb_file "${names[$i]}" "${versions[$i]}")
        if [ -z "$deb" ]; then
            download "$DEB_DIR" "${names[$i]}=${versions[$i]}" ||
                rxevm_die "download of ${names[$i]} ${versions[$i]} failed"
            deb=$(deb_file "${names[$i]}" "${versions[$i]}")
        fi
        debs+=("$deb")
    done
    local root=$RXEVM_CACHE/qemu/${QEMU_VERSION#*:}
    [ -x "$root/usr/bin/qemu-system-x86_64" ] || unpack "$root" "${debs[@]}"
    # shellcheck disable=SC2034 # written to state.env by write_state
    QEMU_ROOT=$root
    QEMU_BINARY=$root/usr/bin/qemu-system-x86_64
    # Runtime libraries: the package's Depends, minus what we unpacked ourselves.
    QEMU_HOST_DEPS=$(dpkg-deb -f "${debs[0]}" Depends; echo ,; dpkg-deb -f "${debs[1]}" Depends)
    QEMU_HOST_DEPS=$(echo "$QEMU_HOST_DEPS" | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/ //g' |
        grep -vE '^(qemu-.*|seabios|ipxe-qemu|)$' | sort -u | tr '\n' ' ')
}

# rdma-core: sid's upstream tarball, built with its install prefix inside the
# cache so libibverbs finds its own providers and driver files there. pyverbs is
# built with Debian's cython3 for /usr/bin/python3; its package goes to one fixed
# folder under the prefix (rxevm_pyverbs_path), its tests to rxevm_pyverbs_tests.
# A cache built without pyverbs is rebuilt.
fetch_rdma_core() {
    local uri name sum
    read -r uri name _ sum < <(apt_private apt-get source --print-uris --only-source rdma-core 2>/dev/null |
        tr -d "'" | grep -E '\.orig\.tar\.' | head -n1) || true
    [ -n "${uri:-}" ] || rxevm_die "rdma-core source not found in sid's Sources index"
    RDMA_CORE_VERSION=${name#rdma-core_}
    RDMA_CORE_VERSION=${RDMA_CORE_VERSION%.orig.tar.*}
    local base=$RXEVM_CACHE/rdma-core/$RDMA_CORE_VERSION
    RDMA_CORE_PREFIX=$base/install
    [ -x "$RDMA_CORE_PREFIX/bin/ibv_devinfo" ] && [ -f "$(rxevm_pyverbs_tests)/run_tests.py" ] && return 0
    mkdir -p "$base"
    if [ ! -s "$DEB_DIR/$name" ]; then
        # apt's own downloader, checking the hash from the Sources index; the
        # .dsc is not needed (it was seen missing on mirrors).
        apt_private /usr/lib/apt/apt-helper download-file "$uri" "$DEB_DIR/$name" "$sum" >/dev/null ||
            rxevm_die "download of $uri failed"
    fi
    rxevm_say "building rdma-core $RDMA_CORE_VERSION with pyverbs (about 5 minutes)"
    rm -rf "$base/src" "$base/build" "$RDMA_CORE_PREFIX"
    mkdir -p "$base/src" "$base/build"
    tar -xf "$DEB_DIR/$name" -C "$base/src" --strip-components=1
    (
        cd "$base/build"
        cmake -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_INSTALL_PREFIX="$RDMA_CORE_PREFIX" \
            -DNO_MAN_PAGES=1 -DENABLE_STATIC=0 \
            -DPYTHON_EXECUTABLE=/usr/bin/python3 \
            -DCMAKE_INSTALL_PYTHON_ARCH_LIB="$(rxevm_pyverbs_path)" \
            "$base/src" >"$base/build.log" 2>&1
        ninja -j "$(nproc)" >>"$base/build.log" 2>&1
        ninja install >>"$base/build.log" 2>&1
    ) || rxevm_die "rdma-core build failed, see $base/build.log"
    rm -rf "$base/src" "$base/build"
}

write_state() {
    local tmp=$RXEVM_STATE.tmp var
    : >"$tmp"
    for var in KERNEL_RELEASE KERNEL_PKG_VERSION KERNEL_BZIMAGE KERNEL_MODULES \
               QEMU_VERSION QEMU_ROOT QEMU_BINARY QEMU_HOST_DEPS \
               RDMA_CORE_VERSION RDMA_CORE_PREFIX; do
        printf '%s=%q\n' "$var" "${!var}" >>"$tmp"
    done
    mv "$tmp" "$RXEVM_STATE"
}

print_summary() {
    rxevm_say "kernel    $KERNEL_RELEASE ($KERNEL_PKG_VERSION)"
    rxevm_say "qemu      $QEMU_VERSION ($QEMU_BINARY)"
    rxevm_say "rdma-core $RDMA_CORE_VERSION ($RDMA_CORE_PREFIX)"
    rxevm_say "cache     $RXEVM_CACHE ($(du -sh "$RXEVM_CACHE" 2>/dev/null | cut -f1))"
}

main() {
    mkdir -p "$RXEVM_CACHE"
    QEMU_HOST_DEPS=
    if [ "$REFRESH" = 0 ] && rxevm_load_state; then
        install_host_packages
        "$QEMU_BINARY" --version >/dev/null || rxevm_die "$QEMU_BINARY does not run"
        rxevm_say "cache complete, nothing to fetch"
        print_summary
        return 0
    fi
    install_host_packages
    update_private_index
    fetch_kernel
    fetch_qemu
    install_host_packages
    "$QEMU_BINARY" --version >/dev/null || rxevm_die "$QEMU_BINARY does not run"
    fetch_rdma_core
    write_state
    rm -f "$RXEVM_CACHE"/initramfs/*.tmp 2>/dev/null || true
    print_summary
}

main

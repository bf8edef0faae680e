#!/usr/bin/env bash
# Installs and fetches everything the rxe micro-VM needs:
#   - host packages (busybox-static, kmod, rdma-core 44 tools, build deps) with apt-get;
#   - the newest Debian kernel whose rdma_rxe has ODP, FLUSH and ATOMIC WRITE
#     (>= 6.17), the default of run.sh, plus any other kernels --kernels asks
#     for, and qemu 10 from bookworm-backports, all downloaded through a
#     private apt index and unpacked with dpkg-deb -x, never installed;
#   - rdma-core from sid's orig tarball, built here (its binaries need a newer
#     glibc than bookworm's 2.36, its source does not), with pyverbs and rdma-core's
#     own test suite (tests/run_tests.py), the reference the conformance suite is mapped to.
#
#   fetch.sh [--refresh] [--kernels newest|releases|all|SELECTOR[,...]]
#
# --kernels: newest (the default); releases (the kernel each of bookworm,
# bookworm-backports, trixie, trixie-backports and sid installs, one per
# major.minor series); all (the newest of every series the index holds); or
# release selectors such as 6.1, 6.12.117 or 7.3.4+deb13-amd64 (the newest
# release that starts with it). Prints the chosen kernels on stdout, one
# "release package-version" line each, newest first.
# A second run with a complete cache only checks it. --refresh re-reads the
# indexes, picks up newer versions and drops a cached kernel that a newer
# release of its series replaced.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n 's/^#   fetch.sh /usage: fetch.sh /p' "$0" >&2; exit 2; }
REFRESH=0
KERNELS=newest
while [ $# -gt 0 ]; do
    case $1 in
        --refresh) REFRESH=1 ;;
        --kernels) [ $# -ge 2 ] || usage; KERNELS=$2; shift ;;
        --kernels=*) KERNELS=${1#--kernels=} ;;
        *) usage ;;
    esac
    shift
done

# The default kernel's rxe should have everything the suite covers: FLUSH and
# ATOMIC WRITE (6.12 has them, 6.1 not), on-demand paging for them (6.16) and
# prefetch (6.17), as conformance-kernels.md shows; smoke.sh checks the caps.
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

# The suites whose kernels the private index offers, oldest first.
SUITES=(bookworm bookworm-backports trixie trixie-backports sid)

private_sources() {
    local mirror suite
    mirror=$(rxevm_debian_mirror)
    for suite in "${SUITES[@]}"; do
        echo "deb $mirror $suite main"
    done
    echo "deb-src $mirror sid main"
}

update_private_index() {
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$DEB_DIR"
    private_sources >"$APT_DIR/sources.list"
    rxevm_say "reading package indexes from $(rxevm_debian_mirror) (${SUITES[*]})"
    apt_private apt-get update >/dev/null
}

# The index as it is, unless it was never read or read for other suites.
ensure_private_index() {
    if [ "$(cat "$APT_DIR/sources.list" 2>/dev/null)" != "$(private_sources)" ] ||
       ! ls "$APT_DIR"/lists/*_Packages* >/dev/null 2>&1; then
        update_private_index
    fi
}

# A generic amd64 kernel release: 6.1.0-41-amd64, 6.12.117+deb13-amd64, ...
# (not -cloud-amd64 or -rt-amd64).
GENERIC_RELEASE='[0-9]+\.[0-9]+(\.[0-9]+)?(-[0-9]+)?(\+[a-z0-9.~]+)?-amd64'

# Prints "release version" for every generic amd64 kernel in the index (its
# newest package version), newest release first. From 6.19 a kernel is split
# into linux-binary-* (image), linux-modules-* and linux-base-*; older ones ship
# one linux-image-* (a split kernel's linux-image-* only depends on its parts). A
# split kernel counts only when its modules are in the index too (backports
# keep older linux-binary-* packages without them).
kernel_candidates() {
    apt_private apt-cache dumpavail |
        awk '/^Package: /{p=$2} /^Version: /{print p, $2}' |
        awk '/^linux-modules-/ {modules[substr($1, 15) " " $2] = 1; next}
             /^linux-binary-/ {split_kernels[++n] = $0; split_release[substr($1, 14) " " $2] = 1; next}
             /^linux-image-/ {images[++m] = $0}
             END {for (i = 1; i <= n; i++) {
                      split(split_kernels[i], f, " ")
                      if ((substr(f[1], 14) " " f[2]) in modules) print split_kernels[i]
                  }
                  # The image package of a split kernel only depends on its parts.
                  for (i = 1; i <= m; i++) {
                      split(images[i], f, " ")
                      if (!((substr(f[1], 13) " " f[2]) in split_release)) print images[i]
                  }}' |
        sed -nE "s/^linux-(image|binary)-($GENERIC_RELEASE)(-unsigned)? (.*)\$/\\2 \\7/p" |
        sort -u | sort -t' ' -k1,1Vr -k2,2Vr | awk '!seen[$1]++'
}

series() { # release -> major.minor
    echo "$1" | grep -oE '^[0-9]+\.[0-9]+'
}

# The first (newest) line of each major.minor series.
newest_per_series() {
    local release version
    declare -A seen=()
    while read -r release version; do
        [ -n "${seen[$(series "$release")]:-}" ] && continue
        seen[$(series "$release")]=1
        echo "$release $version"
    done
}

# "release version" of the kernel each suite's linux-image-amd64 installs.
suite_kernels() {
    local suite meta depends
    for suite in "${SUITES[@]}"; do
        meta=$(apt_private apt-cache madison linux-image-amd64 |
               awk -F' *[|] *' -v s="$suite/" 'index($3, s) {print $2; exit}')
        [ -n "$meta" ] || { rxevm_say "warning: $suite offers no linux-image-amd64"; continue; }
        depends=$(apt_private apt-cache show "linux-image-amd64=$meta" | sed -n 's/^Depends: //p' | head -n1)
        echo "$depends" | tr ',' '\n' |
            sed -nE "s/^ *linux-(image|binary)-($GENERIC_RELEASE)(-unsigned)? \(= ([^)]*)\).*/\\2 \\7/p" | head -n1
    done
}

# "release version" lines a selection names, newest first, each once.
select_kernels() { # selection
    local word release version found
    for word in ${1//,/ }; do
        case $word in
            newest) kernel_candidates | head -n1 ;;
            releases) suite_kernels | sort -t' ' -k1,1Vr | newest_per_series ;;
            all) kernel_candidates | newest_per_series ;;
            *)
                found=
                while read -r release version; do
                    if rxevm_release_matches "$release" "$word"; then
                        echo "$release $version"; found=1; break
                    fi
                done < <(kernel_candidates)
                [ -n "$found" ] || rxevm_die "no kernel in the index answers to '$word'"
                ;;
        esac
    done | sort -t' ' -k1,1Vr | awk '!seen[$1]++'
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

# Whether the index holds the package at that version (a name that only another
# package provides, as the signed image provides -unsigned, does not count).
has_version() { # package version
    apt_private apt-cache madison "$1" 2>/dev/null | awk -F' *[|] *' -v v="$2" '$2 == v {found = 1} END {exit !found}'
}

fetch_kernel_release() { # release version
    local release=$1 version=$2 names=() name debs=()
    if has_version "linux-binary-$release" "$version"; then
        names=("linux-binary-$release" "linux-modules-$release" "linux-base-$release")
    elif has_version "linux-image-$release-unsigned" "$version"; then
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

# Fills KERNEL_* for an unpacked release and writes its record
# (kernel/RELEASE.env, see rxevm_use_kernel); fails when it has no rdma_rxe.
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
    local var
    for var in KERNEL_RELEASE KERNEL_PKG_VERSION KERNEL_BZIMAGE KERNEL_MODULES; do
        printf '%s=%q\n' "$var" "${!var}"
    done >"$root.env"
}

forget_kernel() { # release
    rm -rf "$RXEVM_CACHE/kernel/$1" "$RXEVM_CACHE/kernel/$1.env" "$RXEVM_CACHE/boot/$1"
    rm -f "$DEB_DIR"/linux-*-"$1"_*.deb
}

# After --refresh moved a series to a newer release, the older one only takes
# space: of each major.minor series only the newest cached release stays.
prune_replaced_kernels() {
    local release _record
    declare -A kept=()
    while read -r release _record; do
        if [ -n "${kept[$(series "$release")]:-}" ]; then
            rxevm_say "dropping $release (replaced by ${kept[$(series "$release")]})"
            forget_kernel "$release"
        else
            kept[$(series "$release")]=$release
        fi
    done < <(rxevm_cached_kernels)
}

# Fetches one kernel of a selection (not the default one); a kernel that cannot
# be downloaded or has no rdma_rxe is left out with a warning.
fetch_extra_kernel() { # release version
    if [ -f "$RXEVM_CACHE/kernel/$1.env" ] ||
       { fetch_kernel_release "$1" "$2" && describe_kernel "$1" "$2"; }; then
        echo "$1 $2"
    else
        rxevm_say "warning: kernel $1 ($2) left out: no download or no rdma_rxe"
        forget_kernel "$1"
    fi
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
    rxevm_say "kernel    $KERNEL_RELEASE ($KERNEL_PKG_VERSION), the default"
    local release _record
    while read -r release _record; do
        [ "$release" = "$KERNEL_RELEASE" ] || rxevm_say "kernel    $release (cached)"
    done < <(rxevm_cached_kernels)
    rxevm_say "qemu      $QEMU_VERSION ($QEMU_BINARY)"
    rxevm_say "rdma-core $RDMA_CORE_VERSION ($RDMA_CORE_PREFIX)"
    rxevm_say "cache     $RXEVM_CACHE ($(du -sh "$RXEVM_CACHE" 2>/dev/null | cut -f1))"
}

# The kernels --kernels names, fetched where missing: "release version" lines,
# newest first.
fetch_selected_kernels() {
    local release version
    if [ "$KERNELS" = newest ]; then
        echo "$KERNEL_RELEASE $KERNEL_PKG_VERSION"
        return 0
    fi
    ensure_private_index
    local selected
    selected=$(select_kernels "$KERNELS") || exit 1
    while read -r release version; do
        [ -n "$release" ] || continue
        if [ "$release" = "$KERNEL_RELEASE" ]; then
            echo "$KERNEL_RELEASE $KERNEL_PKG_VERSION"
        else
            fetch_extra_kernel "$release" "$version"
        fi
    done <<<"$selected"
}

main() {
    mkdir -p "$RXEVM_CACHE"
    QEMU_HOST_DEPS=
    local chosen
    if [ "$REFRESH" = 0 ] && RXEVM_KERNEL='' rxevm_load_state; then
        install_host_packages
        "$QEMU_BINARY" --version >/dev/null || rxevm_die "$QEMU_BINARY does not run"
        [ -f "$RXEVM_CACHE/kernel/$KERNEL_RELEASE.env" ] || describe_kernel "$KERNEL_RELEASE" "$KERNEL_PKG_VERSION"
        chosen=$(fetch_selected_kernels)
        [ "$KERNELS" != newest ] || rxevm_say "cache complete, nothing to fetch"
        print_summary
        echo "$chosen"
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
    chosen=$(fetch_selected_kernels)
    [ "$REFRESH" = 0 ] || prune_replaced_kernels
    rm -f "$RXEVM_CACHE"/initramfs/*.tmp 2>/dev/null || true
    print_summary
    echo "$chosen"
}

main

#!/usr/bin/env bash
# Builds a module of the kernel rxe-vm boots by default (the release the series is against)
# out of tree, from that kernel's Debian source, against its headers, with the compiler it
# was built with, and prints the module's path; rxe-vm/run.sh -m loads it.
#
#   build-module.sh [--series DIR] [rxe|siw]
#
# rxe (the default): rdma_rxe.ko with the series applied: this folder's, or the .patch files
# of DIR in the order of their names (patches of drivers/infiniband/sw/rxe only).
# siw: the kernel's soft-iWARP, siw.ko (Debian's kernels do not ship it), with siw/'s series
# applied, or DIR's (patches of drivers/infiniband/sw/siw only; an empty DIR builds it as the
# kernel has it).
#
# The headers' CONFIG_CC_VERSION_TEXT names trixie's gcc-14, and their kbuild programs (fixdep,
# modpost) need trixie's C library, newer than a bookworm host's, so the build runs in a
# trixie root made once with mmdebstrap (gcc-14, make, the kbuild programs' libraries,
# pahole; about 0.4 GB) from the host's Debian mirror, into which the headers packages
# (linux-headers-RELEASE, its -common and linux-kbuild) are unpacked.
# Cached: $RXEVM_CACHE/rxe-module/DIGEST/rdma_rxe.ko and $RXEVM_CACHE/siw-module/RELEASE-DIGEST/siw.ko,
# DIGEST from the series' contents.
# Needs root (chroot) and rxe-vm/fetch.sh's private apt index.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n 's/^#   build-module.sh /usage: build-module.sh /p' "$0" >&2; exit 2; }
module=rxe
while [ $# -gt 0 ]; do
    case $1 in
        --series) [ $# -ge 2 ] && [ -d "$2" ] || usage; PATCHES_DIR=$(cd "$2" && pwd); export PATCHES_DIR; shift ;;
        rxe|siw) module=$1 ;;
        *) usage ;;
    esac
    shift
done
source "$here/lib.sh"
source "$here/../../rxe-vm/lib.sh"
RELEASE=7.3.4+deb13
HEADERS=linux-headers-$RELEASE-amd64
digest=$(patches_digest "$module")
case $module in
    rxe)
        [ -n "$(patches_series rxe)" ] || patches_die "no .patch files in $(patches_dir rxe)"
        out=$RXEVM_CACHE/rxe-module/$digest
        ko=rdma_rxe.ko ;;
    siw)
        out=$RXEVM_CACHE/siw-module/$RELEASE-$digest
        ko=siw.ko ;;
esac
if [ -f "$out/$ko" ]; then
    echo "$out/$ko"
    exit 0
fi

root=$RXEVM_CACHE/modbuild/trixie-root
if [ ! -x "$root/usr/bin/x86_64-linux-gnu-gcc-14" ]; then
    echo "build-module: making a trixie root for gcc-14 in $root (once, a few minutes)" >&2
    rm -rf "$root.tmp"
    mkdir -p "$(dirname "$root")"
    mmdebstrap --variant=minbase --include=gcc-14,make,libc6-dev,libelf1t64,libssl3t64,zlib1g,pahole \
        trixie "$root.tmp" "deb $(rxevm_debian_mirror) trixie main" > "$root.log" 2>&1 ||
        patches_die "mmdebstrap failed (log: $root.log)"
    rm -rf "$root"
    mv "$root.tmp" "$root"
fi
if [ ! -f "$root/usr/src/$HEADERS/Module.symvers" ]; then
    patches_download "$HEADERS=$SOURCE_VERSION" "linux-headers-$RELEASE-common=$SOURCE_VERSION" \
        "linux-kbuild-$RELEASE=$SOURCE_VERSION"
    for deb in "$SOURCE_DIR/$HEADERS"_*.deb "$SOURCE_DIR/linux-headers-$RELEASE-common"_*.deb \
        "$SOURCE_DIR/linux-kbuild-$RELEASE"_*.deb; do
        dpkg-deb -x "$deb" "$root"
    done
fi

want=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root/usr/src/$HEADERS/.config")
have=$(chroot "$root" x86_64-linux-gnu-gcc-14 --version | head -n 1)
[ "$want" = "$have" ] || echo "build-module: warning: the kernel was built with '$want', this is '$have'" >&2

patches_apply "$module" "$root/build/$module"
config=()
# Debian's configuration leaves soft-iWARP out; its Makefile builds for =m.
[ "$module" = rxe ] || config=(CONFIG_RDMA_SIW=m)
# objtool reads its limits from /proc.
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" make -s -C "/usr/src/$HEADERS" M="/build/$module" "${config[@]}" modules > "$root/build/make.log" 2>&1 ||
    { tail -n 20 "$root/build/make.log" >&2; patches_die "the $module module build failed"; }
mkdir -p "$out"
cp "$root/build/$module/$ko" "$out/$ko"
{
    echo "drivers/infiniband/sw/$module with the series $(patches_dir "$module"), digest $digest, $(patches_series "$module" | wc -l) patches"
    echo "against $SOURCE_PACKAGE $SOURCE_VERSION, headers $HEADERS"
    echo "compiler $have"
} > "$out/built.txt"
echo "$out/$ko"

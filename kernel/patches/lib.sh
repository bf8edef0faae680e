# Sourced by check.sh and rxe-vm's module build: the Debian kernel source the series is
# against, fetched the way rxe-vm/fetch.sh fetches kernel packages (its private apt index in
# $RXEVM_CACHE/apt, which fetch.sh writes), and a series applied to a copy of its rxe or siw.
RXEVM_CACHE=${RXEVM_CACHE:-${VERBS4J_CACHE:-$HOME/.cache/verbs4j}/rxe-vm}
PATCHES_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# A driver's series (rxe or siw): this folder's .patch files for rxe, those of siw/ for siw, or
# a folder of .patch files of one's own (PATCHES_DIR, or build-module.sh --series), applied
# in the order of their names.
PATCHES_DIR=${PATCHES_DIR:-}
# The kernel the series is against: the newest that rxe-vm/fetch.sh picks (7.3.4 here).
SOURCE_PACKAGE=linux-source-7.3
SOURCE_VERSION=7.3.4-1~bpo13+1
SOURCE_DIR=$RXEVM_CACHE/src

patches_die() { echo "kernel/patches: $*" >&2; exit 1; }

# apt-get with rxe-vm's private index, as fetch.sh runs it.
patches_apt() {
    local apt=$RXEVM_CACHE/apt
    [ -f "$apt/sources.list" ] || patches_die "no private apt index in $apt: run rxe-vm/fetch.sh first"
    apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
        -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root "$@"
}

# Downloads packages NAME=VERSION... into $SOURCE_DIR unless there already.
patches_download() {
    local spec missing=()
    mkdir -p "$SOURCE_DIR"
    for spec in "$@"; do
        ls "$SOURCE_DIR/${spec%%=*}_"*.deb > /dev/null 2>&1 || missing+=("$spec")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    (cd "$SOURCE_DIR" && patches_apt download "${missing[@]}" > /dev/null) ||
        patches_die "could not download ${missing[*]}"
}

# Prints the folder of the unpacked, unpatched kernel source (unpacked once, about 1 GB).
patches_source_tree() {
    local tree=$SOURCE_DIR/$SOURCE_PACKAGE-$SOURCE_VERSION
    if [ ! -f "$tree/scripts/checkpatch.pl" ]; then
        patches_download "$SOURCE_PACKAGE=$SOURCE_VERSION"
        rm -rf "$tree" "$tree.deb-root"
        dpkg-deb -x "$SOURCE_DIR/${SOURCE_PACKAGE}_"*.deb "$tree.deb-root"
        mkdir -p "$tree"
        tar -C "$tree" --strip-components=1 -xf "$tree.deb-root/usr/src/$SOURCE_PACKAGE.tar.xz"
        rm -rf "$tree.deb-root"
    fi
    echo "$tree"
}

# The folder of driver $1's series.
patches_dir() {
    if [ -n "$PATCHES_DIR" ]; then
        echo "$PATCHES_DIR"
    elif [ "$1" = siw ]; then
        echo "$PATCHES_HOME/siw"
    else
        echo "$PATCHES_HOME"
    fi
}

# The series of driver $1, in order.
patches_series() {
    LC_ALL=C ls "$(patches_dir "$1")"/*.patch 2>/dev/null
}

# A digest of driver $1's series' code (each patch from its first "diff --git" on, so that a
# reworded message or a renumbering names the same build), naming what is built from it.
patches_digest() {
    local p
    for p in $(patches_series "$1"); do
        sed -n '/^diff --git/,$p' "$p"
    done | sha256sum | cut -c1-16
}

# Copies the source's drivers/infiniband/sw/$1 (rxe or siw) to $2 and applies its series there.
patches_apply() {
    local driver=$1 out=$2 tree p
    tree=$(patches_source_tree) || exit 1
    rm -rf "$out"
    mkdir -p "$out"
    cp -a "$tree/drivers/infiniband/sw/$driver/." "$out/"
    for p in $(patches_series "$driver"); do
        grep -E '^\+\+\+ b/' "$p" | grep -vq "^+++ b/drivers/infiniband/sw/$driver/" &&
            patches_die "$(basename "$p") touches files outside drivers/infiniband/sw/$driver; the harness builds that driver's module only"
        patch -s -p5 -d "$out" --no-backup-if-mismatch < "$p" || patches_die "$(basename "$p") does not apply"
    done
}

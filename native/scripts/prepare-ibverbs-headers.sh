#!/usr/bin/env bash
# Chooses the libibverbs and librdmacm headers the JNI binding is compiled
# against and publishes them as an include folder for the JavaCPP build.
#
#   prepare-ibverbs-headers.sh <include-dir>
#
# The binding needs the rdma-core >= 45 API (ibv_wr_flush, IBV_ACCESS_FLUSH_*,
# IBV_QP_EX_WITH_FLUSH, IBV_WR_FLUSH, IBV_WC_FLUSH). Debian bookworm ships
# rdma-core 44, so when the system headers lack ibv_wr_flush the script
# fetches a newer libibverbs-dev .deb with apt-get download (Debian sid
# preferred, trixie as fallback) through a PRIVATE apt configuration and only
# unpacks it (dpkg-deb -x) into a cache; nothing is installed and the
# system's apt state is not touched. Linking still uses the system
# libibverbs.so, which keeps the binding loadable on hosts with rdma-core 44.
#
# The connection-manager binding needs rdma/rdma_cma.h (librdmacm-dev). When
# the system has none, librdmacm-dev is fetched and unpacked the same way, so
# a cache holding only libibverbs-dev is completed on the next build. Its
# library links against the system librdmacm.so.1 (librdmacm1), which needs
# no unversioned librdmacm.so.
#
# Output in <include-dir>:
#   infiniband/               symlink to the chosen infiniband/ header folder
#   rdmacm/                   symlink to an include root holding rdma/rdma_cma.h
#                             (a second include path, after this folder)
#   verbs4j_headers_version.h #define VERBS4J_IBVERBS_HEADERS "<version> (<origin>)"
#
# Environment:
#   VERBS4J_CACHE    cache root (default $HOME/.cache/verbs4j); headers land in
#                    $VERBS4J_CACHE/headers/<package>_<version>/, the private
#                    apt state in $VERBS4J_CACHE/headers/.apt/ (removed after use)
#   VERBS4J_HEADERS  use this folder (containing infiniband/verbs.h) as is, and
#                    its rdma/rdma_cma.h when it has one
set -euo pipefail

readonly MIN_FEATURE=ibv_wr_flush   # first declared by rdma-core 45
readonly CM_FEATURE=rdma_establish  # the external-QP handshake the binding uses
readonly SUITES=(sid trixie)        # apt picks the highest version among them

out_dir=${1:?usage: prepare-ibverbs-headers.sh <include-dir>}
cache_root=${VERBS4J_CACHE:-$HOME/.cache/verbs4j}
headers_cache=$cache_root/headers

log() { echo "[verbs4j headers] $*"; }
fail() { echo "[verbs4j headers] ERROR: $*" >&2; exit 1; }

# True when <dir>/infiniband/verbs.h declares the rdma-core >= 45 API.
has_flush_api() {
  [[ -f $1/infiniband/verbs.h ]] && grep -qw "$MIN_FEATURE" "$1/infiniband/verbs.h"
}

# True when <dir>/rdma/rdma_cma.h declares what the connection-manager binding calls.
has_cm_api() {
  [[ -f $1/rdma/rdma_cma.h ]] && grep -qw "$CM_FEATURE" "$1/rdma/rdma_cma.h"
}

require_link_library() {
  # The JNI libraries link against the system libibverbs and librdmacm (not
  # the fetched ones): the unversioned libibverbs.so comes from libibverbs-dev,
  # librdmacm.so.1 from librdmacm1 (linked by its file name).
  local found
  found=$(g++ -print-file-name=libibverbs.so 2>/dev/null || true)
  if [[ $found != /* ]]; then
    fail "libibverbs.so not found for linking. Install: apt-get install -y g++ libibverbs-dev ibverbs-providers rdma-core"
  fi
  found=$(g++ -print-file-name=librdmacm.so.1 2>/dev/null || true)
  if [[ $found != /* ]]; then
    fail "librdmacm.so.1 not found for linking. Install: apt-get install -y librdmacm1"
  fi
}

# The Debian archive host this machine already uses (deb822 or one-line format).
debian_mirror() {
  local uri
  uri=$(grep -hs -E '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null \
          | awk '{for (i = 2; i <= NF; i++) print $i}' | grep -E '/debian/?$' | head -n1 || true)
  if [[ -z $uri ]]; then
    uri=$(grep -hs -E '^\s*deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
            | sed -E 's/\[[^]]*\]//' | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
  fi
  [[ -n $uri ]] || fail "no Debian archive in the apt configuration; set VERBS4J_HEADERS to rdma-core >= 45 headers"
  echo "$uri"
}

# The include root of the newest cached <package> whose headers pass <check>.
newest_cached() {   # <package> <check>
  local dir best=
  while read -r dir; do
    "$2" "$dir/usr/include" && best=$dir/usr/include
  done < <(ls -d "$headers_cache"/"$1"_* 2>/dev/null | sort -V)
  echo "$best"
}

newest_cached_headers() {
  newest_cached libibverbs-dev has_flush_api
}

newest_cached_cm_headers() {
  newest_cached librdmacm-dev has_cm_api
}

# Downloads the given -dev packages with one private apt update and unpacks
# the headers of each into $headers_cache/<package>_<version>/.
fetch_headers() {   # <package>...
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
    || fail "system headers lack $* and apt-get/dpkg-deb are unavailable; set VERBS4J_HEADERS"
  local apt_dir=$headers_cache/.apt mirror suite keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  mirror=$(debian_mirror)
  rm -rf "$apt_dir"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/download"
  for suite in "${SUITES[@]}"; do
    echo "deb [signed-by=$keyring] $mirror $suite main"
  done > "$apt_dir/sources.list"
  local apt_opts=(
    -o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache=$apt_dir/cache"
    -o "Acquire::Languages=none"
    -o "APT::Architectures=amd64"
    -q
  )
  # As root apt would hand the download to the _apt user, which cannot enter
  # a private cache under /root; download as the invoking user instead.
  [[ $(id -u) -eq 0 ]] && apt_opts+=(-o "APT::Sandbox::User=root")
  log "fetching $* (${SUITES[*]}) from $mirror into $apt_dir"
  apt-get "${apt_opts[@]}" update >/dev/null
  (cd "$apt_dir/download" && apt-get "${apt_opts[@]}" download "$@" >/dev/null)
  local package deb version target partial
  for package in "$@"; do
    deb=$(ls "$apt_dir"/download/"$package"_*.deb)
    version=$(dpkg-deb -f "$deb" Version)
    target=$headers_cache/${package}_$version
    partial=$headers_cache/.partial-${package}_$version
    rm -rf "$partial" && mkdir -p "$partial"
    dpkg-deb -x "$deb" "$partial"
    rm -rf "$partial/usr/lib" "$partial/usr/share"   # keep the headers only
    rm -rf "$target" && mv "$partial" "$target"
    log "unpacked $package $version into $target"
  done
  rm -rf "$apt_dir"   # ~45 MB of package lists, only needed once
}

system_headers_version() {
  dpkg-query -W -f='${Version}' libibverbs-dev 2>/dev/null || echo unknown
}

publish() {   # <include root> <description>
  mkdir -p "$out_dir"
  ln -sfn "$1/infiniband" "$out_dir/infiniband"
  ln -sfn "$cm_root" "$out_dir/rdmacm"
  printf '#define VERBS4J_IBVERBS_HEADERS "%s"\n' "$2" > "$out_dir/verbs4j_headers_version.h.tmp"
  mv "$out_dir/verbs4j_headers_version.h.tmp" "$out_dir/verbs4j_headers_version.h"
  log "compiling against $2: $1/infiniband, and $cm_root/rdma"
}

require_link_library

# Where each header set comes from: VERBS4J_HEADERS, the system, or the cache.
verbs_root= verbs_text= cm_root=
if [[ -n ${VERBS4J_HEADERS:-} ]]; then
  has_flush_api "$VERBS4J_HEADERS" || fail "VERBS4J_HEADERS=$VERBS4J_HEADERS has no infiniband/verbs.h declaring $MIN_FEATURE"
  verbs_root=$VERBS4J_HEADERS verbs_text="custom $VERBS4J_HEADERS"
  has_cm_api "$VERBS4J_HEADERS" && cm_root=$VERBS4J_HEADERS
elif has_flush_api /usr/include; then
  verbs_root=/usr/include verbs_text="libibverbs-dev $(system_headers_version) (system)"
fi
[[ -z $cm_root ]] && has_cm_api /usr/include && cm_root=/usr/include

if [[ -z $verbs_root || -z $cm_root ]]; then
  mkdir -p "$headers_cache"
  exec 9>"$headers_cache/.lock"
  flock 9   # parallel builds share one download
  missing=()
  [[ -z $verbs_root && -z $(newest_cached_headers) ]] && missing+=(libibverbs-dev)
  [[ -z $cm_root && -z $(newest_cached_cm_headers) ]] && missing+=(librdmacm-dev)
  (( ${#missing[@]} == 0 )) || fetch_headers "${missing[@]}"
  if [[ -z $verbs_root ]]; then
    verbs_root=$(newest_cached_headers)
    [[ -n $verbs_root ]] || fail "no libibverbs-dev headers declaring $MIN_FEATURE in $headers_cache"
    version=${verbs_root%/usr/include}
    verbs_text="libibverbs-dev ${version##*/libibverbs-dev_} (unpacked, not installed)"
  fi
  if [[ -z $cm_root ]]; then
    cm_root=$(newest_cached_cm_headers)
    [[ -n $cm_root ]] || fail "no librdmacm-dev headers declaring $CM_FEATURE in $headers_cache"
  fi
fi
publish "$verbs_root" "$verbs_text"

#!/usr/bin/env bash
# Chooses the libibverbs headers the JNI binding is compiled against and
# publishes them as an include folder for the JavaCPP build.
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
# Output in <include-dir>:
#   infiniband/               symlink to the chosen infiniband/ header folder
#   verbs4j_headers_version.h #define VERBS4J_IBVERBS_HEADERS "<version> (<origin>)"
#
# Environment:
#   VERBS4J_CACHE    cache root (default $HOME/.cache/verbs4j); headers land in
#                    $VERBS4J_CACHE/headers/libibverbs-dev_<version>/, the private
#                    apt state in $VERBS4J_CACHE/headers/.apt/ (removed after use)
#   VERBS4J_HEADERS  use this folder (containing infiniband/verbs.h) as is
set -euo pipefail

readonly MIN_FEATURE=ibv_wr_flush   # first declared by rdma-core 45
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

require_link_library() {
  # The JNI library links against the system libibverbs (not the fetched one):
  # the unversioned libibverbs.so comes from libibverbs-dev.
  local found
  found=$(g++ -print-file-name=libibverbs.so 2>/dev/null || true)
  if [[ $found != /* ]]; then
    fail "libibverbs.so not found for linking. Install: apt-get install -y g++ libibverbs-dev ibverbs-providers rdma-core"
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

newest_cached_headers() {
  local dir best=
  while read -r dir; do
    has_flush_api "$dir/usr/include" && best=$dir/usr/include
  done < <(ls -d "$headers_cache"/libibverbs-dev_* 2>/dev/null | sort -V)
  echo "$best"
}

fetch_headers() {
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
    || fail "system headers are older than rdma-core 45 and apt-get/dpkg-deb are unavailable; set VERBS4J_HEADERS"
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
  log "fetching libibverbs-dev (${SUITES[*]}) from $mirror into $apt_dir"
  apt-get "${apt_opts[@]}" update >/dev/null
  (cd "$apt_dir/download" && apt-get "${apt_opts[@]}" download libibverbs-dev >/dev/null)
  local deb version target
  deb=$(ls "$apt_dir"/download/libibverbs-dev_*.deb)
  version=$(dpkg-deb -f "$deb" Version)
  target=$headers_cache/libibverbs-dev_$version
  local partial=$headers_cache/.partial-$version
  rm -rf "$partial" && mkdir -p "$partial"
  dpkg-deb -x "$deb" "$partial"
  rm -rf "$partial/usr/lib" "$partial/usr/share"   # keep the headers only
  rm -rf "$target" && mv "$partial" "$target"
  rm -rf "$apt_dir"   # ~45 MB of package lists, only needed once
  has_flush_api "$target/usr/include" || fail "downloaded libibverbs-dev $version lacks $MIN_FEATURE"
  log "unpacked libibverbs-dev $version into $target"
}

system_headers_version() {
  dpkg-query -W -f='${Version}' libibverbs-dev 2>/dev/null || echo unknown
}

publish() {   # <include root> <description>
  mkdir -p "$out_dir"
  ln -sfn "$1/infiniband" "$out_dir/infiniband"
  printf '#define VERBS4J_IBVERBS_HEADERS "%s"\n' "$2" > "$out_dir/verbs4j_headers_version.h.tmp"
  mv "$out_dir/verbs4j_headers_version.h.tmp" "$out_dir/verbs4j_headers_version.h"
  log "compiling against $2: $1/infiniband"
}

require_link_library

if [[ -n ${VERBS4J_HEADERS:-} ]]; then
  has_flush_api "$VERBS4J_HEADERS" || fail "VERBS4J_HEADERS=$VERBS4J_HEADERS has no infiniband/verbs.h declaring $MIN_FEATURE"
  publish "$VERBS4J_HEADERS" "custom $VERBS4J_HEADERS"
  exit 0
fi

if has_flush_api /usr/include; then
  publish /usr/include "libibverbs-dev $(system_headers_version) (system)"
  exit 0
fi

mkdir -p "$headers_cache"
exec 9>"$headers_cache/.lock"
flock 9   # parallel builds share one download
cached=$(newest_cached_headers)
if [[ -z $cached ]]; then
  fetch_headers
  cached=$(newest_cached_headers)
fi
[[ -n $cached ]] || fail "no usable headers in $headers_cache"
version=${cached%/usr/include}
version=${version##*/libibverbs-dev_}
publish "$cached" "libibverbs-dev $version (unpacked, not installed)"

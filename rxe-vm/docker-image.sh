#!/usr/bin/env bash
# Prepares, on the host, what the Docker engine in the guest loads: a Debian sid
# base image made from Debian packages (mmdebstrap into a tarball, then `docker
# import`), and docker/Dockerfile built on it as far as its package layer, both
# saved in one tarball in the cache. The guest has no archive, so the Dockerfile's
# apt-get runs here; in the guest `docker build --cache-from` finds that layer and
# only copies the class path. Prints the tarball's path.
#
#   docker-image.sh [--refresh]
#
# The tarball is rebuilt when docker/Dockerfile or docker/entrypoint.sh change;
# the base tarball only with --refresh. The build uses a private Docker daemon
# (its own socket and data root in a temporary folder, no bridge, no iptables)
# that is stopped afterwards, so a Docker engine the host may run is left alone.
# Needs root (or password-less sudo) and the Debian archive.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

REFRESH=0
case "${1:-}" in
    --refresh) REFRESH=1 ;;
    "") ;;
    *) echo "usage: docker-image.sh [--refresh]" >&2; exit 2 ;;
esac
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes
CONTEXT=$(cd "$RXEVM_HOME/../docker" && pwd)
OUT=$RXEVM_CACHE/docker
BASE_TAR=$OUT/debian-sid-base.tar
# Debian's client, which speaks the API of the daemon it comes with; as root, like the
# private daemon whose socket it uses.
docker_cli() { as_root /usr/bin/docker -H "$DAEMON_HOST" "$@"; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_docker_packages() {
    local pkg missing=()
    for pkg in "${RXEVM_DOCKER_PACKAGES[@]}"; do
        [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)" = installed ] || missing+=("$pkg")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    rxevm_say "installing host packages: ${missing[*]}"
    if ! as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
        as_root apt-get update -q >/dev/null
        as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# minbase sid without documentation, like the slim images; the host's choice on
# release-file expiry (snapshot mirrors) carries over to the image's apt.
build_base() {
    local opts=() valid
    valid=$(apt-config dump Acquire::Check-Valid-Until | sed -nE 's/^Acquire::Check-Valid-Until "(.*)";$/\1/p')
    [ "$valid" != false ] || opts+=(--aptopt='Acquire::Check-Valid-Until "false"')
    rxevm_say "building the Debian sid base image with mmdebstrap"
    as_root mmdebstrap --quiet --variant=minbase --format=tar "${opts[@]}" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        sid "$BASE_TAR.tmp" "$(rxevm_debian_mirror)" >&2
    mv "$BASE_TAR.tmp" "$BASE_TAR"
}

DAEMON_DIR=
stop_daemon() {
    [ -n "$DAEMON_DIR" ] || return 0
    if [ -s "$DAEMON_DIR/dockerd.pid" ]; then
        local pid
        pid=$(cat "$DAEMON_DIR/dockerd.pid")
        as_root kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do as_root kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    # The daemon leaves its network namespace file mounted.
    awk -v dir="$DAEMON_DIR/" 'index($2, dir) == 1 { print $2 }' /proc/mounts | sort -r |
        while read -r mount; do as_root umount "$mount" || true; done
    as_root rm -rf "$DAEMON_DIR"
}

start_daemon() {
    DAEMON_DIR=$(mktemp -d "$OUT/daemon.XXXXXX")
    trap stop_daemon EXIT
    DAEMON_HOST=unix://$DAEMON_DIR/docker.sock
    as_root dockerd --host "$DAEMON_HOST" --data-root "$DAEMON_DIR/data" --exec-root "$DAEMON_DIR/exec" \
        --pidfile "$DAEMON_DIR/dockerd.pid" --iptables=false --ip-masq=false --bridge=none \
        >"$DAEMON_DIR/dockerd.log" 2>&1 &
    for _ in $(seq 1 300); do
        docker_cli info >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    tail -n 20 "$DAEMON_DIR/dockerd.log" >&2
    rxevm_die "the private Docker daemon did not start"
}

main() {
    mkdir -p "$OUT"
    install_docker_packages
    [ "$REFRESH" = 0 ] && [ -s "$BASE_TAR" ] || build_base
    local key tarball
    key=$(cat "$CONTEXT/Dockerfile" "$CONTEXT/entrypoint.sh" | sha256sum | cut -c1-16)
    tarball=$OUT/rxe-conformance-$key.tar
    if [ "$REFRESH" = 1 ] || [ ! -s "$tarball" ] || [ "$BASE_TAR" -nt "$tarball" ]; then
        start_daemon
        docker_cli import "$BASE_TAR" "$RXEVM_DOCKER_BASE" >/dev/null
        # The package layer only: the class path comes in the guest's own build.
        local context=$DAEMON_DIR/context
        mkdir -p "$context/target/image/lib"
        cp "$CONTEXT/Dockerfile" "$CONTEXT/entrypoint.sh" "$context/"
        rxevm_say "building docker/Dockerfile on $RXEVM_DOCKER_BASE (apt-get from the Debian archive)"
        docker_cli build --network host --build-arg BASE_IMAGE="$RXEVM_DOCKER_BASE" \
            -t "$RXEVM_DOCKER_PACKAGES_IMAGE" "$context" >"$OUT/build.log" 2>&1 ||
            { tail -n 30 "$OUT/build.log" >&2; rxevm_die "the image build failed (log: $OUT/build.log)"; }
        find "$OUT" -maxdepth 1 -name 'rxe-conformance-*.tar' -delete
        docker_cli save -o "$tarball.tmp" "$RXEVM_DOCKER_BASE" "$RXEVM_DOCKER_PACKAGES_IMAGE"
        mv "$tarball.tmp" "$tarball"
        stop_daemon
        DAEMON_DIR=
    fi
    echo "$tarball"
}

main

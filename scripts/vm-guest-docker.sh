#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth): a Docker engine on the guest kernel,
# then docker/'s container suite on it, as on any host with rdma_rxe. Steps:
#   1. dockerd (Debian's docker.io from the host's root): cgroup v2, a tmpfs /var/lib/docker,
#      overlay2 (vfs if overlay2 cannot start), no default bridge and no iptables (the suite's
#      container uses the host network; the two containers of steps 4 and 5 a user-defined network,
#      which needs neither, see docker/README.md); `docker load` of the images
#      rxe-vm/docker-image.sh saved on the host (VERBS4J_DOCKER_IMAGES, the tarball's path);
#      a trivial container of the base image.
#   2. RxeConformanceContainerTest through Testcontainers (its main: the JUnit launcher on the
#      class path Maven wrote, docker/target/test-classpath.txt): builds docker/Dockerfile
#      with --cache-from the loaded package layer (the guest has no archive), runs the image
#      privileged on the host network; its entrypoint creates rxe0 on veth0 (the guest's own
#      rxe0 is deleted first), runs the suite, deletes the device. The report is the matrix
#      column ibverbs-rxe-container.
#   3. Only where Testcontainers gave no report: the same with the docker CLI.
#   4. SoftRxeContainersTest through Testcontainers: two containers on one Docker network (a
#      Linux bridge; each container in its own network namespace), the ibverbs one with an rxe
#      device on its own eth0 running the suite, the soft one running the conformance agent on
#      its eth0: the column rxe-to-soft-containers, the families that put traffic on the wire
#      (base, cm, flush, atomicwrite; see two_containers below).
#   5. SoftToRxeContainersTest: the same the other way round, the soft container running the
#      suite, the ibverbs one the agent (its entrypoint with CONFORMANCE_ROLE=agent): the column
#      soft-to-rxe-containers, the same families. Each container has both roles; the first
#      boot's bare rxe-to-soft and soft-to-rxe columns run everything both ways.
#      Kernels whose rdma_rxe has no per-namespace sockets skip 4 and 5 (containers-skipped.txt,
#      containers-soft-to-rxe-skipped.txt say why).
# VERBS4J_DOCKER_TESTS picks what runs after step 1 (default "suite containers soft-to-rxe":
# 2, 4 and 5). rxe0 is set up again afterwards. Results in target/vm/docker/ and
# conformance-tests/target/conformance/{ibverbs-rxe-container,rxe-to-soft-containers,soft-to-rxe-containers}.json;
# docker.rc is 0 when the first column was written and no device was left after the runs.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. rxe-vm/lib.sh
source scripts/vm-guest-env.sh
out=target/vm/docker
rm -rf "$out"
mkdir -p "$out"
label=ibverbs-rxe-container
report=$out/report
image=verbs4j/rxe-conformance:local
netdev=veth0
step() { echo "== docker: $* (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"; }
timing() { echo "$1 $2" >> "$out/timing.txt"; echo "== docker: $1 took $2 s"; }
fail() { echo "== docker: FAILED: $*"; echo "$*" > "$out/error.txt"; echo 1 > "$out/docker.rc"; exit 1; }

images=${VERBS4J_DOCKER_IMAGES:-}
[ -s "$images" ] || fail "no image tarball (VERBS4J_DOCKER_IMAGES='$images'; rxe-vm/docker-image.sh makes it on the host)"

step "dockerd"
start=$SECONDS
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup || fail "cannot mount cgroup2"
mkdir -p /var/lib/docker /etc/docker
mount -t tmpfs -o mode=0711 docker /var/lib/docker || fail "cannot mount a tmpfs on /var/lib/docker"
# The host's daemon.json, if any, is not for this engine.
echo '{}' > /etc/docker/daemon.json
start_dockerd() { # storage driver
    dockerd --storage-driver "$1" --iptables=false --ip6tables=false --ip-masq=false --bridge=none \
        > "$out/dockerd-$1.log" 2>&1 &
    dockerd_pid=$!
    for _ in $(seq 1 600); do
        docker info > /dev/null 2>&1 && return 0
        kill -0 "$dockerd_pid" 2>/dev/null || return 1
        sleep 0.1
    done
    kill "$dockerd_pid"; wait "$dockerd_pid"
    return 1
}
docker() { /usr/bin/docker "$@"; }
if ! start_dockerd overlay2; then
    tail -n 5 "$out/dockerd-overlay2.log"
    echo "== docker: overlay2 did not start, trying vfs"
    rm -rf /var/lib/docker/* /run/docker /run/docker.pid
    start_dockerd vfs || { tail -n 20 "$out/dockerd-vfs.log"; fail "dockerd did not start"; }
fi
docker info > "$out/docker-info.txt" 2>&1
grep -E 'Server Version|Storage Driver|Cgroup (Driver|Version)|Kernel Version|Operating System' "$out/docker-info.txt"
timing dockerd $((SECONDS - start))

step "docker load $images ($(du -h "$images" | cut -f1))"
start=$SECONDS
docker load -i "$images" || fail "docker load failed"
timing load $((SECONDS - start))

step "a trivial container of the base image"
start=$SECONDS
docker run --rm --network host "$RXEVM_DOCKER_BASE" sh -c '. /etc/os-release; echo "container: $PRETTY_NAME, kernel $(uname -r)"' ||
    fail "the base image does not run"
timing trivial-container $((SECONDS - start))

# The container creates its own device, on the guest's veth0, and deletes it when it ends.
rdma link delete rxe0 || fail "cannot delete the guest's rxe0"
restore_rxe0() {
    [ -d /sys/class/infiniband/rxe0 ] || rdma link add rxe0 type rxe netdev "$netdev"
}
trap restore_rxe0 EXIT

suite_args="--timeout-ms 30000"
# The container's own column leaves out the remote access matrix (access/, 810 of its 1024
# cases): it checks how rxe answers each kind of key, the same kernel code the first boot's
# ibverbs-rxe column runs whole on the same kernel, while what the container changes (the
# device made inside it, its network namespace, its limits) every other family meets too.
container_suite_args="$suite_args --exclude access"
# docker_test CLASS LOG [-Dverbs4j.docker.*=...]: one of docker/'s tests through Testcontainers,
# with what both share (the image's context, the report folder, the cached base and packages).
# The guest's root is the host's, so where the host is itself a container (/.dockerenv)
# Testcontainers believes it runs in one and asks for the gateway of the engine's "bridge"
# network, which this engine has none of: the host override answers instead.
docker_test() {
    local class=$1 log=$2
    shift 2
    TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CHECKS_DISABLE=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 \
    java_run -cp "docker/target/test-classes:docker/target/classes:$(cat docker/target/test-classpath.txt)" \
        -Dverbs4j.docker.contextDir="$root/docker" -Dverbs4j.docker.imageDir="$root/docker/target/image" \
        -Dverbs4j.docker.reportDir="$root/$report" -Dverbs4j.docker.baseImage="$RXEVM_DOCKER_BASE" \
        -Dverbs4j.docker.cacheFrom="$RXEVM_DOCKER_PACKAGES_IMAGE" -Dverbs4j.docker.javaOptions=-XX:TieredStopAtLevel=1 \
        -Dverbs4j.docker.suiteArgs="$suite_args" -Dverbs4j.docker.timeoutMinutes=15 \
        "$@" "$class" > "$log" 2>&1
}
tests=" ${VERBS4J_DOCKER_TESTS:-suite containers soft-to-rxe} "
if [[ $tests == *" suite "* ]]; then
    step "RxeConformanceContainerTest through Testcontainers"
    start=$SECONDS
    docker_test dev.verbs4j.docker.RxeConformanceContainerTest "$out/testcontainers.log" \
        -Dverbs4j.docker.label="$label" -Dverbs4j.docker.netdev="$netdev" -Dverbs4j.docker.suiteArgs="$container_suite_args"
    echo $? > "$out/testcontainers.rc"
    grep -E '^\[rxe container\] (SKIPPED:|FAILED, not|report copied|\[verbs4j-rxe\])|^kernel rxe:|tests (successful|failed|skipped|aborted)' "$out/testcontainers.log"
    timing testcontainers $((SECONDS - start))

    if [ ! -s "$report/$label.json" ]; then
        tail -n 30 "$out/testcontainers.log"
        step "no report through Testcontainers: the same with the docker CLI"
        start=$SECONDS
        docker build --network host --cache-from "$RXEVM_DOCKER_PACKAGES_IMAGE" --build-arg BASE_IMAGE="$RXEVM_DOCKER_BASE" \
            -t "$image" docker > "$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; fail "docker build failed"; }
        grep -c 'Using cache' "$out/build.log" | sed 's/^/steps from the cache: /'
        timing cli-build $((SECONDS - start))
        start=$SECONDS
        # shellcheck disable=SC2086
        docker run --rm --privileged --network host -e CONFORMANCE_LABEL="$label" -e RXE_NETDEV="$netdev" \
            -e JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1 -v "$root/$report:/report" "$image" $container_suite_args \
            > "$out/cli-run.log" 2>&1
        echo $? > "$out/cli-run.rc"
        grep -E '^\[verbs4j-rxe\]|^==== verbs4j' "$out/cli-run.log"
        timing cli-run $((SECONDS - start))
    fi
fi

# two_containers WORD CLASS LABEL FILES SUITE_ARGS: one of the two-container tests, when
# VERBS4J_DOCKER_TESTS names WORD; its log, status and skip reason in $out/FILES.{log,rc} and
# FILES-skipped.txt, its time as the timing line two-FILES, its report copied beside the others.
two_containers() {
    local word=$1 class=$2 label=$3 files=$4 args=$5
    rm -f "conformance-tests/target/conformance/$label.json"
    [[ $tests == *" $word "* ]] || return 0
    step "${class##*.}: $label, two containers on one Docker network"
    local start=$SECONDS
    if grep -qw rxe_ns_pernet_sk4 /proc/kallsyms; then
        echo "== docker: rdma_rxe of kernel $(uname -r) has per-network-namespace sockets"
        # A user-defined Docker network is a Linux bridge with a veth pair per container.
        modprobe bridge || echo "== docker: modprobe bridge failed"
    else
        echo "== docker: rdma_rxe of kernel $(uname -r) has no per-network-namespace sockets: the test skips"
    fi
    # The image an earlier step of this boot built from the same class path (/var/lib/docker is
    # a tmpfs, so an image under that tag was built here), if one did: no second build.
    local built_image=
    if docker image inspect "$image" > /dev/null 2>&1; then
        built_image=$image
    fi
    docker_test "$class" "$out/$files.log" \
        -Dverbs4j.docker.containersLabel="$label" -Dverbs4j.docker.builtImage="$built_image" \
        -Dverbs4j.docker.suiteArgs="$args"
    local rc=$?
    echo "$rc" > "$out/$files.rc"
    grep -E '^\[rxe container\] (SKIPPED:|FAILED, not|report copied|two containers:|agent at|\[verbs4j-rxe\])|^\[(soft|rxe) container\] (soft side|\[verbs4j-rxe\] conformance)|^two containers|tests (successful|failed|skipped|aborted)' "$out/$files.log"
    if [ "$rc" = 2 ]; then
        sed -n 's/^\[rxe container\] SKIPPED: //p' "$out/$files.log" | head -n 1 > "$out/$files-skipped.txt"
    elif [ "$rc" != 0 ]; then
        tail -n 30 "$out/$files.log"
    fi
    timing "two-$files" $((SECONDS - start))
    echo "== docker: bridge modules loaded: $(lsmod | awk '$1 ~ /^(bridge|stp|llc|br_netfilter)$/ { printf "%s ", $1 }')"
    if [ -s "$report/two-containers/$label.json" ]; then
        mkdir -p conformance-tests/target/conformance
        cp "$report/two-containers/$label.json" conformance-tests/target/conformance/
    fi
}
# What two containers change is the network between the two sides: a Docker bridge, a network
# namespace each, rxe0 made on the ibverbs container's own eth0, the soft device on the other's.
# So both directions run the families that put traffic on the wire in every header shape (base
# with RC, UC and UD, the connection manager, FLUSH, ATOMIC WRITE), as the IPv6 columns do, and
# leave out those that check keys, pages, windows and local errors (access, odp, memwindow,
# errors, misuse): the same engine and kernel code whatever carries the packets, which the first
# boot's bare rxe-to-soft and soft-to-rxe columns run whole both ways on the same kernel.
wire_families="--exclude access --exclude odp --exclude memwindow --exclude errors --exclude misuse"
two_containers containers dev.verbs4j.docker.SoftRxeContainersTest rxe-to-soft-containers containers \
    "$suite_args $wire_families"
two_containers soft-to-rxe dev.verbs4j.docker.SoftToRxeContainersTest soft-to-rxe-containers containers-soft-to-rxe \
    "$suite_args $wire_families"

status=0
if rdma link show | grep -q .; then
    echo "== docker: FAILED: an rdma device is left after the container ended: $(rdma link show)"
    status=1
fi
restore_rxe0
trap - EXIT
if [ -s "$report/$label.json" ]; then
    mkdir -p conformance-tests/target/conformance
    cp "$report/$label.json" conformance-tests/target/conformance/
elif [[ $tests != *" suite "* ]]; then
    echo "== docker: RxeConformanceContainerTest not asked for (VERBS4J_DOCKER_TESTS='${VERBS4J_DOCKER_TESTS:-}')"
else
    echo "== docker: FAILED: no $report/$label.json"
    status=1
fi
echo "$status" > "$out/docker.rc"
step "done"
exit "$status"

#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth): rxe0 on veth0 (10.9.0.1) in the
# root namespace, veth1 (10.9.0.2) in namespace 'peer'. One boot does all the kernel-rxe
# work: rdma-core's own pyverbs tests on rxe0 (the reference the suite is mapped to), the
# conformance suite against the ibverbs provider on rxe0, soft <-> kernel interop
# across the veth pair in both directions, the perf runs beside perftest, and NVMe over
# Fabrics between the kernel's NVMe host and target and verbs4j's (scripts/vm-guest-nvmeof.sh).
# Results go to target/vm/ and conformance-tests/target/conformance/ (shared with the host).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=target/vm
mkdir -p "$out"
step() { echo "== $* (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"; }
source scripts/vm-guest-env.sh
classpath=$(suite_classpath)
tools_classpath=$(tools_classpath)

step "device"
ibv_devinfo -v > "$out/ibv_devinfo.txt" 2>&1
grep -E "hca_id|fw_ver|device_cap_flags_ex|ODP|state" "$out/ibv_devinfo.txt" | head -20

# rdma-core's own suite (pyverbs' tests), the reference the suite's cases are mapped to
# (conformance-tests/pyverbs/mapping.tsv): run once, unchanged, on rxe0. fetch.sh installs it
# beside the library that LD_LIBRARY_PATH names. GID 1 is veth0's IPv4 address; GID 0, the
# link-local one, has no route here (IPv6 is off on veth0).
step "rdma-core's pyverbs tests on rxe0"
rdma_prefix=$(dirname "$LD_LIBRARY_PATH")
start=$SECONDS
PYTHONPATH="$LD_LIBRARY_PATH/python3/dist-packages" timeout 900 python3 scripts/pyverbs-run.py \
    "$rdma_prefix/share/doc/rdma-core/tests" conformance-tests/target/conformance/pyverbs-rxe.json --dev rxe0 --gid 1 -v \
    > "$out/pyverbs.log" 2>&1
echo $? > "$out/pyverbs.rc"
tail -n 3 "$out/pyverbs.log"
echo "== pyverbs took $(( SECONDS - start )) s"

# The connection manager's columns (cm-ibverbs-rxe here, cm-soft-to-rxe and cm-rxe-to-soft
# below) connect every RC pair through it: the kernel's rdma_cm (librdmacm) on rxe0, the soft
# provider's IB CM on the wire against it. What the connection manager decides is the pair's
# attributes (PSNs, MTU, path, retry counts, responder resources), so these columns keep the
# families that traffic and its failures run through: base, cm, errors, flush and atomicwrite.
# They leave out what depends only on keys, pages and the local API: the remote access matrix
# (access/), memory windows, ODP and misuse; the columns without the connection manager run
# those whole between the same providers (vm-guest-kernel.sh does the same).
cm_families="--exclude access --exclude memwindow --exclude odp --exclude misuse"
# The whole suite on rxe0, then through the connection manager: one JVM, a run each (--next).
step "conformance suite: ibverbs on rxe0, then connected through the connection manager"
rxe_rxe="--provider ibverbs --device rxe0 --peer-device rxe0 --report-dir conformance-tests/target/conformance --timeout-ms 30000"
java_run -cp "$classpath" dev.verbs4j.conformance.ConformanceMain $rxe_rxe --label ibverbs-rxe \
    --next $rxe_rxe --connect cm $cm_families --label cm-ibverbs-rxe > "$out/conformance.log" 2>&1
echo $? > "$out/conformance.rc"
tail -n 40 "$out/conformance.log"

# The kernel's soft-iWARP (siw0, beside rxe0 where run.sh -m brought siw.ko): the whole suite
# on it, both sides on siw0, every pair through the connection manager (iWARP has no other way
# to connect). It runs in namespace peer, where siw0's interface is. What siw lacks (atomics,
# windows, UD, ODP, immediate data) is a skip from what it reports; where it answers otherwise
# than IBTA, the case is in conformance-tests/findings/ibverbs-siw.tsv. 3 s per case: a case
# siw never completes fails after that, and is listed (nine of them: the wait is most of the
# column's time); every case siw does complete takes 1 s at most here.
step "conformance suite: ibverbs on siw0, through the connection manager"
rm -f "$out/siw.skipped"
if [ -e /sys/class/infiniband/siw0 ]; then
    start=$SECONDS
    ip netns exec peer bash -c "source scripts/vm-guest-env.sh; java_run -cp $classpath dev.verbs4j.conformance.ConformanceMain \
        --provider ibverbs --device siw0 --peer-device siw0 --connect cm --label ibverbs-siw \
        --report-dir conformance-tests/target/conformance --timeout-ms 3000" > "$out/conformance-siw.log" 2>&1
    echo $? > "$out/conformance-siw.rc"
    grep -E '^==== verbs4j' "$out/conformance-siw.log"
    echo "== the siw column took $(( SECONDS - start )) s"
    # rping, rdma_server/rdma_client and perftest -R on siw0 against verbs4j's ibverbs provider on it.
    start=$SECONDS
    CM_DEVICE=siw0 bash scripts/vm-guest-cm.sh > "$out/c-tools-cm-siw.log" 2>&1
    grep -c "^pass" "$out/c-tools-cm-siw.log" | sed 's/^/siw pairings passed: /'
    grep "^fail" "$out/c-tools-cm-siw.log" | tail -n 20
    echo "== the siw connection-manager pairings took $(( SECONDS - start )) s"
else
    echo "no siw0 in this boot (the kernel has no siw and run.sh was given no siw.ko)" | tee "$out/siw.skipped"
fi

# The API fuzzer on the ibverbs provider: 20,000 random calls on rxe0 in a child JVM, judged
# from outside by FuzzLauncher (exit status, an hs_err file if the JVM crashed, descriptors and
# native memory back at their start). vm-evaluate.py fails the run on a non-zero fuzz.rc.
step "API fuzzer: ibverbs on rxe0"
start=$SECONDS
java_run -cp "$classpath" dev.verbs4j.conformance.fuzz.FuzzLauncher --work-dir "$out/fuzz" --time-limit-s 400 \
    --jvm-option -XX:TieredStopAtLevel=1 --provider ibverbs --device rxe0 --calls 20000 --seed 17 > "$out/fuzz.log" 2>&1
echo $? > "$out/fuzz.rc"
tail -n 4 "$out/fuzz.log"
echo "== the fuzzer took $(( SECONDS - start )) s"

# The connection manager through librdmacm: an ibverbs client and server on rxe0 (10.9.0.1 to
# itself). With -Dverbs4j.cm.silentPeer=10.9.0.2 (a host that answers ARP but runs no RDMA) it
# also waits out the kernel's UNREACHABLE, about 80 s, which the test command leaves out.
step "connection manager: ibverbs on rxe0"
java_run -cp "native/target/test-classes:$classpath" dev.verbs4j.ibverbs.CmRxeLoopbackTest \
    > "$out/cm.log" 2>&1
echo $? > "$out/cm.rc"
grep -E "^(resolved|CONNECT_REQUEST|client ESTABLISHED|no listener|reject|address|host without)|tests (successful|failed)" "$out/cm.log"

# The whole suite with its two sides on the two providers: the side posting the requests in
# one namespace, the remote side in a conformance agent in the other, over the veth pair.
# The soft side sends the kernel's FLUSH ICRC variant (see Icrc.computeRxeFlush).
soft_opts="-Dverbs4j.soft.devices=soft0=10.9.0.2 -Dverbs4j.soft.rxeFlushIcrc=true"
cross_suite() { # $1 = label, $2 = agent command, $3 = suite command (namespace prefixes included)
    local label=$1 agent=$2 suite=$3
    step "conformance suite: $label"
    local start=$SECONDS
    eval "$agent" > "$out/$label-agent.log" 2>&1 &
    local apid=$!
    eval "$suite" > "$out/$label.log" 2>&1
    echo $? > "$out/$label.rc"
    wait "$apid"
    echo "agent exit status $?" >> "$out/$label-agent.log"
    grep -E '^==== verbs4j|^FAILED' "$out/$label.log" | head -n 24
    echo "== $label took $(( SECONDS - start )) s"
}
# Several columns between the same two sides, one JVM a side: the suite makes one run a
# column (ConformanceMain ... --next ...), the agent serves them one after another
# (--sessions N). Under emulation a JVM's start and a device's opening are 10-20 s of each
# column; the columns are as independent as in JVMs of their own (each run starts from the
# JVM's options and opens its devices afresh).
suite_opts() { # $1 = options every column has (each run names all of its own), then each column's own options as one word
    local common=$1 first=1 column
    shift
    for column in "$@"; do
        [ "$first" = 1 ] || printf ' --next '
        printf '%s %s' "$common" "$column"
        first=0
    done
}
suite_common="--report-dir conformance-tests/target/conformance --timeout-ms 30000"
suite_class=dev.verbs4j.conformance.ConformanceMain
suite_main="$suite_class $suite_common"
agent_main="dev.verbs4j.conformance.agent.AgentMain"
# Across providers the remote access matrix runs through plain regions only, in both
# directions: the kind of key (window, fast-registered or on-demand region) is the
# responder's business, and each responder's handling of every kind has a column of its own
# (rxe's: ibverbs-rxe; the soft engine's: soft-soft and soft-soft-processes), while what a
# requester does with an rkey and the answer does not depend on the kind.
requester_keys='--exclude "access.RemoteAccessMatrixTest#*.mw*" --exclude "access.RemoteAccessMatrixTest#*.fr.*"'
requester_keys+=' --exclude "access.RemoteAccessMatrixTest#*.odp.*"'
# Each direction's two columns (without, then with the connection manager) share a suite JVM and an agent JVM.
cross_suite soft-to-rxe "java_run -cp $classpath $agent_main --listen 10.9.0.1:18600 --sessions 2" \
    "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; java_run $soft_opts -cp $classpath $suite_class \
        $(suite_opts "$suite_common --provider soft --device soft0 --peer-provider ibverbs --peer-device rxe0 --peer-agent 10.9.0.1:18600" \
            "$requester_keys --label soft-to-rxe" "--connect cm $cm_families --label cm-soft-to-rxe")'"
cross_suite rxe-to-soft "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; java_run $soft_opts -cp $classpath $agent_main --listen 10.9.0.2:18601 --sessions 2'" \
    "java_run -cp $classpath $suite_class $(suite_opts "$suite_common --provider ibverbs --device rxe0 --peer-provider soft --peer-device soft0 \
        --peer-agent 10.9.0.2:18601" "$requester_keys --label rxe-to-soft" "--connect cm $cm_families --label cm-rxe-to-soft")"

two_sides() { # $1 = what to call the logs, $2 = server command (namespace prefix included), $3 = client command
    local name=$1 server=$2 client=$3
    step "$name"
    eval "$server" > "$out/$name-server.log" 2>&1 &
    local spid=$!
    eval "$client" > "$out/$name-client.log" 2>&1
    local crc=$?
    wait "$spid"
    echo "$crc $?" > "$out/$name.rc"
    tail -n 4 "$out/$name-client.log" "$out/$name-server.log"
}
interop() { two_sides "interop-$1" "$2" "$3"; }
# The kernel accepts FLUSH only with its own ICRC variant (see Icrc.computeRxeFlush): the
# soft side sends that form here, and captures its traffic for the record.
pp="java_run -cp $tools_classpath dev.verbs4j.tools.Verbs4jCli pingpong --all-ops --iters 20 --size 5000"
soft="java_run -Dverbs4j.soft.rxeFlushIcrc=true -Dverbs4j.soft.pcap=$out/pcap -cp $tools_classpath dev.verbs4j.tools.Verbs4jCli pingpong --all-ops --iters 20 --size 5000"
interop kernel-server-soft-client "$pp --provider ibverbs --device rxe0 --port 18515" \
    "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; $soft --address 10.9.0.2 --port 18515 10.9.0.1'"
interop soft-server-kernel-client "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; $soft --address 10.9.0.2 --port 18516'" \
    "$pp --provider ibverbs --device rxe0 --port 18516 10.9.0.2"
# The same, connected through the connection manager (pingpong --cm): librdmacm on rxe0, the
# soft provider's CM in the peer namespace.
interop cm-kernel-server-soft-client "$pp --cm --provider ibverbs --device rxe0 --port 18519" \
    "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; $soft --cm --address 10.9.0.2 --port 18519 10.9.0.1'"
interop cm-soft-server-kernel-client "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; $soft --cm --address 10.9.0.2 --port 18520'" \
    "$pp --cm --provider ibverbs --device rxe0 --port 18520 10.9.0.2"

step "rdma-core's ibv_*_pingpong on rxe0 against verbs4j pingpong --compat on a soft device"
start=$SECONDS
scripts/vm-guest-ctools.sh > "$out/c-tools-pingpong.log" 2>&1
grep -c "^pass" "$out/c-tools-pingpong.log" | sed 's/^/pairings passed: /'
grep -v "^pass" "$out/c-tools-pingpong.log" | tail -n 20
echo "== ibv_*_pingpong pairings took $(( SECONDS - start )) s"

step "rping, rdma_server/rdma_client and perftest -R on rxe0 against verbs4j through the connection manager"
start=$SECONDS
bash scripts/vm-guest-cm.sh > "$out/c-tools-cm.log" 2>&1
grep -c "^pass" "$out/c-tools-cm.log" | sed 's/^/pairings passed: /'
grep "^fail" "$out/c-tools-cm.log" | tail -n 20
echo "== connection-manager pairings took $(( SECONDS - start )) s"

# IPv6: the two cross columns again, each device addressed by an IPv6 GID (--gid): the global
# ones (fd00:9::1 on rxe0, fd00:9::2 for the soft device), and the link-local ones that RoCE
# GID tables start with (GID 0 on rxe0; the soft device on veth1's, with its scope). What IPv6
# changes is the addressing: the GIDs and routes, the GRH a UD receive gets, the UDP checksum
# (rxe sends 0), the ICRC over the IPv6 header. So the global columns run the families that
# put traffic on the wire in every header shape (base, cm, flush, atomicwrite) and leave out
# those that check keys, pages and local errors, which do not depend on the IP version and
# which the IPv4 columns run whole (access, odp, memwindow, errors, misuse); the link-local
# columns run the base verbs (RC, UC and UD traffic). The connection manager cannot bind a link-local address
# without its interface, so the cm family skips there with that reason.
# A soft device made on veth1 itself (netdev:veth1), against the kernel's rxe on the same
# interface: the same GID table, GID 0 pairing with rxe0, the MTU and the port's events.
step "a soft device on veth1 (netdev:veth1) against the kernel's rxe on it"
bash scripts/vm-guest-netdev.sh > "$out/netdev.log" 2>&1
tail -n 16 "$out/netdev.log"

step "IPv6 on the veth pair"
if ipv6_on; then
    soft_ll=$(link_local veth1 peer)
    ipv6_global="--gid ipv6 --exclude access --exclude odp --exclude misuse --exclude memwindow --exclude errors"
    ipv6_link_local="--gid ipv6-link-local --select base"
    # One soft JVM a side holds both devices: soft0 on the global address, soft1 on the link-local one.
    v6_opts="-Dverbs4j.soft.devices=soft0=fd00:9::2,soft1=$soft_ll%veth1 -Dverbs4j.soft.rxeFlushIcrc=true"
    cross_suite soft-to-rxe-ipv6 "java_run -cp $classpath $agent_main --listen 10.9.0.1:18610 --sessions 2" \
        "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; java_run $v6_opts -cp $classpath $suite_class \
            $(suite_opts "$suite_common --provider soft --peer-provider ibverbs --peer-device rxe0 --peer-agent 10.9.0.1:18610" \
                "--device soft0 $ipv6_global --label soft-to-rxe-ipv6" "--device soft1 $ipv6_link_local --label soft-to-rxe-ipv6ll")'"
    cross_suite rxe-to-soft-ipv6 "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; java_run $v6_opts -cp $classpath $agent_main --listen 10.9.0.2:18611 --sessions 2'" \
        "java_run -cp $classpath $suite_class $(suite_opts "$suite_common --provider ibverbs --device rxe0 --peer-provider soft --peer-agent 10.9.0.2:18611" \
            "--peer-device soft0 $ipv6_global --label rxe-to-soft-ipv6" "--peer-device soft1 $ipv6_link_local --label rxe-to-soft-ipv6ll")"
else
    echo "== IPv6 columns not run: the addresses did not settle"
fi

step "perf: perftest on rxe0"
{
    ib_write_bw -d rxe0 -x 1 -s 65536 -n 2000 -F --report_gbits > "$out/ib_write_bw-server.log" 2>&1 &
    sleep 2
    ib_write_bw -d rxe0 -x 1 -s 65536 -n 2000 -F --report_gbits 10.9.0.1 > "$out/ib_write_bw.log" 2>&1
    wait
    ib_write_lat -d rxe0 -x 1 -s 8 -n 2000 -F > "$out/ib_write_lat-server.log" 2>&1 &
    sleep 2
    ib_write_lat -d rxe0 -x 1 -s 8 -n 2000 -F 10.9.0.1 > "$out/ib_write_lat.log" 2>&1
    wait
} || true
tail -n 4 "$out/ib_write_bw.log" "$out/ib_write_lat.log"

step "perf: verbs4j on the ibverbs provider, same boot"
# MTU 1024, as perftest picks on rxe0 (veth0's 1500-byte MTU). The soft provider's own figures
# are the host's targets table's (real CPUs); here it is measured against the kernel, below.
java_run -cp "$tools_classpath" dev.verbs4j.tools.Verbs4jCli perf write_bw --provider ibverbs -m 1024 -s 65536 -n 2000 \
    --json "$out/perf.jsonl" > "$out/perf-ibverbs-write_bw.log" 2>&1
java_run -cp "$tools_classpath" dev.verbs4j.tools.Verbs4jCli perf write_lat --provider ibverbs -m 1024 -s 8 -n 2000 \
    --json "$out/perf.jsonl" > "$out/perf-ibverbs-write_lat.log" 2>&1
tail -n 3 "$out"/perf-*.log

perf_pair() { two_sides "perf-$1" "$2" "$3"; }
v4j="java_run -cp $tools_classpath dev.verbs4j.tools.Verbs4jCli"
# perftest's own shape: a server process and a client process on rxe0.
perf_pair ibverbs-two-processes "$v4j perf --server --provider ibverbs --device rxe0 -p 18517" \
    "$v4j perf write_bw --provider ibverbs --device rxe0 -m 1024 -s 65536 -n 2000 -p 18517 --json $out/perf.jsonl 10.9.0.1"
# The soft engine in the peer namespace writing to the kernel rxe across the veth pair.
perf_pair soft-client-kernel-server "$v4j perf --server --provider ibverbs --device rxe0 -p 18518" \
    "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; $v4j perf write_bw --address 10.9.0.2 -m 1024 -s 65536 -n 2000 -p 18518 10.9.0.1'"
# A request that comes twice, as when a requester resends one whose answer was lost or late:
# the soft client sends every packet twice (its fault injector, duplicate:1), so the kernel
# responder sees each READ, ATOMIC WRITE and FLUSH again at its PSN. IBTA has a responder
# answer a duplicate of these again; the client's counters say how many answers came back.
# vm-evaluate.py makes them the cases of the repeated-requests column.
uname -r > "$out/repeat-kernel.txt"
port=18530
for test in read_lat atomic_write_lat flush_lat; do
    perf_pair "repeat-$test" "$v4j perf --server --provider ibverbs --device rxe0 -p $port" \
        "ip netns exec peer bash -c 'source scripts/vm-guest-env.sh; java_run -Dverbs4j.soft.faults=duplicate:1 $soft_opts -cp $tools_classpath dev.verbs4j.tools.Verbs4jCli perf $test -n 100 -w 0 --address 10.9.0.2 -p $port 10.9.0.1'"
    port=$((port + 1))
done
bash scripts/vm-guest-perftest.sh
# The soft provider against rxe0 over a lossy, slow link (netem: 1 ms, 1 % loss), with the kernel
# against itself as the reference and the suite's RC families; vm-evaluate.py judges lossy.txt.
bash scripts/vm-guest-lossy.sh

# NVMe over Fabrics: the kernel's host and target against verbs4j's, both ways, both providers;
# the nvmeof column (target/vm/nvmeof.tsv, judged by vm-evaluate.py).
step "NVMe over Fabrics: nvme-rdma, nvmet-rdma, nvme-cli and fio against verbs4j's target and host"
bash scripts/vm-guest-nvmeof.sh > "$out/nvmeof-guest.log" 2>&1
grep -E "^(fail|== nvmeof took)" "$out/nvmeof-guest.log"
bash kernel/reproducers/run.sh "$out/reproducers.tsv"

# Whatever ran above, the kernel must not have faulted: an oops kills the thread that made the
# call (a JVM may go on without it) and may have written where it should not.
# vm-evaluate.py fails the run on any line here.
dmesg | grep -E "BUG:|Oops|general protection fault|Kernel panic" > "$out/kernel-faults.txt"
head -n 5 "$out/kernel-faults.txt"
step "done"

#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -k KERNEL): the conformance suite against the
# ibverbs provider on rxe0, both sides on the kernel, as the column ibverbs-rxe-<release>
# (the release without -amd64), then once more connected through the connection manager
# (cm-ibverbs-rxe-<release>) with the families of vm-guest.sh's cm- columns: the remote access
# matrix, memory windows, ODP and misuse check keys, pages and the local API whatever connected
# the pair, and ran in the first column. What scripts/vm-guest.sh does beyond that suite runs on
# the default kernel only. Results go to target/vm/kernels/<release>/ and
# conformance-tests/target/conformance/ (shared with the host).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
classpath=$(suite_classpath)
release=$(uname -r)
label=ibverbs-rxe-${release%-amd64}
out=target/vm/kernels/$release
# VERBS4J_RXE_PATCHED=1: this boot's rdma_rxe is kernel/patches' series (run.sh -m), so the
# column is ibverbs-rxe-patched, into target/vm/patched/. It leaves out the connection
# manager's column: the series changes no code of the CM's, which cm-ibverbs-rxe runs on this
# kernel's own module.
patched=${VERBS4J_RXE_PATCHED:-0}
if [ "$patched" = 1 ]; then
    label=ibverbs-rxe-patched
    out=target/vm/patched
fi
mkdir -p "$out"
ibv_devinfo -v > "$out/ibv_devinfo.txt" 2>&1
echo "== conformance suite: ibverbs on rxe0, kernel $release (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"
start=$SECONDS
java_run -cp "$classpath" \
    dev.verbs4j.conformance.ConformanceMain --provider ibverbs --device rxe0 --peer-device rxe0 \
    --label "$label" --report-dir conformance-tests/target/conformance --timeout-ms 30000 > "$out/conformance.log" 2>&1
status=$?
echo "$status" > "$out/conformance.rc"
grep -E '^==== verbs4j' "$out/conformance.log"
# Again with every RC pair connected through this kernel's rdma_cm.
if [ "$patched" != 1 ]; then
    java_run -cp "$classpath" \
        dev.verbs4j.conformance.ConformanceMain --provider ibverbs --device rxe0 --peer-device rxe0 --connect cm \
        --exclude access --exclude memwindow --exclude odp --exclude misuse \
        --label "cm-$label" --report-dir conformance-tests/target/conformance --timeout-ms 30000 > "$out/conformance-cm.log" 2>&1
    echo $? > "$out/conformance-cm.rc"
    grep -E '^==== verbs4j' "$out/conformance-cm.log"
fi
echo "== suite on kernel $release took $(( SECONDS - start )) s"
bash kernel/reproducers/run.sh "$out/reproducers.tsv"
exit 0

#!/usr/bin/env bash
# The rxe reproducers, one C file per defect in this folder.
#   run.sh RESULT.tsv   builds what is stale, runs each once on RXE_DEVICE (rxe0) and writes
#                       one line per reproducer to RESULT.tsv:
#                         name <TAB> exit status <TAB> the line it printed
#   run.sh --build      only builds (on the host, before the VM boots: a compiler under the
#                       guest's emulation takes about a minute for them all)
# A reproducer exits 0 where the kernel behaves as IBTA asks, 1 where the defect shows, 2 on a
# setup error, 77 when skipped (the kernel lacks what it needs, or it would take a stock kernel
# down: REPRO_ALLOW_PANIC=1 runs those too); 124 here means it timed out (10 s).
# Runs in rxe-vm (-n veth, which the wire reproducers need), whose LD_LIBRARY_PATH names the
# rdma-core build's lib folder, its headers beside it; --build finds that build through
# rxe-vm's state.env. Programs go to target/reproducers/ of the work tree. Exits 0 unless it
# could not build.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$root/target/reproducers

if [ "${1:-}" = --build ]; then
    state=${RXEVM_CACHE:-${VERBS4J_CACHE:-$HOME/.cache/verbs4j}/rxe-vm}/state.env
    prefix=$(sed -n 's/^RDMA_CORE_PREFIX=//p' "$state" 2>/dev/null)
else
    out=${1:?usage: run.sh RESULT.tsv | run.sh --build}
    prefix=$(dirname "${LD_LIBRARY_PATH%%:*}")
fi
[ -f "$prefix/include/infiniband/verbs.h" ] || { echo "run.sh: no rdma-core 65 headers found" >&2; exit 2; }
mkdir -p "$bin"
pids=()
for src in "$here"/*.c; do
    name=$(basename "$src" .c)
    if [ ! -x "$bin/$name" ] || [ "$src" -nt "$bin/$name" ] || [ "$here/repro.h" -nt "$bin/$name" ] \
        || [ "$here/roce.h" -nt "$bin/$name" ]; then
        cc -O2 -Wall -I"$prefix/include" -L"$prefix/lib" -o "$bin/$name" "$src" -libverbs &
        pids+=($!)
    fi
done
for pid in "${pids[@]}"; do
    wait "$pid" || exit 2
done
[ "${1:-}" != --build ] || exit 0

start=$SECONDS
mkdir -p "$(dirname "$out")"
: > "$out"
for src in "$here"/*.c; do
    name=$(basename "$src" .c)
    args=()
    [[ $name != *-panic ]] || [ "${REPRO_ALLOW_PANIC:-0}" != 1 ] || args=(--allow-panic)
    line=$(timeout 10 "$bin/$name" "${args[@]}" 2>&1)
    status=$?
    line=$(printf '%s\n' "$line" | grep "^$name: " | tail -n 1)
    [ -n "$line" ] || line="$name: no verdict (exit status $status)"
    printf '%s\t%s\t%s\n' "$name" "$status" "$line" >> "$out"
    echo "$line"
done
echo "== reproducers on kernel $(uname -r) took $(( SECONDS - start )) s"
exit 0

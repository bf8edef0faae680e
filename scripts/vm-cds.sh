#!/usr/bin/env bash
# Makes, on the host, the class-data archives the micro-VM's JVMs map (see java_run in
# scripts/vm-guest-env.sh): one for the conformance suite's class path, one for the tools', one
# for the NVMe-oF target's and host's. Each is the classes a training run on the host loaded
# (the suite soft against soft; the demo; a host writing to a target on loopback), written at
# its exit. The guest sees the same JDK and the same jars at the same
# paths, so the archive holds there; a JVM that cannot use it runs without it.
# Under emulation, loading and verifying classes is a good part of a short JVM run: in the
# guest, `Verbs4jCli devices` takes about 4.7 s with its archive against 6.6 s without.
#   vm-cds.sh        (from a finished host build; writes target/vm/cds/)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk.sh
use_jdk25
. scripts/vm-guest-env.sh
rm -rf target/vm/cds
mkdir -p target/vm/cds

# The training run is the guest's java_run, with the same options; with no archive yet it maps none.
train() { # $1 = class path, then JVM options, the main class and its arguments
    local classpath=$1 archive main
    archive=$(cds_archive "$classpath")
    shift
    main=$(printf '%s\n' "$@" | grep -m 1 -v '^-')
    java_run -XX:ArchiveClassesAtExit="$archive" -Xlog:cds=off -cp "$classpath" "$@" > "$archive.training.log" 2>&1
    if [ -s "$archive" ]; then
        echo "class-data archive for $main: $(du -k "$archive" | cut -f1) KiB"
    else
        echo "class-data archive for $main: none (the guest's JVMs run without; log: $archive.training.log)"
    fi
}
train "$(suite_classpath)" dev.verbs4j.conformance.ConformanceMain --provider soft --device soft0 --peer-device soft1 \
    --label cds-training --report-dir target/vm/cds/training
train "$(tools_classpath)" dev.verbs4j.tools.Verbs4jCli demo
nvmeof_target_log=target/vm/cds/nvmeof-target.log
java_run -Dverbs4j.soft.devices=t0=127.0.0.1:14791 -cp "$(nvmeof_classpath)" dev.verbs4j.nvmeof.TargetMain \
    --provider soft --address 127.0.0.1 --port 14420 --subsystem nqn.2026-01.dev.verbs4j:cds --namespace mem:4M \
    > "$nvmeof_target_log" 2>&1 &
nvmeof_target=$!
for _ in $(seq 1 300); do
    grep -q "nvmeof target on" "$nvmeof_target_log" 2>/dev/null && break
    sleep 0.1
done
train "$(nvmeof_classpath)" -Dverbs4j.soft.devices=h0=127.0.0.2:14791 dev.verbs4j.nvmeof.HostMain --provider soft \
    --source 127.0.0.2 --address 127.0.0.1 --port 14420 --subsystem nqn.2026-01.dev.verbs4j:cds --count 64
# java_run is a function: the background job is a shell whose child is the JVM; end both.
kill $(process_tree "$nvmeof_target") 2>/dev/null
wait "$nvmeof_target" 2>/dev/null
exit 0

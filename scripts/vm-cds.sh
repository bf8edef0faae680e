#!/usr/bin/env bash
# Makes, on the host, the class-data archives the micro-VM's JVMs map (see java_run in
# scripts/vm-guest-env.sh): one for the conformance suite's class path, one for the tools'.
# Each is the classes a training run on the host loaded (the suite soft against soft; the
# demo), written at its exit. The guest sees the same JDK and the same jars at the same
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
train() { # $1 = class path, then the main class and its arguments
    local classpath=$1 archive
    archive=$(cds_archive "$classpath")
    shift
    java_run -XX:ArchiveClassesAtExit="$archive" -Xlog:cds=off -cp "$classpath" "$@" > "$archive.training.log" 2>&1
    if [ -s "$archive" ]; then
        echo "class-data archive for $1: $(du -k "$archive" | cut -f1) KiB"
    else
        echo "class-data archive for $1: none (the guest's JVMs run without; log: $archive.training.log)"
    fi
}
train "$(suite_classpath)" dev.verbs4j.conformance.ConformanceMain --provider soft --device soft0 --peer-device soft1 \
    --label cds-training --report-dir target/vm/cds/training
train "$(tools_classpath)" dev.verbs4j.tools.Verbs4jCli demo
exit 0

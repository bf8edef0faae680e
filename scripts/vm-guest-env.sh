# Sourced by the guest scripts, and inside 'ip netns exec peer bash -c ...' in the guest: the
# functions and paths they use, which a new shell does not inherit.

# A JVM of the guest: C1 only, as suits runs on two emulated CPUs. When its -cp is a class
# path scripts/vm-cds.sh made a class-data archive for on the host, the JVM maps that archive
# instead of loading and verifying those classes one by one, which under emulation is a good
# part of a short run. The JVM says nothing when it cannot use the archive.
java_run() {
    local arg previous="" candidate archive=()
    for arg in "$@"; do
        if [ "$previous" = -cp ]; then
            candidate=$(cds_archive "$arg")
            [ ! -f "$candidate" ] || archive=(-XX:SharedArchiveFile="$candidate" -Xlog:cds=off)
        fi
        previous=$arg
    done
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 "${archive[@]}" "$@"
}

# The class-data archive for class path $1 (it need not exist): named by the path's digest.
cds_archive() {
    echo "target/vm/cds/$(printf '%s' "$1" | sha1sum | cut -c1-16).jsa"
}

# The conformance suite with both providers, from a full build: jars only, as a class-data
# archive needs.
suite_classpath() {
    echo "$(cat conformance-tests/target/conformance-classpath.txt):$(ls conformance-tests/target/verbs4j-conformance-*[0-9T].jar)"
}

# The verbs4j tools with both providers.
tools_classpath() {
    echo "$(suite_classpath):$(ls tools/target/verbs4j-tools-*[0-9T].jar)"
}

# Runs the test "${@:3}" every 0.1 s until it succeeds (status 0), for at most $1 s, or until
# process $2, a server, has ended (one that refused to run). The bound is the clock's, not a
# count of rounds: under emulation the programs a round starts take longer than its pause.
await() {
    local end=$((SECONDS + $1)) pid=$2
    shift 2
    while ((SECONDS < end)); do
        "$@" && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# Whether something listens on TCP port $2 in namespace $1 ('-' for the root one).
listening() {
    if [ "$1" = - ]; then
        ss -Hltn "sport = :$2" | grep -q .
    else
        ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q .
    fi
}

# Whether log $1 has a line matching $2: how a server that listens through the connection
# manager, which ss does not show, is known to be ready. $1 belongs in the guest's own /tmp: on
# the 9p share, reading a file while another process writes it can turn the written bytes into
# zeros.
has_line() {
    grep -q "$2" "$1" 2>/dev/null
}

# Has every JVM in the process tree under $1 print its threads' stacks to its standard output
# (SIGQUIT), then gives them two seconds to do so: a server that never got ready leaves in its
# log where it was.
dump_java_threads() {
    local jvms=() queue=("$1") pid
    while [ ${#queue[@]} -gt 0 ]; do
        pid=${queue[0]}
        queue=("${queue[@]:1}")
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != java ] || jvms+=("$pid")
        queue+=($(pgrep -P "$pid"))
    done
    [ ${#jvms[@]} -gt 0 ] || return 0
    kill -QUIT "${jvms[@]}" 2>/dev/null
    sleep 2
}

# One pairing's line in a c-tools table, shown as well: $1 the table, $2 case id,
# $3 pass|fail|skip, $4 detail.
record_case() {
    printf '%s\t%s\t%s\n' "$2" "$3" "$4" >> "$1"
    echo "$3  $2  $4"
}

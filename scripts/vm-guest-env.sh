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

# The NVMe-oF target and host (nvmeof/) with both providers.
nvmeof_classpath() {
    echo "$(suite_classpath):$(ls nvmeof/target/verbs4j-nvmeof-*[0-9T].jar)"
}

# The verbs4j tools with both providers.
tools_classpath() {
    echo "$(suite_classpath):$(ls tools/target/verbs4j-tools-*[0-9T].jar)"
}

# Runs the test "${@:3}" every 0.1 s until it succeeds (status 0), for at most $1 s, or until
# $2, a server, has ended (one that refused to run): a process id, or the status file of a
# command given to a batch (batch_run), which exists once the command ended. The bound is
# the clock's, not a count of rounds: under emulation the programs a round starts take
# longer than its pause.
await() {
    local end=$((SECONDS + $1)) server=$2
    shift 2
    while ((SECONDS < end)); do
        "$@" && return 0
        ! side_ended "$server" || return 1
        sleep 0.1
    done
    return 1
}

# verbs4j commands one after another in one JVM (verbs4j batch): under emulation a JVM's start
# and its compiling of the providers' code take seconds, more than a short pairing does.
# batch_run NAMESPACE LOG ARGS... gives the command ARGS (verbs4j's arguments) to the batch in
# namespace NAMESPACE ('-' for this one), its output to LOG; the batch starts on first use, and
# anew after a command that failed or hung (the batch ends there, see BatchCommand).
# batch_wait LOG SECONDS then returns the command's status, 124 when it outlasts SECONDS.
# batch_close ends the batch. One batch per shell; its own output goes to $out/batch.log.
batch_run() {
    local ns=$1 log=$2
    shift 2
    [ -n "${batch_pid:-}" ] || batch_start "$ns"
    rm -f "$log.rc"
    local IFS=$'\t'
    printf '%s\t%s\n' "$log" "$*" >&"$batch_fd"
}

batch_start() {
    local fifo java
    fifo=$(mktemp -u /tmp/verbs4j-batch.XXXXXX)
    mkfifo "$fifo"
    java="java_run -cp ${VERBS4J_TOOLS_CLASSPATH:-$(tools_classpath)} dev.verbs4j.tools.Verbs4jCli batch --timeout-s ${BATCH_TIMEOUT_S:-90}"
    if [ "$1" = - ]; then
        bash -c "source scripts/vm-guest-env.sh; $java" < "$fifo" >> "$out/batch.log" 2>&1 &
    else
        ip netns exec "$1" bash -c "source scripts/vm-guest-env.sh; $java" < "$fifo" >> "$out/batch.log" 2>&1 &
    fi
    batch_pid=$!
    exec {batch_fd}> "$fifo"
    rm -f "$fifo"
}

batch_wait() {
    local log=$1 end=$((SECONDS + $2))
    while [ ! -f "$log.rc" ]; do
        if ! kill -0 "$batch_pid" 2>/dev/null; then
            echo "verbs4j batch: the JVM ended without the command's status (its output: $out/batch.log)" >> "$log"
            batch_close
            return 1
        fi
        if ((SECONDS >= end)); then
            dump_java_threads "$batch_pid"
            kill $(process_tree "$batch_pid") 2>/dev/null
            batch_close
            return 124
        fi
        sleep 0.1
    done
    local status
    status=$(cat "$log.rc")
    [ "$status" = 0 ] || batch_close
    return "$status"
}

# Ends the batch: the end of its input lets it finish the command it runs.
batch_close() {
    [ -n "${batch_pid:-}" ] || return 0
    exec {batch_fd}>&-
    wait "$batch_pid" 2>/dev/null
    batch_pid=
}

# One side of a pairing: command $2, a C program, or "v4j ARGS" for verbs4j's command ARGS in
# the batch of namespace $1, started with its output in $3, a C program bounded by $4 s. Sets
# $side: the program's process id, or the command's status file (either one await takes).
start_side() {
    if [[ $2 == "v4j "* ]]; then
        batch_run "$1" "$3" ${2#v4j }
        side=$3.rc
    else
        eval "timeout $4 $2" > "$3" 2>&1 &
        side=$!
    fi
}

# The status of side $1 (start_side's $side) with its output in $2; a command of the batch
# gets at most $3 s.
end_side() {
    if [[ $1 =~ ^[0-9]+$ ]]; then
        wait "$1"
    else
        batch_wait "$2" "$3"
    fi
}

# Whether side $1 (start_side's $side) has ended: its process is gone, or its status written.
side_ended() {
    if [[ $1 =~ ^[0-9]+$ ]]; then
        ! kill -0 "$1" 2>/dev/null
    else
        [ -f "$1" ]
    fi
}

# Stops side $1 now, a C program through its 'timeout', a command by ending its batch; returns
# its status (a command's: 143, as a process SIGTERM ended).
stop_side() {
    if [[ $1 =~ ^[0-9]+$ ]]; then
        pkill -TERM -P "$1" -x timeout 2>/dev/null
        kill "$1" 2>/dev/null
        wait "$1" 2>/dev/null
    else
        [ -z "${batch_pid:-}" ] || kill $(process_tree "$batch_pid") 2>/dev/null
        batch_close
        return 143
    fi
}

# One pairing of a C program on rxe0 (this namespace) and a soft side in namespace peer, the
# server being the one $1 names (c-server or soft-server): $2 and $3 the C and the soft
# command, $4 and $5 their logs, $6 the soft server's TCP port, $7 what the soft client adds to
# reach the C server, $8 what the C client adds to reach the soft server, $9 the C side's bound
# in s (the soft side gets 10 s more; a soft server has two thirds of it to listen). Sets
# pair_c and pair_soft to the two sides' statuses.
c_soft_pairing() {
    local c_side soft_side
    if [ "$1" = c-server ]; then
        # The soft client retries its connection until the C server listens.
        start_side - "$2" "$4" "$9"
        c_side=$side
        start_side peer "$3 $7" "$5"
        end_side "$side" "$5" $(($9 + 10))
        pair_soft=$?
        end_side "$c_side"
        pair_c=$?
    else
        start_side peer "$3" "$5"
        soft_side=$side
        if await $(($9 * 2 / 3)) "$soft_side" listening peer "$6"; then
            start_side - "$2 $8" "$4" "$9"
            end_side "$side"
            pair_c=$?
        else
            pair_c=124
            echo "the soft server did not listen on TCP port $6 (its threads' stacks: $out/batch.log)" > "$4"
            dump_java_threads "$(side_process "$soft_side")"
        fi
        end_side "$soft_side" "$5" $(($9 + 10))
        pair_soft=$?
    fi
}

# The process id that holds side $1's threads: its own, or its batch's.
side_process() {
    if [[ $1 =~ ^[0-9]+$ ]]; then echo "$1"; else echo "${batch_pid:-}"; fi
}

# Process $1 and every process under it.
process_tree() {
    local queue=("$1") pid
    while [ ${#queue[@]} -gt 0 ]; do
        pid=${queue[0]}
        queue=("${queue[@]:1}")
        echo "$pid"
        queue+=($(pgrep -P "$pid"))
    done
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
    local jvms=() pid
    [ -n "$1" ] || return 0
    for pid in $(process_tree "$1"); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != java ] || jvms+=("$pid")
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

# IPv6 on the veth pair: a global address on each end (fd00:9::1 on veth0, fd00:9::2 on veth1
# in namespace 'peer') and the link-local ones. rxe0 adds a GID for each address as the kernel
# reports it (the link-local ones after duplicate address detection), after the ones it has:
# GID 0 stays the link-local one, GID 1 the IPv4 one. Returns once both ends have their
# addresses and rxe0 has the GID of fd00:9::1. Running it again changes nothing.
ipv6_on() {
    echo 0 > /proc/sys/net/ipv6/conf/veth0/disable_ipv6
    ip netns exec peer sysctl -qw net.ipv6.conf.veth1.disable_ipv6=0
    ip -6 addr show dev veth0 | grep -q fd00:9::1/ || ip addr add fd00:9::1/64 dev veth0 nodad
    ip netns exec peer ip -6 addr show dev veth1 | grep -q fd00:9::2/ || ip netns exec peer ip addr add fd00:9::2/64 dev veth1 nodad
    local _
    for _ in $(seq 1 100); do
        grep -qx fd00:0009:0000:0000:0000:0000:0000:0001 /sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null \
            && [ -n "$(link_local veth1 peer)" ] && [ -n "$(link_local veth0 -)" ] \
            && ! ip -6 addr show tentative | grep -q . && ! ip netns exec peer ip -6 addr show tentative | grep -q . \
            && return 0
        sleep 0.1
    done
    echo "IPv6 on the veth pair did not settle: $(ip -6 -o addr show dev veth0 | awk '{ print $4 }' | tr '\n' ' ')" >&2
    return 1
}

# The link-local address of interface $1 in namespace $2 ('-' for this one).
link_local() {
    local run=()
    [ "$2" = - ] || run=(ip netns exec "$2")
    "${run[@]}" ip -6 -o addr show dev "$1" scope link | awk '{ split($4, a, "/"); print a[1]; exit }'
}

#!/usr/bin/env bash
# Runs inside the rxe micro-VM, from scripts/vm-guest.sh: rdma-core's ibv_*_pingpong programs
# on rxe0 (root namespace, 10.9.0.1) against `verbs4j pingpong --compat` on a soft device in
# namespace 'peer' (10.9.0.2), both directions, each variant the programs offer that the
# kernel rxe runs. Then, with IPv6 switched on for the veth pair, the RC, UC, UD and SRQ
# programs again over a global IPv6 address (fd00:9::1 and fd00:9::2, the C side naming the
# GID index rxe0 gives it) and over the link-local addresses (GID index 0, with the scope).
# One line per pairing goes to target/vm/c-tools-pingpong.tsv:
#   case id<TAB>pass|fail|skip<TAB>detail
# scripts/vm-evaluate.py turns every target/vm/c-tools*.tsv into the c-tools column.
# CTOOLS_ONLY=REGEX runs only the pairings whose program#variant matches (the IPv6 variants end
# in Ipv6Global or Ipv6LinkLocal).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
out=target/vm
tsv=$out/c-tools-pingpong.tsv
: > "$tsv"
bin=$(dirname "$LD_LIBRARY_PATH")/bin
# The soft sides ("v4j ARGS") run one after another in one JVM in namespace 'peer' (start_side).
tcp_port=18700
iters=50
# The addresses of a pairing: rxe0's GID index, the C side's and the soft side's address (as
# each side names the other: a link-local one with the scope of the namespace it is used in),
# and what the case id's variant gets appended. IPv4 first; ipv6_pairings changes them.
gid_index=1
c_address=10.9.0.1
c_address_from_peer=10.9.0.1
soft_address=10.9.0.2
soft_address_from_root=10.9.0.2
variant_suffix=
# rdma-core's uc, ud and srq servers listen for the TCP exchange on the IPv4 wildcard only (the
# rc server prefers [::]): their clients reach them at rxe0's IPv4 address, whatever GIDs the
# RDMA traffic then uses.
c_tcp() { # the address a client names to reach program $1's C server from namespace $2 (peer or -)
    case $1 in
        ibv_rc_pingpong) if [ "$2" = peer ]; then echo "$c_address_from_peer"; else echo "$c_address"; fi ;;
        *) echo 10.9.0.1 ;;
    esac
}

# One pairing: $1 = program, $2 = variant, $3 = the C side's options, $4 = the soft side's
# options, $5 = c-server or soft-server, $6 = text the refusing side prints when the
# pairing is expected to be refused (empty when it must run).
pair() {
    local program=$1 variant=$2 copts=$3 sopts=$4 direction=$5 refusal=$6
    tcp_port=$((tcp_port + 1))
    variant=$variant$variant_suffix
    local id="ctools/$program#$variant.${direction/-/}" name="$program-$variant-$direction"
    local c="$bin/$program -d rxe0 -g $gid_index -n $iters -p $tcp_port $copts"
    local s="v4j pingpong --compat $program --address $soft_address -n $iters -p $tcp_port $sopts"
    local slog=$out/$name-soft.log clog=$out/$name-c.log
    local crc src
    c_soft_pairing "$direction" "$c" "$s" "$clog" "$slog" "$tcp_port" "$(c_tcp "$program" peer)" \
        "$soft_address_from_root" 90
    crc=$pair_c src=$pair_soft
    local outcome detail
    if [ -n "$refusal" ]; then
        if grep -qh "$refusal" "$out/$name-c.log" "$out/$name-soft.log"; then
            outcome=skip
            detail="refused as expected: $(grep -h "$refusal" "$out/$name-c.log" "$out/$name-soft.log" | head -n 1)"
        else
            outcome=fail
            detail="expected the refusal '$refusal'; exit status C $crc, soft $src"
        fi
    elif [ "$crc" = 0 ] && [ "$src" = 0 ] && ! grep -q "invalid data" "$out/$name-c.log" \
            && grep -q "every byte as sent" "$out/$name-soft.log"; then
        outcome=pass
        detail="$(grep -h "usec/iter" "$out/$name-c.log" | head -n 1 | sed 's/^/C: /')"
    else
        outcome=fail
        detail="exit status C $crc, soft $src; C: $(tail -n 1 "$out/$name-c.log"); soft: $(tail -n 1 "$out/$name-soft.log")"
    fi
    record_case "$tsv" "$id" "$outcome" "$detail"
}

# The C program against itself on rxe0, the reference a soft pairing's result is read against:
# $1 = program, $2 = variant, $3 = options.
reference() {
    local program=$1 variant=$2$variant_suffix copts=$3
    tcp_port=$((tcp_port + 1))
    local id="ctools/$program#$variant.cserverCclient" name="$program-$variant-c-c"
    local c="$bin/$program -d rxe0 -g $gid_index -n $iters -p $tcp_port $copts"
    timeout 90 $c > "$out/$name-server.log" 2>&1 &
    local spid=$!
    sleep 1
    timeout 90 $c "$(c_tcp "$program" -)" > "$out/$name-client.log" 2>&1
    local crc=$?
    wait "$spid"
    local src=$?
    local outcome=pass detail
    detail="$(grep -h "usec/iter" "$out/$name-client.log" | head -n 1)"
    if [ "$crc" != 0 ] || [ "$src" != 0 ] || grep -q "invalid data" "$out/$name-server.log"; then
        outcome=fail
        detail="exit status client $crc, server $src; server: $(tail -n 1 "$out/$name-server.log")"
    fi
    record_case "$tsv" "$id" "$outcome" "$detail"
}

both() { # the same pairing in both directions, and the C program against itself
    [[ "$1#$2$variant_suffix" =~ ${CTOOLS_ONLY:-.} ]] || return 0
    pair "$1" "$2" "$3" "$4" c-server "$5"
    pair "$1" "$2" "$3" "$4" soft-server "$5"
    [ -n "$5" ] || reference "$1" "$2" "$3"
}

both ibv_rc_pingpong checked "-c" "-c" ""
both ibv_rc_pingpong events "-c -e" "-c -e" ""
# rxe's ODP copy ignores the offset inside a page (conformance-tests/findings/ibverbs-rxe.tsv):
# a 4096-byte message in 1024-byte packets is a finding, a one-packet message is not.
both ibv_rc_pingpong odp "-c -o" "-c -o" ""
both ibv_rc_pingpong odpOnePacket "-c -o -s 1024" "-c -o -s 1024" ""
both ibv_rc_pingpong odpPrefetch "-c -o -P -s 1024" "-c -o -P -s 1024" ""
both ibv_rc_pingpong newSendApi "-c -N" "-c -N" ""
both ibv_rc_pingpong softTimestamps "-c" "-c -t" ""
both ibv_rc_pingpong implicitOdp "-O" "-O" "doesn't support implicit ODP"
both ibv_uc_pingpong checked "-c" "-c" ""
both ibv_uc_pingpong events "-c -e" "-c -e" ""
both ibv_ud_pingpong checked "-c" "-c" ""
both ibv_srq_pingpong checked "-c -q 8" "-c -q 8" ""
both ibv_srq_pingpong odpOnePacket "-c -q 8 -o -s 1024" "-c -q 8 -o -s 1024" ""

# IPv6: the GID table of rxe0 starts with the interface's link-local address, and many users
# take GID 0 or a global address. The kernel rxe sends RoCEv2 over IPv6 with a UDP checksum
# of 0, which a UDP socket drops unless it allows it: the soft provider's sockets do.
ipv6_gid_index() { # the index of rxe0's GID for IPv6 address $1 (sysfs spells it out in full)
    local want g
    want=$(python3 -c 'import ipaddress, sys; e = ipaddress.IPv6Address(sys.argv[1]).exploded; print(":".join(e.split(":")))' "$1")
    for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
        [ "$(cat "$g" 2>/dev/null)" != "$want" ] || { echo "${g##*/}"; return 0; }
    done
    return 1
}
no_ipv6_gid() { # a failed case in place of the pairings of IPv6 address $1 ($2: global or linkLocal)
    record_case "$tsv" "ctools/ipv6#$2" fail "rxe0 has no GID for '$1': $(sort -u /sys/class/infiniband/rxe0/ports/1/gids/* | tr '\n' ' ')"
}
ipv6_pairings() { # $1 = global or linkLocal
    if [ "$1" = global ]; then
        gid_index=$(ipv6_gid_index fd00:9::1) || { no_ipv6_gid fd00:9::1 global; return 1; }
        c_address=fd00:9::1 c_address_from_peer=fd00:9::1 soft_address=fd00:9::2 soft_address_from_root=fd00:9::2
        variant_suffix=Ipv6Global
    else
        local c_ll soft_ll
        c_ll=$(link_local veth0 -) soft_ll=$(link_local veth1 peer)
        gid_index=$(ipv6_gid_index "$c_ll") || { no_ipv6_gid "$c_ll" linkLocal; return 1; }
        c_address=$c_ll%veth0 c_address_from_peer=$c_ll%veth1 soft_address=$soft_ll%veth1 soft_address_from_root=$soft_ll%veth0
        variant_suffix=Ipv6LinkLocal
    fi
    echo "IPv6 $1: rxe0 GID index $gid_index ($c_address), the soft device on $soft_address"
    both ibv_rc_pingpong checked "-c" "-c" ""
    both ibv_ud_pingpong checked "-c" "-c" ""
    if [ "$1" = global ]; then
        both ibv_uc_pingpong checked "-c" "-c" ""
        both ibv_srq_pingpong checked "-c -q 8" "-c -q 8" ""
    fi
}
ipv6_on || echo "IPv6 pairings: the addresses did not settle"
ipv6_pairings global
ipv6_pairings linkLocal
# XRC: neither rxe nor the API has XRC domains; the C program's refusal is the record.
batch_close
[[ "ibv_xsrq_pingpong#xrc" =~ ${CTOOLS_ONLY:-.} ]] || exit 0
timeout 30 "$bin/ibv_xsrq_pingpong" -d rxe0 -g 1 > "$out/ibv_xsrq_pingpong-c.log" 2>&1
printf '%s\t%s\t%s\n' "ctools/ibv_xsrq_pingpong#xrc" skip \
    "XRC is not in the API, and rxe0 refuses it: $(head -n 1 "$out/ibv_xsrq_pingpong-c.log")" >> "$tsv"

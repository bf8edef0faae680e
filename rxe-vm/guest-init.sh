#!/bin/sh
# /init of the rxe micro-VM (busybox sh, PID 1). initramfs.sh copies it into
# the initramfs; run.sh describes each run in the "rxevm" 9p share:
#   config    shell assignments: NET, RUN_DIR, KERNEL_MODULES, GUEST_HOSTNAME
#   shares    "tag path" lines: read-write 9p shares to mount at path
#   launch.sh what to run, in the chroot (cd + env -i + exec COMMAND)
# and reads back: started (guest uptime when the command starts), rc (its exit
# status) or error (why the guest gave up before running it).
#
# ttyS0 is the kernel console (a log file on the host); the command's output
# goes through virtio-serial ports (see below).

export PATH=/bin

say() { echo "rxe-vm(guest): $*"; }
# Progress on the console log, stamped with the guest uptime (run.sh -v).
mark() { say "$(cut -d' ' -f1 /proc/uptime) s: $*"; }

give_up() {
    say "$*"
    [ -d /rxevm/. ] && echo "$*" >/rxevm/error
    sync
    poweroff -f
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

# Modules in dependency order, as initramfs.sh resolved them with modprobe.
while read -r module options; do
    # shellcheck disable=SC2086
    insmod "/lib/modules/$module" $options || give_up "insmod $module failed"
done </lib/modules/load-order
mark "modules loaded"

mkdir -p /rxevm /lower /upper /newroot
nine_p='trans=virtio,version=9p2000.L,msize=512000'
mount -t 9p -o "$nine_p,cache=none" rxevm /rxevm || give_up "mounting the run share failed"
. /rxevm/config

# The host's / is the read-only lower layer; writes land in a tmpfs and vanish
# at power-off, except under the read-write shares mounted on top.
mount -t 9p -o "$nine_p,cache=loose,ro" hostroot /lower || give_up "mounting the host root failed"
mount -t tmpfs -o mode=0755 upper /upper
mkdir -p /upper/data /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work root /newroot ||
    give_up "overlay over the host root failed"

# cache=mmap keeps writes synchronous enough for the host to see them after
# power-off, and still lets programs mmap files (the JVM does).
while read -r tag path; do
    [ -n "$tag" ] || continue
    mount -t 9p -o "$nine_p,cache=mmap" "$tag" "/newroot$path" || give_up "mounting $path failed"
done </rxevm/shares
mount --bind /rxevm "/newroot$RUN_DIR"

mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t devtmpfs devtmpfs /newroot/dev
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts -o newinstance,ptmxmode=0666 devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777 shm /newroot/dev/shm
mount -t tmpfs -o mode=0755 run /newroot/run
mark "file systems mounted"

# The guest kernel's whole module tree, so the host's modprobe works in the
# chroot and the kernel's own module requests are served from it too.
release=$(uname -r)
mkdir -p "/newroot/lib/modules/$release"
mount --bind "/newroot$KERNEL_MODULES" "/newroot/lib/modules/$release"
echo /bin/chroot-modprobe >/proc/sys/kernel/modprobe

# No network leaves the guest: an empty resolver config makes name look-ups
# fail at once instead of timing out, and the host name resolves locally.
hostname "$GUEST_HOSTNAME"
rm -f /newroot/etc/resolv.conf
echo "# the rxe VM has no DNS" >/newroot/etc/resolv.conf
echo "127.0.1.1 $GUEST_HOSTNAME" >>/newroot/etc/hosts

# The host's iproute2, by absolute path: busybox's chroot would otherwise run
# its own, smaller "ip" applet, which cannot create veth pairs.
in_root() { chroot /newroot "$@"; }
ip() { in_root /bin/ip "$@"; }

ip link set lo up
case "$NET" in
    dummy)
        # A dummy netdev drops what it sends; rxe loops traffic to its own
        # addresses back itself, and rdma_cm can resolve routes (on lo it can't).
        ip link add dummy0 type dummy &&
        ip addr add 10.0.2.15/24 dev dummy0 &&
        ip link set dummy0 up || give_up "dummy0 setup failed"
        rxe_netdev=dummy0 ;;
    lo)
        rxe_netdev=lo ;;
    eth0)
        ip addr add 10.0.2.15/24 dev eth0 &&
        ip link set eth0 up || give_up "eth0 setup failed"
        rxe_netdev=eth0 ;;
    veth)
        # veth0 (root namespace, kernel rxe) <-> veth1 (namespace "peer", free
        # for a user-space RoCE engine on UDP 10.9.0.2:4791). Without IPv6 on
        # veth0 the rxe GID table is fe80::…, then ::ffff:10.9.0.1 at index 1.
        ip link add veth0 type veth peer name veth1 &&
        echo 1 >/proc/sys/net/ipv6/conf/veth0/disable_ipv6 &&
        ip netns add peer &&
        ip link set veth1 netns peer &&
        ip addr add 10.9.0.1/24 dev veth0 &&
        ip link set veth0 up &&
        ip netns exec peer ip link set lo up &&
        ip netns exec peer ip addr add 10.9.0.2/24 dev veth1 &&
        ip netns exec peer ip link set veth1 up || give_up "veth setup failed"
        rxe_netdev=veth0 ;;
    link-a|link-b)
        # One end of a link to another guest (pair.sh): eth0 is 10.9.1.1 on A and
        # 10.9.1.2 on B, with rxe0 on it. Namespace "peer" has a macvlan on the
        # same eth0, 10.9.1.11 or 10.9.1.12, free for a user-space RoCE engine on
        # UDP 4791 (the kernel's rxe holds that port in the root namespace).
        case $NET in link-a) host=1 ;; *) host=2 ;; esac
        ip addr add "10.9.1.$host/24" dev eth0 &&
        ip link set eth0 up &&
        ip netns add peer &&
        ip link add mv0 link eth0 type macvlan mode bridge &&
        ip link set mv0 netns peer &&
        ip netns exec peer ip link set lo up &&
        ip netns exec peer ip addr add "10.9.1.1$host/24" dev mv0 &&
        ip netns exec peer ip link set mv0 up || give_up "link setup failed"
        rxe_netdev=eth0 ;;
    *)
        give_up "unknown network mode $NET" ;;
esac
# run.sh -m: modules of this kernel built elsewhere, each in place of the
# kernel's own of that name (which no device uses yet) or beside them. The files
# are on the host's root, seen under /newroot.
for module in ${EXTRA_MODULES:-}; do
    name=$(basename "$module" .ko)
    if [ -d "/sys/module/$name" ]; then
        rmmod "$name" || give_up "rmmod $name failed"
    fi
    insmod "/newroot$module" || give_up "insmod $module failed"
    mark "$name loaded from $module"
done
in_root /usr/bin/rdma link add rxe0 type rxe netdev "$rxe_netdev" || give_up "rdma link add rxe0 failed"
tries=0
until grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -le 100 ] || give_up "rxe0 port did not become ACTIVE"
    sleep 0.05
done
mark "rxe0 on $rxe_netdev is ACTIVE"
# The kernel's soft-iWARP beside rxe0, where this kernel has it (Debian's do not
# ship it; run.sh -m siw.ko brings one): siw0, iWARP over TCP. With -n veth it sits on
# veth1 and is reached from namespace "peer": on veth0 the connection manager would
# resolve 10.9.0.1 to rxe0, the first device on that interface.
if [ -d /sys/module/siw ] || in_root /sbin/modprobe -q siw 2>/dev/null; then
    if [ "$NET" = veth ]; then
        in_root /usr/bin/ip netns exec peer /usr/bin/rdma link add siw0 type siw netdev veth1 ||
            give_up "rdma link add siw0 failed"
        mark "siw0 on veth1 (namespace peer)"
    else
        in_root /usr/bin/rdma link add siw0 type siw netdev "$rxe_netdev" || give_up "rdma link add siw0 failed"
        mark "siw0 on $rxe_netdev"
    fi
fi

# The command's stdout and stderr leave through the virtio-serial ports "out"
# and "err" (a blocking write returns once the host has taken the data), via
# pipes so that the command sees pipes, not devices.
port() {
    for dir in /sys/class/virtio-ports/*; do
        [ "$(cat "$dir/name")" = "$1" ] && { echo "/dev/${dir##*/}"; return 0; }
    done
    give_up "virtio-serial port $1 missing"
}
out_port=$(port out)
err_port=$(port err)
mkfifo /cmd-out /cmd-err
cat /cmd-out >"$out_port" &
out_pid=$!
cat /cmd-err >"$err_port" &
err_pid=$!

cut -d' ' -f1 /proc/uptime >/rxevm/started
in_root /bin/bash "$RUN_DIR/launch.sh" </dev/null >/cmd-out 2>/cmd-err
echo $? >/rxevm/rc

# Background processes the command left behind may hold the pipes open; give
# the copies a moment to drain, then stop waiting for them.
running() { [ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
tries=0
while running "$out_pid" || running "$err_pid"; do
    tries=$((tries + 1))
    [ "$tries" -le 50 ] || { kill "$out_pid" "$err_pid" 2>/dev/null; break; }
    sleep 0.1
done
sync
poweroff -f

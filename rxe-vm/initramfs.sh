#!/usr/bin/env bash
# Prepares the guest's boot files for the kernel fetch.sh chose, once per
# kernel and script version (cached in $RXEVM_CACHE/boot/RELEASE/):
#   vmlinux                the uncompressed kernel taken out of the bzImage;
#                          qemu boots it through its PVH entry point, which
#                          skips about 2 s of in-guest decompression under TCG;
#   initramfs-HASH.cpio    busybox-static, the modules below (decompressed, in
#                          dependency order) and guest-init.sh as /init. HASH
#                          covers this script, guest-init.sh and busybox.
# Prints the two paths, one per line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rxevm_load_state || rxevm_die "$RXEVM_WHY"

# What /init needs: virtio transport, the 9p root, overlay, the netdevs of the
# network modes, and the RDMA stack (rxe, verbs, rdma_cm, umad).
MODULES=(virtio_pci virtio_console virtio_net 9p 9pnet_virtio virtio_rng dummy veth overlay
         rdma_rxe ib_uverbs rdma_ucm rdma_cm ib_umad)
# 6.1 and 6.12 rxe allocate the crypto "crc32" transform and fail `rdma link
# add` with ENOENT without these; 7.x computes the ICRC with the crc32 library.
OPTIONAL_MODULES=(crc32_generic crc32_pclmul)
declare -A MODULE_OPTIONS=([dummy]="numdummies=0")

BOOT_DIR=$RXEVM_CACHE/boot/$KERNEL_RELEASE
DEPMOD_BASE=$RXEVM_CACHE/kernel/$KERNEL_RELEASE/depmod-base

# The bzImage carries the kernel ELF as one compressed stream after its setup
# code; find the stream by its magic and keep the result that is an ELF file.
extract_vmlinux() { # bzImage output
    local format magic offset
    for format in zstd xz gzip; do
        case $format in
            zstd) magic='\x28\xb5\x2f\xfd' ;;
            xz) magic='\xfd\x37\x7a\x58\x5a\x00' ;;
            gzip) magic='\x1f\x8b\x08' ;;
        esac
        for offset in $(LC_ALL=C grep -obUaP "$magic" "$1" | cut -d: -f1); do
            # Trailing bytes after the stream make the decompressor complain;
            # the ELF check below is what decides.
            tail -c "+$((offset + 1))" "$1" | "$format" -dcq >"$2.tmp" 2>/dev/null || true
            if [ "$(head -c 4 "$2.tmp" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
                mv "$2.tmp" "$2"
                return 0
            fi
        done
    done
    rm -f "$2.tmp"
    return 1
}

# "name.ko options" lines in load order, each module once.
resolve_modules() {
    local module optional lines line path name seen=" "
    for module in "${MODULES[@]}" "${OPTIONAL_MODULES[@]}"; do
        optional=0
        [[ " ${OPTIONAL_MODULES[*]} " == *" $module "* ]] && optional=1
        if ! lines=$(modprobe -C /dev/null -d "$DEPMOD_BASE" -S "$KERNEL_RELEASE" \
                         --show-depends "$module" 2>/dev/null); then
            [ "$optional" = 1 ] && continue
            rxevm_die "module $module not found for $KERNEL_RELEASE"
        fi
        while read -r line; do
            case $line in
                insmod\ *) path=${line#insmod }; path=${path%% *} ;;
                *) continue ;; # built in
            esac
            name=$(basename "$path"); name=${name%%.ko*}
            [[ $seen == *" $name "* ]] && continue
            seen+="$name "
            printf '%s %s %s\n' "$path" "$name" "${MODULE_OPTIONS[$name]:-}"
        done <<<"$lines"
    done
}

# Drops the appended module signature. Checking it costs about 40 ms per module
# under TCG (a second per boot); the kernel does not enforce signatures
# (CONFIG_MODULE_SIG_FORCE is off), it only marks itself tainted ("E").
strip_signature() { # module.ko
    local trailer='~Module signature appended~' size sig_bytes
    [ "$(tail -c 28 "$1")" = "$trailer" ] || return 0
    # struct module_signature (12 bytes) ends with the big-endian signature length.
    sig_bytes=$(tail -c 32 "$1" | head -c 4 | od -An -tu1 |
                awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
    size=$(stat -c %s "$1")
    truncate -s $((size - 28 - 12 - sig_bytes)) "$1"
}

build_initramfs() { # output
    local stage=$1.stage path name options applet
    rm -rf "$stage"
    mkdir -p "$stage"/{bin,dev,proc,sys,lib/modules}
    cp /bin/busybox "$stage/bin/busybox"
    for applet in $(/bin/busybox --list); do
        [ "$applet" = busybox ] || ln -s busybox "$stage/bin/$applet"
    done
    cat >"$stage/bin/chroot-modprobe" <<'EOF'
#!/bin/sh
exec /bin/chroot /newroot /sbin/modprobe "$@"
EOF
    chmod 755 "$stage/bin/chroot-modprobe"
    install -m 755 "$RXEVM_HOME/guest-init.sh" "$stage/init"
    : >"$stage/lib/modules/load-order"
    while read -r path name options; do
        case $path in
            *.ko.xz) xz -dc "$path" ;;
            *.ko.zst) zstd -dcq "$path" ;;
            *.ko.gz) gzip -dc "$path" ;;
            *) cat "$path" ;;
        esac >"$stage/lib/modules/$name.ko"
        strip_signature "$stage/lib/modules/$name.ko"
        echo "$name.ko $options" >>"$stage/lib/modules/load-order"
    done < <(resolve_modules)
    # Uncompressed: the kernel unpacks it faster than it would inflate it
    # under TCG, and qemu loads the few extra MB in no time.
    (cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$1.tmp"
    mv "$1.tmp" "$1"
    rm -rf "$stage"
}

main() {
    mkdir -p "$BOOT_DIR"
    local vmlinux=$BOOT_DIR/vmlinux hash initramfs
    if [ ! -s "$vmlinux" ]; then
        extract_vmlinux "$KERNEL_BZIMAGE" "$vmlinux" ||
            rxevm_die "no kernel ELF found inside $KERNEL_BZIMAGE"
    fi
    hash=$(cat "$RXEVM_HOME/initramfs.sh" "$RXEVM_HOME/guest-init.sh" /bin/busybox |
           sha256sum | cut -c1-16)
    initramfs=$BOOT_DIR/initramfs-$hash.cpio
    if [ ! -s "$initramfs" ]; then
        find "$BOOT_DIR" -name 'initramfs-*.cpio' -delete
        build_initramfs "$initramfs"
    fi
    printf '%s\n%s\n' "$vmlinux" "$initramfs"
}

main

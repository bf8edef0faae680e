#!/usr/bin/env bash
# Applies the kernel/patches series to the rxe, and siw/'s to the siw, of the Debian kernel
# source they are written against (downloaded and unpacked into rxe-vm's cache on first use)
# and runs the kernel's checkpatch.pl --strict on each patch, from that source. Prints each
# patch's findings and a summary; exits 1 if a patch does not apply or checkpatch finds more
# than what the series leaves on purpose: no Signed-off-by (the author adds it when sending),
# and Fixes: ids unknown to checkpatch, which looks them up in a git history the unpacked
# source lacks.
set -u
source "$(dirname "$0")/lib.sh"
tree=$(patches_source_tree) || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for driver in rxe siw; do
    patches_apply "$driver" "$work/$driver"
    echo "the $driver series ($(patches_series "$driver" | wc -l) patches, digest $(patches_digest "$driver")) applies to $SOURCE_PACKAGE $SOURCE_VERSION"
    for p in $(patches_series "$driver"); do
        out=$(cd "$tree" && perl scripts/checkpatch.pl --strict "$p" 2>&1)
        echo "== $driver/$(basename "$p"): $(printf '%s\n' "$out" | grep '^total:')"
        printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' | sed 's/^/   /'
        unexpected=$(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' |
            grep -vE "^ERROR: Missing Signed-off-by|^WARNING: Unknown commit id '[0-9a-f]{12}', maybe rebased or not pulled")
        [ -z "$unexpected" ] || status=1
    done
done
[ "$status" -eq 0 ] && echo "checkpatch: nothing but the missing Signed-off-by and the Fixes ids it cannot look up" \
    || echo "checkpatch: FAILED, see above"
exit "$status"

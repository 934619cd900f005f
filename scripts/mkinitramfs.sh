#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the guest initramfs: static busybox, the DKMS-built module tree staged
# by build-dkms.sh, the static test workload and the guest scripts.
#   scripts/mkinitramfs.sh OUT.cpio.gz
set -euo pipefail

. "$(dirname "$0")/env.sh"
out=$(realpath -m "$1")
stage=$MMT_CACHE/stage-$MMT_KVER
[ -f "$stage/lib/modules/$MMT_KVER/modules.dep" ] ||
	{ echo "mkinitramfs: run scripts/build-dkms.sh first" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,tmp,lib,mmt}
cp /bin/busybox "$work/bin/busybox"
cp -a "$stage/lib/modules" "$work/lib/"
gcc -O2 -static -Wall -Wextra -Werror -o "$work/bin/tierload" \
	"$MMT_TOP/tests/workload/tierload.c" -lm
# the scenarios and their helpers; the guest jobs that are not tests (demo,
# bench cells, exploration, calibration, a shell)
cp "$MMT_TOP"/tests/guest/*.sh "$MMT_TOP"/scripts/guest/*.sh "$work/mmt/"
cp "$MMT_TOP/tests/guest/init" "$work/init"
chmod +x "$work/init" "$work"/mmt/*.sh
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"

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
cp "$MMT_TOP"/tests/guest/*.sh "$MMT_TOP"/scripts/guest/*.sh \
	"$MMT_TOP"/bench/guest/*.sh "$work/mmt/"
cp "$MMT_TOP/tests/guest/init" "$work/init"

# Two modules no build makes, for the refusal tests (params.sh, race.sh),
# each the staged module with one string changed in place: the kernel
# version it records (as if built for another build of the same release),
# and the name of a DAMON function it looks up (a kernel without it).
# patch_ko IN OUT FROM TO [sym]: every FROM (as long as TO) becomes TO;
# with sym, only a whole NUL-terminated string.
patch_ko() {
	[ ${#3} -eq ${#4} ] || return 1
	FROM=$3 TO=$4 SYM=${5:-} perl -0777 -pe '
		my $n = $ENV{SYM} ? s/(?<=\0)\Q$ENV{FROM}\E(?=\0)/$ENV{TO}/g
				  : s/\Q$ENV{FROM}\E/$ENV{TO}/g;
		die "$ENV{FROM}: not found\n" unless $n;' "$1" >"$2"
}
ko=$stage/lib/modules/$MMT_KVER/updates/dkms/mm_tiering.ko
ver=$(perl -0777 -ne 'print $1 if /\0kernel_version=([^\0]*)\0/' "$ko")
[[ $ver == '#'* ]] || { echo "mkinitramfs: $ko: kernel_version '$ver'" >&2; exit 1; }
other="#9${ver:2}"
[ "$other" != "$ver" ] || other="#8${ver:2}"
mkdir -p "$work/mmt/ko"
patch_ko "$ko" "$work/mmt/ko/other-kernel.ko" "$ver" "$other"
patch_ko "$ko" "$work/mmt/ko/no-symbol.ko" damon_commit_ctx no_such_function sym
chmod +x "$work/init" "$work"/mmt/*.sh
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"

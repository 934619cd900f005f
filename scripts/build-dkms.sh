#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install mm_tiering through DKMS inside the trixie root, against
# Debian's linux-headers-$MMT_KVER, exactly as `dkms install` does on a real
# host; then stage the resulting /lib/modules tree (depmod run) for the
# guest initramfs in $MMT_CACHE/stage-$MMT_KVER.
set -euo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" root

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$MMT_TOP/dkms.conf")
src=$MMT_ROOT/usr/src/mm-tiering-$ver
stage=$MMT_CACHE/stage-$MMT_KVER
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }

rm -rf "$src"
mkdir -p "$src"
cp -r "$MMT_TOP/dkms.conf" "$MMT_TOP/Kbuild" "$MMT_TOP/Makefile" \
	"$MMT_TOP/mm-tiering" "$MMT_TOP/conftest" "$src/"

in_root dkms remove -m mm-tiering -v "$ver" --all >/dev/null 2>&1 || true
in_root dkms add -m mm-tiering -v "$ver" >/dev/null
if ! in_root dkms build -m mm-tiering -v "$ver" -k "$MMT_KVER" \
	>"$MMT_CACHE/dkms-build.log" 2>&1; then
	cat "$MMT_CACHE/dkms-build.log" >&2
	cat "$MMT_ROOT"/var/lib/dkms/mm-tiering/"$ver"/*/*/log/make.log >&2 || true
	exit 1
fi
# compiler warnings are errors for us
if grep -E 'warning:|error:' \
	"$MMT_ROOT/var/lib/dkms/mm-tiering/$ver/$MMT_KVER"/*/log/make.log; then
	echo "build-dkms: the build printed warnings" >&2
	exit 1
fi
in_root dkms install -m mm-tiering -v "$ver" -k "$MMT_KVER" --force \
	>>"$MMT_CACHE/dkms-build.log" 2>&1 ||
	{ cat "$MMT_CACHE/dkms-build.log" >&2; exit 1; }

ko=$(ls "$MMT_ROOT"/lib/modules/"$MMT_KVER"/updates/dkms/mm_tiering.ko*)
# stage inside the root, where depmod is
rm -rf "$MMT_ROOT/var/tmp/mmt-stage"
stage_in=/var/tmp/mmt-stage
mkdir -p "$MMT_ROOT$stage_in/lib/modules/$MMT_KVER/updates/dkms"
stage_out=$stage
stage=$MMT_ROOT$stage_in
cp "$ko" "$stage/lib/modules/$MMT_KVER/updates/dkms/"
# busybox modprobe in the guest reads plain .ko files
case $ko in *.xz) xz -d "$stage/lib/modules/$MMT_KVER/updates/dkms/"*.xz ;; esac
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$MMT_ROOT/lib/modules/$MMT_KVER/$f" ] &&
		cp "$MMT_ROOT/lib/modules/$MMT_KVER/$f" "$stage/lib/modules/$MMT_KVER/"
done
in_root depmod -b "$stage_in" "$MMT_KVER"
rm -rf "$stage_out"
mv "$stage" "$stage_out"
echo "build-dkms: $(in_root dkms status mm-tiering | head -1)"

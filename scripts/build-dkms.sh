#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the packages (build-deb.sh), install both with apt in
# the trixie root, where Debian's linux-headers-$MMT_KVER are, so that its
# DKMS postinst builds and installs the module as on a real host; then stage
# the resulting /lib/modules tree (depmod run) for the guest initramfs in
# $MMT_CACHE/stage-$MMT_KVER (MMT_STAGE).
set -euo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" root

ver=$("$MMT_TOP/scripts/version.sh")
stage=${MMT_STAGE:-$MMT_CACHE/stage-$MMT_KVER}
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }
log=$MMT_CACHE/dkms-build-$MMT_KVER.log

# The packages, installed the way a user's machine gets them: apt installs
# the .debs; mm-tiering-dkms' postinst (dh-dkms) adds the source to DKMS and
# builds and installs it for the root's kernels that have headers.
# Reinstalled only when a package changed (the sanitizer kernel's build
# reuses the root).
# one output directory per kernel: check.sh builds for two roots at once
# (MMT_DEB: a package built already, for another root of the same kernel)
deb=${MMT_DEB:-$(MMT_DEB_OUT=$MMT_TOP/build/deb-$MMT_KVER "$MMT_TOP/scripts/build-deb.sh")}
tools=${deb%/*}/mm-tiering-tools_${deb##*/mm-tiering-dkms_}
# the .debs' contents, not their build date (in the changelog), decide
sum=$(for d in "$deb" "$tools"; do
	dpkg-deb --fsys-tarfile "$d" | tar -xO --exclude='./usr/share/doc/*'
done | md5sum)
st=$(in_root dpkg-query -W -f='${Status}\n' mm-tiering-dkms mm-tiering-tools \
	2>/dev/null | grep -cx 'install ok installed' || true)
if [ "$st" != 2 ] ||
   [ "$(cat "$MMT_ROOT/var/tmp/mmt-deb.installed" 2>/dev/null)" != "$sum" ]; then
	# only the pair installed stays (the Debian guest's image carries it)
	rm -f "$MMT_ROOT"/var/tmp/mm-tiering-{dkms,tools}_*_all.deb
	cp "$deb" "$tools" "$MMT_ROOT/var/tmp/"
	{ in_root dpkg --purge mm-tiering-tools mm-tiering-dkms &&
	  # a copy `dkms add`ed by hand (older versions of this script)
	  { in_root dkms remove -m mm-tiering -v "$ver" --all || true; } &&
	  in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y \
		/var/tmp/$(basename "$deb") /var/tmp/$(basename "$tools")"; } \
		>"$log" 2>&1 || { cat "$log" >&2; exit 1; }
	echo "$sum" >"$MMT_ROOT/var/tmp/mmt-deb.installed"
fi
# a kernel the postinst did not build for (the sanitizer kernel, whose tree
# is bound at run time): what DKMS's kernel hook does when it is installed
if ! in_root dkms status -m mm-tiering -v "$ver" -k "$MMT_KVER" | grep -q ': installed'; then
	if ! in_root dkms install -m mm-tiering -v "$ver" -k "$MMT_KVER" --force \
		>>"$log" 2>&1; then
		cat "$log" >&2
		cat "$MMT_ROOT"/var/lib/dkms/mm-tiering/"$ver"/*/*/log/make.log >&2 || true
		exit 1
	fi
fi
# compiler warnings are errors for us
if grep -E 'warning:|error:' \
	"$MMT_ROOT/var/lib/dkms/mm-tiering/$ver/$MMT_KVER"/*/log/make.log; then
	echo "build-dkms: the build printed warnings" >&2
	exit 1
fi

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

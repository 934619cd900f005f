#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every Debian kernel's installation must survive the module.  In the trixie
# root where build-dkms.sh installed the mm-tiering-dkms package, do what apt
# does when a Debian server installs a kernel's headers:
#  - Debian 13's own kernel, 6.12 ($MMT_REACH_KVER): (re)install its headers;
#    their postinst has DKMS build mm-tiering for it, which must succeed
#    (before the module supported 6.12 this failed with 48 errors, dkms
#    exited 1 and apt left the kernel unconfigured: exit 100).
#  - a kernel older than dkms.conf's BUILD_EXCLUSIVE_KERNEL_MIN: bookworm's
#    6.1 headers, downloaded through the host's own (bookworm) apt and
#    installed with dpkg next to the supported ones (without their compiler
#    and kbuild packages, which trixie does not have): DKMS must skip the
#    module and the installation succeed.  Purged afterwards.
# Then the compile probes against both supported kernels' headers (each must
# find what the other lacks), and `apt remove` of the package (the module
# gone from every kernel; build-dkms.sh installs it again next time).
# Prints one "PASS|FAIL name detail" line per check.
set -uo pipefail

. "$(dirname "$0")/env.sh"
kver=${MMT_REACH_KVER:-6.12.117+deb13-amd64}
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }
log=$MMT_CACHE/kernel-reach.log
dkms_has() { in_root dkms status -m mm-tiering -k "$1" 2>/dev/null | grep -q ': installed'; }

# a package an earlier run (or an older mm-tiering) left unconfigured first
in_root dpkg --configure -a >"$log" 2>&1
in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--reinstall linux-headers-$kver" >>"$log" 2>&1
rc=$?
if [ $rc -eq 0 ] && dkms_has "$kver"; then
	echo "  PASS apt_headers_builds_$kver apt-get install --reinstall linux-headers-$kver: rc=0, DKMS built and installed mm-tiering for $kver"
else
	echo "  FAIL apt_headers_builds_$kver apt-get install --reinstall linux-headers-$kver: rc=$rc, installed for it: $(dkms_has "$kver" && echo yes || echo no); $(grep -m2 -E 'error|Error' "$log" | tr '\n' ' ')"
fi

# bookworm's newest 6.1 headers (the host's apt knows them), cached
old_debs() {
	local d=$MMT_CACHE/old-headers pkg common
	mkdir -p "$d"
	pkg=$(apt-cache depends linux-headers-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-headers-/ { print $2; exit }')
	[ -n "$pkg" ] || { apt-get update -qq && pkg=$(apt-cache depends \
		linux-headers-amd64 | awk '$1 == "Depends:" && $2 ~ /^linux-headers-/ { print $2; exit }'); }
	common=$(apt-cache depends "$pkg" |
		awk '$1 == "Depends:" && $2 ~ /-common$/ { print $2; exit }')
	(cd "$d" && for p in "$common" "$pkg"; do
		ls "${p}"_*.deb >/dev/null 2>&1 || apt-get download -q "$p" >/dev/null ||
			exit 1
	done) || return 1
	echo "${pkg#linux-headers-}"
	ls "$d/${common}"_*.deb "$d/${pkg}"_*.deb
}
olddebs=$(old_debs 2>>"$log")
okver=$(echo "$olddebs" | head -1)
if [ -n "$okver" ]; then
	rm -rf "$MMT_ROOT/var/tmp/old-headers" && mkdir -p "$MMT_ROOT/var/tmp/old-headers"
	cp $(echo "$olddebs" | tail -n +2) "$MMT_ROOT/var/tmp/old-headers/"
	# the headers' postinst runs DKMS's autoinstall for $okver
	in_root sh -c 'dpkg -i --force-depends /var/tmp/old-headers/*.deb' >>"$log" 2>&1
	rc1=$?
	in_root dkms autoinstall -k "$okver" >>"$log" 2>&1
	rc2=$?
	in_root dkms autoinstall -k "$MMT_KVER" >>"$log" 2>&1
	rc3=$?
	st=$(in_root dkms status -m mm-tiering 2>/dev/null | tr '\n' ' ')
	if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && ! dkms_has "$okver" &&
	   dkms_has "$MMT_KVER" && in_root test -e "/lib/modules/$okver/build/Makefile" &&
	   grep -q "Autoinstall on $okver was skipped for module(s) mm-tiering" "$log"; then
		echo "  PASS dkms_skips_$okver dpkg -i linux-headers-$okver, dkms autoinstall -k $okver and -k $MMT_KVER: rc=0 0 0; dkms status: $st"
	else
		echo "  FAIL dkms_skips_$okver dpkg -i linux-headers-$okver, dkms autoinstall -k $okver and -k $MMT_KVER: rc=$rc1 $rc2 $rc3; dkms status: $st"
	fi
	in_root sh -c "dpkg --purge linux-headers-$okver \
		linux-headers-${okver%-amd64}-common" >>"$log" 2>&1
	rm -rf "$MMT_ROOT/var/tmp/old-headers"
else
	echo "  FAIL dkms_skips_old no bookworm linux-headers package could be downloaded through the host's apt"
fi

# the compile probes: Debian's 6.12 lacks damon_call(), the node goals,
# the TEMPORAL goal tuner and damon_nr_accesses_mvsum(), 7.3 has them; 6.12
# keeps the moving sum in the region (nr_accesses_bp), 7.3 no longer
probe() {
	in_root sh -c "rm -rf /var/tmp/mmt-probe && cp -r /usr/src/mm-tiering-*/conftest \
		/var/tmp/mmt-probe && sh /var/tmp/mmt-probe/conftest.sh \
		/lib/modules/$1/build /var/tmp/mmt-probe/out.h >/dev/null 2>&1 &&
		grep -o 'define MMT_HAVE_[A-Z_]*' /var/tmp/mmt-probe/out.h | cut -c8- | tr '\n' ' '"
}
old=$(probe "$kver") new=$(probe "$MMT_KVER")
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
ok=y
for f in DAMON_CALL NODE_MEM_GOALS NODE_ELIGIBLE_GOAL GOAL_TUNER INTERVALS_GOAL \
	 DAMON_NR_ACCESSES_MVSUM; do
	! has "$old" MMT_HAVE_$f && has "$new" MMT_HAVE_$f || ok=
done
has "$old" MMT_HAVE_KZALLOC_OBJ || ok=
has "$old" MMT_HAVE_REGION_NR_ACCESSES_BP &&
	! has "$new" MMT_HAVE_REGION_NR_ACCESSES_BP || ok=
[ -n "$ok" ] && r=PASS || r=FAIL
echo "  $r conftest_tells_kernels_apart $kver: ${old:-none}; $MMT_KVER: ${new:-none}"

# apt remove: the module leaves every kernel and DKMS's tree, and the
# tools, which depend on it, go with it
in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get remove -y mm-tiering-dkms' \
	>>"$log" 2>&1
rc=$?
left=$(cd "$MMT_ROOT" && ls -d lib/modules/*/updates/dkms/mm_tiering.ko* \
	var/lib/dkms/mm-tiering usr/src/mm-tiering-* usr/bin/mm-tiering-status \
	2>/dev/null | tr '\n' ' ')
if [ $rc -eq 0 ] && [ -z "$left" ]; then
	echo "  PASS apt_remove_takes_module_away apt-get remove mm-tiering-dkms: rc=0, no mm_tiering.ko, DKMS tree, source or tool left"
else
	echo "  FAIL apt_remove_takes_module_away apt-get remove mm-tiering-dkms: rc=$rc, left: $left"
fi

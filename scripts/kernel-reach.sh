#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernels the module does not support yet must not break their installation.
# In the trixie root where build-dkms.sh installed the mm-tiering-dkms package,
# do what apt does when a Debian server installs its own kernel's headers:
# (re)install linux-headers-$MMT_REACH_KVER, whose postinst runs DKMS's
# autoinstall for that kernel.  dkms.conf's BUILD_EXCLUSIVE_KERNEL_MIN makes
# DKMS skip mm-tiering there; without it the build fails (48 errors on
# 6.12), dkms exits 1 and apt leaves the kernel unconfigured (exit 100).
# Then the compile probes against both kernels' headers (each must find
# what the other lacks), and `apt remove` of the package (the module gone
# from every kernel; build-dkms.sh installs it again next time).
# Prints one "PASS|FAIL name detail" line per check.
set -uo pipefail

. "$(dirname "$0")/env.sh"
kver=${MMT_REACH_KVER:-6.12.117+deb13-amd64}
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }
log=$MMT_CACHE/kernel-reach.log

# a package an earlier run (or an older mm-tiering) left unconfigured first
in_root dpkg --configure -a >"$log" 2>&1
in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--reinstall linux-headers-$kver" >>"$log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	echo "  PASS apt_headers_$kver apt-get install --reinstall linux-headers-$kver: rc=0"
else
	echo "  FAIL apt_headers_$kver apt-get install --reinstall linux-headers-$kver: rc=$rc; $(grep -m2 -E 'error|Error' "$log" | tr '\n' ' ')"
fi
# the kernel's own postinst hook and an explicit autoinstall for both
# kernels: the old one skipped, the supported one (built by build-dkms.sh)
# still installed, both with success
in_root /etc/kernel/postinst.d/dkms "$kver" >>"$log" 2>&1
rc2=$?
in_root dkms autoinstall -k "$kver" >>"$log" 2>&1
rc3=$?
in_root dkms autoinstall -k "$MMT_KVER" >>"$log" 2>&1
rc4=$?
st=$(in_root dkms status -m mm-tiering 2>/dev/null | tr '\n' ' ')
if [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && [ $rc4 -eq 0 ] &&
   ! echo "$st" | grep -q "$kver, [^ ]*: installed" &&
   echo "$st" | grep -q "$MMT_KVER, [^ ]*: installed"; then
	echo "  PASS dkms_skips_$kver postinst.d/dkms and dkms autoinstall -k $kver, autoinstall -k $MMT_KVER: rc=0 0 0; dkms status: $st"
else
	echo "  FAIL dkms_skips_$kver postinst.d/dkms and dkms autoinstall -k $kver, autoinstall -k $MMT_KVER: rc=$rc2 $rc3 $rc4; dkms status: $st"
fi

# the compile probes: Debian's 6.12 lacks the TEMPORAL goal tuner (7.1) and
# the filters' default (6.15), 7.3 has both
probe() {
	in_root sh -c "rm -rf /var/tmp/mmt-probe && cp -r /usr/src/mm-tiering-*/conftest \
		/var/tmp/mmt-probe && sh /var/tmp/mmt-probe/conftest.sh \
		/lib/modules/$1/build /var/tmp/mmt-probe/out.h >/dev/null 2>&1 &&
		grep -o 'define MMT_HAVE_[A-Z_]*' /var/tmp/mmt-probe/out.h | cut -c8- | tr '\n' ' '"
}
old=$(probe "$kver") new=$(probe "$MMT_KVER")
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
ok=
! has "$old" MMT_HAVE_GOAL_TUNER && ! has "$old" MMT_HAVE_FILTERS_DEFAULT &&
	has "$new" MMT_HAVE_GOAL_TUNER && has "$new" MMT_HAVE_FILTERS_DEFAULT && ok=y
[ -n "$ok" ] && r=PASS || r=FAIL
echo "  $r conftest_tells_kernels_apart $kver: ${old:-none}; $MMT_KVER: ${new:-none}"

# apt remove: the module leaves every kernel and DKMS's tree
in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get remove -y mm-tiering-dkms' \
	>>"$log" 2>&1
rc=$?
left=$(cd "$MMT_ROOT" && ls -d lib/modules/*/updates/dkms/mm_tiering.ko* \
	var/lib/dkms/mm-tiering usr/src/mm-tiering-* 2>/dev/null | tr '\n' ' ')
if [ $rc -eq 0 ] && [ -z "$left" ]; then
	echo "  PASS apt_remove_takes_module_away apt-get remove mm-tiering-dkms: rc=0, no mm_tiering.ko, DKMS tree or source left"
else
	echo "  FAIL apt_remove_takes_module_away apt-get remove mm-tiering-dkms: rc=$rc, left: $left"
fi

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the mm-tiering-dkms and mm-tiering-tools packages (dh-dkms) inside
# the trixie root:
# stage only what the package ships (the module's sources, dkms.conf, its
# docs, the tools and the workload's source, debian/), dpkg-buildpackage
# -b.  The version is scripts/version.sh's: debian/changelog's release, or
# a snapshot of it (then the staged copy's changelog gets the snapshot's
# entry on top, and its dkms.conf and the tools the snapshot's version;
# MMT_VERSION names another, as for the next version the service scenario
# upgrades to).  Prints mm-tiering-dkms' .deb's path; mm-tiering-tools' is
# beside it, in $MMT_DEB_OUT (default $MMT_TOP/build/deb).
set -euo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" debtools >&2

ver=${MMT_VERSION:-$("$MMT_TOP/scripts/version.sh")}
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }
work=/var/tmp/mmt-deb
src=$MMT_ROOT$work/mm-tiering-$ver
out=${MMT_DEB_OUT:-$MMT_TOP/build/deb}

rm -rf "$MMT_ROOT$work" && mkdir -p "$src/Documentation"
cp -r "$MMT_TOP"/{dkms.conf,Kbuild,Makefile,LICENSE,README.md,NEWS,mm-tiering,conftest,service,debian} \
	"$src/"
cp -r "$MMT_TOP"/Documentation/{admin-guide.rst,design.rst,man} "$src/Documentation/"
# the workload's source, which mm-tiering-bench builds on the target
mkdir -p "$src/tests/workload"
cp "$MMT_TOP/tests/workload/tierload.c" "$src/tests/workload/"
rm -f "$src"/mm-tiering/*.o "$src"/mm-tiering/.*.cmd "$src/mm-tiering/mmt_config.h" \
	"$src"/conftest/*.o "$src/conftest/conftest.log"
if [ "$ver" != "$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$src/dkms.conf")" ]; then
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$ver\"/" "$src/dkms.conf"
	sed -i "s/^VERSION = .*/VERSION = \"$ver\"/" "$src/service/mm-tiering-status" \
		"$src/service/mm-tiering-bench"
	{ cat <<EOC
mm-tiering ($ver) UNRELEASED; urgency=medium

  * A build of the tree at ${ver#*+git}, after release ${ver%%+*}.

 -- mm-tiering developers <mm-tiering@users.noreply.invalid>  $(date -R)

EOC
	  cat "$MMT_TOP/debian/changelog"; } >"$src/debian/changelog"
fi
# -d: build-essential (g++ and all) is implied by Debian policy but not
# needed by an arch-all source package; provision.sh installed the rest
in_root sh -c "cd $work/mm-tiering-$ver && dpkg-buildpackage -us -uc -b -d" \
	>"$MMT_CACHE/deb-build-$MMT_KVER.log" 2>&1 ||
	{ tail -30 "$MMT_CACHE/deb-build-$MMT_KVER.log" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/*.deb
cp "$MMT_ROOT$work"/mm-tiering-{dkms,tools}_"${ver}"_all.deb "$out/"
echo "$out/mm-tiering-dkms_${ver}_all.deb"

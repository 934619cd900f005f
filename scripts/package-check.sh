#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packaging as a Debian developer meets it, in the trixie root (make
# check runs this after the documents check):
#   package_builds_from_checkout  dpkg-buildpackage -us -uc -b in a copy of
#                                 the files git tracks (what a clean clone
#                                 has, at its committed release) builds
#                                 mm-tiering-dkms and mm-tiering-tools,
#                                 the tools depending on the same version
#   package_lintian_clean         lintian --pedantic reports no error and no
#                                 warning on what it built (run as nobody,
#                                 as lintian wants)
# Prints "  PASS name detail" / "  FAIL name detail" lines.
set -uo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" debtools >&2 || exit 1
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }
result() { # NAME OK DETAIL
	if [ -n "$2" ]; then echo "  PASS $1 $3"; else echo "  FAIL $1 $3"; fi
}

work=/var/tmp/mmt-pkgcheck
log=$MMT_CACHE/package-check.log
rm -rf "${MMT_ROOT:?}$work" && mkdir -p "$MMT_ROOT$work/src"
(cd "$MMT_TOP" && git ls-files -z | tar --null -T - -cf -) |
	tar -C "$MMT_ROOT$work/src" -xf -
ver=$(sed -n '1s/^mm-tiering (\([^)]*\)).*/\1/p' "$MMT_TOP/debian/changelog")
# -d: build-essential is implied by Debian policy, not needed by an
# arch-all package; provision.sh installed what debian/control names
in_root sh -c "cd $work/src && dpkg-buildpackage -us -uc -b -d" >"$log" 2>&1
rc=$?
dkms=$MMT_ROOT$work/mm-tiering-dkms_${ver}_all.deb
tools=$MMT_ROOT$work/mm-tiering-tools_${ver}_all.deb
dep=$(dpkg-deb -f "$tools" Depends 2>/dev/null)
ok=
[ $rc -eq 0 ] && [ -f "$dkms" ] && [ -f "$tools" ] &&
	case $dep in *"mm-tiering-dkms (= $ver)"*) true ;; *) false ;; esac && ok=y
result package_builds_from_checkout "$ok" "dpkg-buildpackage -us -uc -b: rc=$rc; $(cd "$MMT_ROOT$work" && ls ./*.deb 2>/dev/null | tr '\n' ' ')tools depend on: ${dep:-none}"

lint=$(in_root sh -c "cd $work && HOME=/tmp runuser -u nobody -- \
	lintian --pedantic --fail-on error,warning ./*.changes" 2>&1)
rc=$?
tags=$(echo "$lint" | grep -E '^[EW]: ' | tr '\n' ';')
ok=
[ -n "$dep" ] && [ $rc -eq 0 ] && [ -z "$tags" ] && ok=y
result package_lintian_clean "$ok" "lintian --pedantic: rc=$rc${tags:+, $tags}$(echo "$lint" | grep -cE '^[IP]: ' | sed 's/^/, infos and pedantic tags: /')"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packages through piuparts, in the trixie root (make check runs this in
# the background after the packaging check and reports it at the end):
#   package_piuparts_clean  piuparts installs this tree's mm-tiering-dkms
#                           and mm-tiering-tools (the build make check
#                           installs, build/deb-KVER) into a fresh trixie
#                           chroot, with DKMS and what it needs, removes
#                           and purges them; then installs the release the
#                           tree's debian/changelog names (the packaging
#                           check's build, scripts/package-check.sh) from a
#                           local repository with apt, upgrades it to this
#                           build and purges it.  Every maintainer script
#                           must succeed and nothing may be left behind,
#                           changed or missing.
# Prints "  PASS name detail" / "  FAIL name detail" lines.
set -uo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" piuparts >&2 || exit 1
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }
result() { # NAME OK DETAIL
	if [ -n "$2" ]; then echo "  PASS $1 $3"; else echo "  FAIL $1 $3"; fi
}

log=$MMT_CACHE/piuparts.log
rel=$(sed -n '1s/^mm-tiering (\([^)]*\)).*/\1/p' "$MMT_TOP/debian/changelog")
old=/var/tmp/mmt-pkgcheck
work=/var/tmp/mmt-piuparts
repo=$work/repo
rm -rf "${MMT_ROOT:?}$work" && mkdir -p "$MMT_ROOT$repo" "$MMT_ROOT$work/new"
new=$(ls "$MMT_TOP/build/deb-$MMT_KVER"/mm-tiering-dkms_*_all.deb 2>/dev/null | tail -1)
ver=${new##*/mm-tiering-dkms_}
ver=${ver%_all.deb}
for d in "$new" "${new%/*}/mm-tiering-tools_${ver}_all.deb" \
	"$MMT_ROOT$old/mm-tiering-dkms_${rel}_all.deb" \
	"$MMT_ROOT$old/mm-tiering-tools_${rel}_all.deb"; do
	[ -n "$ver" ] && [ -f "$d" ] || {
		result package_piuparts_clean "" "no ${d:-build/deb-$MMT_KVER/*.deb}: make check's build or the packaging check did not make it"
		exit 0
	}
done
cp "${new%/*}"/mm-tiering-{dkms,tools}_"${ver}"_all.deb "$MMT_ROOT$work/new/"
cp "$MMT_ROOT$old"/mm-tiering-{dkms,tools}_"${rel}"_all.deb "$MMT_ROOT$repo/"
in_root sh -c "cd $repo && dpkg-scanpackages -m . > Packages" 2>/dev/null
# the root's own trixie mirror (taken from the host's apt sources when the
# root was made: the repository names none)
mirror=$(awk '$1 == "deb" && $3 == "trixie" { print $2; exit }' \
	"$MMT_ROOT/etc/apt/sources.list")
# piuparts' base chroot, kept for a week: debootstrap once, not every run
base=/var/cache/mmt-piuparts/trixie.tar.gz
mkdir -p "$MMT_ROOT${base%/*}"
find "$MMT_ROOT$base" -mtime +6 -delete 2>/dev/null
if [ -s "$MMT_ROOT$base" ]; then
	b=(-b "$base")
else
	b=(-s "$base")
fi
in_root piuparts -d trixie -m "$mirror" "${b[@]}" \
	--bindmount "$repo" --extra-repo "deb [trusted=yes] file://$repo ./" \
	"$work/new/mm-tiering-dkms_${ver}_all.deb" \
	"$work/new/mm-tiering-tools_${ver}_all.deb" >"$log" 2>&1
rc=$?
ok=
up=$(grep -c 'PASS: Installation, upgrade and purging tests' "$log")
[ $rc -eq 0 ] && grep -q 'PASS: All tests' "$log" && [ "$up" = 1 ] && ok=y
# the verdicts, and the files a failure names (indented under it)
said=$(grep -E -A5 'ERROR:|FAIL:|PASS:' "$log" | grep -E 'ERROR:|FAIL:|PASS:|^  /' |
	sed 's/^[0-9m.]*s //' | head -6 | cut -c1-160 | tr '\t\n' '  ')
result package_piuparts_clean "$ok" "piuparts of mm-tiering-dkms and -tools $ver (install, remove, purge; and an upgrade from $rel): rc=$rc; $said"

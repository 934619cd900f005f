#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version a build from this tree carries: debian/changelog's (the
# release, also dkms.conf's PACKAGE_VERSION and NEWS's) where the tree is
# that release's tag (vX.Y.Z) and unchanged; otherwise the release, then
# +git, the commit's date and its id, then .d and a digest of what differs
# from it (two trees that differ never carry the same version, and a
# snapshot sorts after its release, as Debian's versions compare).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
base=$(sed -n '1s/^mm-tiering (\([^)]*\)).*/\1/p' "$top/debian/changelog")
[ -n "$base" ] || { echo "version.sh: no version in debian/changelog" >&2; exit 1; }
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || { echo "$base"; exit 0; }
changes=$(git -C "$top" diff HEAD --binary -- . 2>/dev/null)
diff=
[ -z "$changes" ] || diff=$(printf '%s\n' "$changes" | sha1sum | cut -c1-8)
if [ -z "$diff" ] &&
   [ "$(git -C "$top" tag --points-at HEAD 2>/dev/null | grep -x "v$base")" ]; then
	echo "$base"
	exit 0
fi
when=$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d)
id=$(git -C "$top" rev-parse --short=12 HEAD)
echo "$base+git$when.$id${diff:+.d$diff}"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Provision everything mm-tiering's build and test bench needs on a bare
# Debian 12 host, cached outside the repository and keyed by version.
#
#   scripts/provision.sh [host|root|kernel|source|tarball|kbuild|debtools|piuparts|guest|all]
#   (all: host, root and kernel)
#
# Host tools come from the host's own (bookworm) apt sources.  Debian kernel
# packages newer than bookworm are fetched only from inside a Debian trixie
# root built with mmdebstrap, through that root's own apt: trixie, trixie-
# backports or sid are never added to the host's apt sources (a plain host
# install would then upgrade libc6 and dpkg).
#
# Idempotent: each step is skipped when its stamp exists.
set -euo pipefail

. "$(dirname "$0")/env.sh"

log() { echo "provision: $*" >&2; }

host_tools() {
	local need=() p
	for p in qemu-system-x86 busybox-static cpio mmdebstrap zstd xz-utils e2fsprogs \
		 flex bison bc python3-matplotlib python3-prometheus-client \
		 gcc libc6-dev make python3 shellcheck man-db groff-base openssl; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'ok installed' || need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	log "installing host tools from the host's sources: ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# Run a command inside the trixie root with /proc, /sys and /dev mounted
# (objtool and dkms need /proc), and $MMT_BIND, a host directory, at
# /mmt-bind (the debug kernel's tree).  Mounts are private to this invocation.
in_root() {
	unshare -m --propagation private /bin/sh -c '
		r=$1 b=$2; shift 2
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		if [ -n "$b" ]; then
			mkdir -p "$r/mmt-bind"
			mount --bind "$b" "$r/mmt-bind"
		fi
		exec chroot "$r" "$@"' sh "$MMT_ROOT" "${MMT_BIND:-}" "$@"
}

# The Debian mirror the host's own apt uses (the first URI serving its
# release): the repository names no mirror.  MMT_MIRROR overrides it (a site
# mirror, an apt proxy's URL).
debian_mirror() {
	local codename m
	[ -n "${MMT_MIRROR:-}" ] && { echo "${MMT_MIRROR%/}"; return 0; }
	codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
	m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v c="$codename" '
		BEGIN { RS = ""; FS = "\n" }
		{ u = ""; ok = 0
		  for (i = 1; i <= NF; i++) {
			if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); u = a[2] }
			if ($i ~ /^Suites:/ && $i ~ ("[ \t]" c "([ \t]|$)")) ok = 1
		  }
		  if (ok && u != "") { print u; exit } }')
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		2>/dev/null | awk -v c="$codename" '
		$1 == "deb" { for (i = 2; i < NF; i++)
			if ($i ~ /^[a-z+]+:\/\// && $(i + 1) == c) { print $i; exit } }')
	[ -n "$m" ] || { log "no Debian mirror for $codename in the host's apt sources"; exit 1; }
	echo "${m%/}"
}

trixie_root() {
	[ -f "$MMT_ROOT/.mmt-ok" ] && return 0
	log "building the trixie root in $MMT_ROOT (about a minute)"
	rm -rf "$MMT_ROOT"
	mkdir -p "$(dirname "$MMT_ROOT")"
	local mirror mlog
	mirror=$(debian_mirror)
	# a log per root: check.sh builds roots side by side
	mlog=$MMT_CACHE/mmdebstrap-$(basename "$(dirname "$MMT_ROOT")").log
	mmdebstrap --variant=minbase --mode=root \
		--include="gcc-14,libc6-dev,make,kmod,dkms,linux-headers-$MMT_KVER" \
		--skip=check/qemu \
		trixie "$MMT_ROOT" \
		"deb $mirror trixie main" \
		"deb $mirror trixie-backports main" \
		>"$mlog" 2>&1 || { tail -20 "$mlog" >&2; exit 1; }
	touch "$MMT_ROOT/.mmt-ok"
}

# Download one Debian package through the root's apt and unpack it to $2.
fetch_unpack() {
	local pkg=$1 dest=$2 deb
	rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
	ls "$MMT_ROOT"/var/lib/apt/lists/*_Packages >/dev/null 2>&1 ||
		in_root apt-get update -qq
	in_root /bin/sh -c "cd /tmp && rm -f ${pkg}_*.deb && apt-get download -q $pkg" >/dev/null
	deb=$(ls "$MMT_ROOT"/tmp/"${pkg}"_*.deb)
	dpkg-deb -x "$deb" "$dest.tmp"
	rm -f "$deb"
	rm -rf "$dest" && mv "$dest.tmp" "$dest"
}

# The kernel image: linux-binary-$MMT_KVER (7.x), or the unsigned image
# package of 6.12, whose vmlinuz is in /boot (copied to where 7.x has it).
kernel_image() {
	[ -f "$MMT_KDIR/.mmt-ok" ] && return 0
	local pkg=linux-binary-$MMT_KVER
	case $MMT_KVER in 6.*) pkg=linux-image-$MMT_KVER-unsigned ;; esac
	log "fetching $pkg through the trixie root"
	fetch_unpack "$pkg" "$MMT_KDIR"
	if [ -f "$MMT_KDIR/boot/vmlinuz-$MMT_KVER" ]; then
		mkdir -p "$MMT_KDIR/usr/lib/modules/$MMT_KVER"
		cp "$MMT_KDIR/boot/vmlinuz-$MMT_KVER" \
			"$MMT_KDIR/usr/lib/modules/$MMT_KVER/vmlinuz"
	fi
	ls "$MMT_KDIR/usr/lib/modules/$MMT_KVER/vmlinuz" >/dev/null
	touch "$MMT_KDIR/.mmt-ok"
}

# linux-source's tarball, kept: the UML tree and the debug kernel unpack it.
source_tarball() {
	ls "$MMT_CACHE"/linux-source-"$MMT_SRCVER".tar.* >/dev/null 2>&1 &&
		return 0
	log "fetching linux-source-$MMT_SRCVER"
	fetch_unpack "linux-source-$MMT_SRCVER" "$MMT_CACHE/srcpkg-$MMT_SRCVER"
	mv "$MMT_CACHE/srcpkg-$MMT_SRCVER"/usr/src/linux-source-$MMT_SRCVER.tar.* \
		"$MMT_CACHE/"
	rm -rf "$MMT_CACHE/srcpkg-$MMT_SRCVER"
}

kernel_source() {
	[ -f "$MMT_SRC/.mmt-ok" ] && return 0
	source_tarball
	log "unpacking linux-source-$MMT_SRCVER"
	rm -rf "$MMT_SRC" && mkdir -p "$MMT_SRC"
	tar -C "$MMT_SRC" --strip-components=1 -xf \
		"$MMT_CACHE"/linux-source-"$MMT_SRCVER".tar.*
	touch "$MMT_SRC/.mmt-ok"
}

# checkpatch.pl and the files it reads, from the unpacked source when there
# is one, else out of the tarball alone (make check's code checks need no
# more of the tree).  Prints the script's path.
checkpatch() {
	local dir=$MMT_CACHE/checkpatch-$MMT_SRCVER
	if [ -f "$MMT_SRC/.mmt-ok" ]; then
		echo "$MMT_SRC/scripts/checkpatch.pl"
		return 0
	fi
	if [ ! -f "$dir/.mmt-ok" ]; then
		source_tarball >&2
		rm -rf "$dir" && mkdir -p "$dir"
		tar -C "$dir" --strip-components=1 --wildcards -xf \
			"$MMT_CACHE"/linux-source-"$MMT_SRCVER".tar.* \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' >&2 || return 1
		touch "$dir/.mmt-ok"
	fi
	echo "$dir/scripts/checkpatch.pl"
}

# root_install NAME WHAT PKG...: install PKGs in the root once (stamp
# .mmt-NAME-ok, which holds the list: a changed list installs again; log
# root-NAME.log), updating its package lists if the first try fails (a
# root built days ago lists packages the mirror dropped).
root_install() {
	local name=$1 what=$2
	shift 2
	[ "$(cat "$MMT_ROOT/.mmt-$name-ok" 2>/dev/null)" = "$*" ] && return 0
	log "installing $what in the root $MMT_ROOT"
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$@" >"$MMT_CACHE/root-$name.log" 2>&1 ||
		{ in_root apt-get update -qq && in_root env \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$@" >"$MMT_CACHE/root-$name.log" 2>&1; } ||
		{ tail -20 "$MMT_CACHE/root-$name.log" >&2; exit 1; }
	echo "$*" >"$MMT_ROOT/.mmt-$name-ok"
}

# What building a kernel inside the trixie root needs beyond the headers.
root_kbuild() {
	root_install kbuild "the kernel build tools" gcc flex bison bc \
		libelf-dev libssl-dev perl cpio xz-utils
}

# What building the packages needs (dh-dkms), and lintian to check them.
root_debtools() {
	root_install debtools "debhelper, dh-dkms, docutils and lintian" \
		debhelper dh-dkms dpkg-dev fakeroot lintian python3-docutils
}

# piuparts, and the debootstrap it makes its chroots with.
root_piuparts() {
	root_install piuparts "piuparts" piuparts debootstrap
}

# What the Debian guest (scripts/debian-guest.sh) boots: systemd as init and
# Debian's kernel package with its own initramfs, in a root of its own, and
# PostgreSQL for the postgres scenario, gcc and libnuma-dev for the mm
# migration selftest (the selftests scenario).  Backports' kernels want
# backports' linux-base.
root_guest() {
	local base=linux-base
	case $MMT_KVER in 7.*) base=linux-base/trixie-backports ;; esac
	root_install guest "systemd, PostgreSQL and linux-image-$MMT_KVER" \
		systemd-sysv dbus e2fsprogs python3 postgresql-17 gcc libc6-dev \
		libnuma-dev "$base" \
		"linux-image-$MMT_KVER"
}

mkdir -p "$MMT_CACHE"
what=${1:-all}
case $what in
host)	host_tools ;;
root)	host_tools; trixie_root ;;
kernel)	host_tools; trixie_root; kernel_image ;;
source)	host_tools; trixie_root; kernel_source ;;
tarball) host_tools; trixie_root; source_tarball ;;
checkpatch) host_tools >&2; trixie_root >&2; checkpatch ;;
kbuild)	host_tools; trixie_root; root_kbuild ;;
debtools) host_tools; trixie_root; root_debtools ;;
piuparts) host_tools; trixie_root; root_piuparts ;;
guest)	host_tools; trixie_root; root_guest ;;
all)	host_tools; trixie_root; kernel_image ;;
in-root) shift; in_root "$@" ;;
*)	echo "usage: $0 [host|root|kernel|source|tarball|checkpatch|kbuild|debtools|piuparts|guest|all|in-root CMD...]" >&2; exit 2 ;;
esac

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Provision everything mm-tiering's build and test bench needs on a bare
# Debian 12 host, cached outside the repository and keyed by version.
#
#   scripts/provision.sh [host|root|kernel|source|all]   (default: all but source)
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
	for p in qemu-system-x86 busybox-static cpio mmdebstrap zstd xz-utils \
		 flex bison bc python3-matplotlib \
		 gcc libc6-dev make python3; do
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
# (objtool and dkms need /proc).  Mounts are private to this invocation.
in_root() {
	unshare -m --propagation private /bin/sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		exec chroot "$r" "$@"' sh "$MMT_ROOT" "$@"
}

trixie_root() {
	[ -f "$MMT_ROOT/.mmt-ok" ] && return 0
	log "building the trixie root in $MMT_ROOT (about a minute)"
	rm -rf "$MMT_ROOT"
	mkdir -p "$(dirname "$MMT_ROOT")"
	mmdebstrap --variant=minbase --mode=root \
		--include="gcc-14,libc6-dev,make,kmod,dkms,linux-headers-$MMT_KVER" \
		--skip=check/qemu \
		trixie "$MMT_ROOT" \
		"deb http://deb.debian.org/debian trixie main" \
		"deb http://deb.debian.org/debian trixie-backports main" \
		>"$MMT_CACHE/mmdebstrap.log" 2>&1 ||
		{ tail -20 "$MMT_CACHE/mmdebstrap.log" >&2; exit 1; }
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

kernel_image() {
	[ -f "$MMT_KDIR/.mmt-ok" ] && return 0
	log "fetching linux-binary-$MMT_KVER through the trixie root"
	fetch_unpack "linux-binary-$MMT_KVER" "$MMT_KDIR"
	ls "$MMT_KDIR/usr/lib/modules/$MMT_KVER/vmlinuz" >/dev/null
	touch "$MMT_KDIR/.mmt-ok"
}

kernel_source() {
	[ -f "$MMT_SRC/.mmt-ok" ] && return 0
	log "fetching and unpacking linux-source-$MMT_SRCVER (a few minutes)"
	fetch_unpack "linux-source-$MMT_SRCVER" "$MMT_CACHE/srcpkg-$MMT_SRCVER"
	rm -rf "$MMT_SRC" && mkdir -p "$MMT_SRC"
	tar -C "$MMT_SRC" --strip-components=1 -xf \
		"$MMT_CACHE/srcpkg-$MMT_SRCVER"/usr/src/linux-source-"$MMT_SRCVER".tar.*
	rm -rf "$MMT_CACHE/srcpkg-$MMT_SRCVER"
	touch "$MMT_SRC/.mmt-ok"
}

mkdir -p "$MMT_CACHE"
what=${1:-all}
case $what in
host)	host_tools ;;
root)	host_tools; trixie_root ;;
kernel)	host_tools; trixie_root; kernel_image ;;
source)	host_tools; trixie_root; kernel_source ;;
all)	host_tools; trixie_root; kernel_image ;;
in-root) shift; in_root "$@" ;;
*)	echo "usage: $0 [host|root|kernel|source|all|in-root CMD...]" >&2; exit 2 ;;
esac

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the sanitizer kernel of the QEMU bench: linux-source-$MMT_SRCVER's
# x86_64_defconfig with scripts/debug.config merged over it (KASAN, UBSAN,
# KFENCE, lockdep, atomic-sleep, debug objects and lists, kmemleak, hung
# tasks, fault injection; trimmed to what the VM uses).  Built inside the
# trixie root with its gcc, the compiler DKMS then builds the module with.
# Cached in $MMT_CACHE/debug-$MMT_SRCVER-<key>, the key a hash of the config
# fragment and of RECIPE (raise it when the build steps below change): a
# second run only prints where it is.
#   scripts/debug-kernel.sh          prints "KERNELRELEASE DIR"
set -euo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" kbuild >&2
"$MMT_TOP/scripts/provision.sh" tarball >&2

RECIPE=1
key=$( (cat "$MMT_TOP/scripts/debug.config"; echo "recipe $RECIPE") |
	sha256sum | cut -c1-12)
dir=$MMT_CACHE/debug-$MMT_SRCVER-$key
in_dbg() { MMT_BIND=$dir "$MMT_TOP/scripts/provision.sh" in-root "$@"; }

if [ ! -f "$dir/.mmt-ok" ]; then
	start=$(date +%s)
	echo "debug-kernel: building in $dir (about 15 minutes on 2 cores)" >&2
	rm -rf "$MMT_CACHE"/debug-"$MMT_SRCVER"-*
	mkdir -p "$dir/src" "$dir/build"
	tar -C "$dir/src" --strip-components=1 -xf \
		"$MMT_CACHE"/linux-source-"$MMT_SRCVER".tar.*
	cp "$MMT_TOP/scripts/debug.config" "$dir/debug.config"
	log=$dir/build.log
	in_dbg /bin/sh -c '
		set -e
		cd /mmt-bind/src
		make O=/mmt-bind/build x86_64_defconfig
		scripts/kconfig/merge_config.sh -m -O /mmt-bind/build \
			/mmt-bind/build/.config /mmt-bind/debug.config
		make O=/mmt-bind/build olddefconfig' >"$log" 2>&1 ||
		{ tail -30 "$log" >&2; exit 1; }
	# every line of the fragment must have survived olddefconfig
	bad=0
	while IFS= read -r l; do
		case $l in CONFIG_*) ;; *) continue ;; esac
		opt=${l%%=*} val=${l#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$dir/build/.config" || continue
		else
			grep -qxF "$l" "$dir/build/.config" && continue
		fi
		echo "debug-kernel: $l did not hold: $(grep "${opt}[= ]" "$dir/build/.config")" >&2
		bad=1
	done <"$dir/debug.config"
	[ $bad -eq 0 ] || exit 1
	in_dbg /bin/sh -c "cd /mmt-bind/build && make -j$(nproc) bzImage &&
		make modules_prepare && cp vmlinux.symvers Module.symvers" \
		>>"$log" 2>&1 || { grep -E 'error|Error' "$log" | head -20 >&2
		tail -20 "$log" >&2; exit 1; }
	rel=$(in_dbg make -s -C /mmt-bind/build kernelrelease)
	echo "$rel" >"$dir/release"
	# the sources are needed no more: the build tree has what modules need
	# (its "source" link points at them, so keep include/ and scripts/)
	echo "debug-kernel: $rel built in $(( $(date +%s) - start )) s" >&2
	touch "$dir/.mmt-ok"
fi
rel=$(cat "$dir/release")
# DKMS finds the kernel through /lib/modules/$rel/build, as on a real host
mods=$MMT_ROOT/lib/modules/$rel
mkdir -p "$mods"
ln -sfn /mmt-bind/build "$mods/build"
for f in modules.builtin modules.builtin.modinfo; do
	cp "$dir/build/$f" "$mods/"
done
# no loadable module in this kernel: an empty list, for depmod
touch "$mods/modules.order"
echo "$rel $dir"

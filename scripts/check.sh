#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: provision, build and install through DKMS, then run every
# guest scenario in its own QEMU boot.  Each guest script announces how many
# results it owes (MMT-PLAN n) and prints MMT-TEST PASS|FAIL lines; a result
# it never printed (crash, hang, timeout) counts as failed.  The last line is
# "N passed, N failed".
#   scripts/check.sh [scenario...]     (default: all, then KUnit)
# MMT_NO_KUNIT=1 skips the KUnit run.
set -uo pipefail

. "$(dirname "$0")/env.sh"
out=$MMT_TOP/build/check
mkdir -p "$out"
passed=0
failed=0

step() { echo "== $*"; }
die_setup() {
	echo "check: $1 failed" >&2
	echo "0 passed, 1 failed"
	exit 1
}

step "provision (cache: $MMT_CACHE)"
"$MMT_TOP/scripts/provision.sh" all || die_setup provisioning
step "build and install through DKMS against linux-headers-$MMT_KVER"
"$MMT_TOP/scripts/build-dkms.sh" || die_setup "the DKMS build"
"$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd.gz" || die_setup initramfs

# scenario:timeout_s
scenarios=${*:-stock control tiering params flat phase}
for s in $scenarios; do
	case $s in
	tiering) tmo=600 ;;
	phase) tmo=900 ;;
	control) tmo=400 ;;
	*) tmo=300 ;;
	esac
	step "scenario $s (QEMU TCG, Debian $MMT_KVER, node0 2 CPUs + 1 GiB, node1 CPU-less 1 GiB)"
	start=$(date +%s)
	topo=
	[ "$s" = flat ] && topo=flat
	for try in 1 2; do
		MMT_TOPO=$topo "$MMT_TOP/scripts/vm.sh" "$out/initrd.gz" "$s" \
			"$tmo" </dev/null >"$out/$s.log" 2>&1
		# a boot that never reached the script is the bench's, not a result
		grep -q '^MMT-BOOT' "$out/$s.log" && break
		echo "  note: boot $try of $s never reached init; $(grep -m1 -E 'Kernel panic|Oops' "$out/$s.log")"
		cp "$out/$s.log" "$out/$s.boot$try.log"
	done
	tr -d '\r' <"$out/$s.log" >"$out/$s.log.tmp" && mv "$out/$s.log.tmp" "$out/$s.log"
	want=$(sed -n 's/^MMT-PLAN \([0-9]*\).*/\1/p' "$out/$s.log" | head -1)
	p=$(grep -c '^MMT-TEST PASS ' "$out/$s.log")
	f=$(grep -c '^MMT-TEST FAIL ' "$out/$s.log")
	grep -E '^MMT-(TEST|INFO) ' "$out/$s.log" | sed 's/^MMT-TEST /  /; s/^MMT-INFO /    info: /'
	missing=$(( ${want:-1} - p - f ))
	if ! grep -q '^MMT-END rc=0' "$out/$s.log"; then
		echo "  FAIL $s: the guest did not finish (see build/check/$s.log)"
		grep -E 'Kernel panic|BUG|Oops|WARNING' "$out/$s.log" | head -5 | sed 's/^/    /'
		[ $missing -lt 1 ] && missing=1
	fi
	[ $missing -gt 0 ] && echo "  FAIL $s: $missing result(s) never reported"
	[ $missing -lt 0 ] && missing=0
	passed=$((passed + p))
	failed=$((failed + f + missing))
	echo "  ($s: $p passed, $((f + missing)) failed, $(( $(date +%s) - start )) s)"
done

if [ -z "${MMT_NO_KUNIT:-}" ]; then
	step "KUnit: the module's pure logic in a UML kernel from linux-source-$MMT_SRCVER"
	"$MMT_TOP/scripts/kunit.sh" | tee "$out/kunit.out" | sed 's/^/  /'
	kp=$(sed -n 's/^kunit: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out/kunit.out")
	kf=$(sed -n 's/^kunit: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out/kunit.out")
	[ -z "$kp" ] && kp=0 && kf=1
	passed=$((passed + kp))
	failed=$((failed + kf))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: provision, build and install through DKMS, then run every
# guest scenario in its own QEMU boot.  Each guest script announces how many
# results it owes (MMT-PLAN n) and prints MMT-TEST PASS|FAIL lines; a result
# it never printed (crash, hang, timeout) counts as failed.  The last line is
# "N passed, N failed".
#   scripts/check.sh [scenario...]     (default: all, then KUnit)
# MMT_NO_KUNIT=1 skips the KUnit run, MMT_NO_BENCH=1 the bench smoke test.
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
scenarios=${*:-stock control tiering params flat phase steady bw}
for s in $scenarios; do
	case $s in
	tiering) tmo=600 ;;
	phase) tmo=900 ;;
	steady|bw) tmo=600 ;;
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

if [ -z "${MMT_NO_BENCH:-}" ]; then
	step "bench harness smoke test (scripts/bench.sh --quick: none and mm_tiering, skew, 30 s)"
	bo=$out/bench-quick
	BENCH_OUT=$bo "$MMT_TOP/scripts/bench.sh" --quick >"$out/bench.out" 2>&1
	rc=$?
	rows=$(tail -n +2 "$bo/runs.csv" 2>/dev/null | wc -l)
	if [ $rc -eq 0 ] && [ "$rows" -eq 2 ] && [ -s "$bo/share.png" ] &&
	   grep -q '^| none (first touch) |' "$bo/report.md" &&
	   grep -q '^| mm_tiering defaults |' "$bo/report.md"; then
		echo "  PASS bench_harness_outputs runs.csv ($rows runs), samples.csv, report.md, share.png"
		passed=$((passed + 1))
	else
		echo "  FAIL bench_harness_outputs rc=$rc runs=$rows (see build/check/bench.out)"
		failed=$((failed + 1))
	fi
	# a real outcome: mm_tiering serves far more accesses from node0
	share() { awk -F, -v p="$1" '$1 == p { printf "%d", $4 }' "$bo/runs.csv" 2>/dev/null; }
	intact=$(awk -F, 'NR > 1 && $13 != "True" { bad++ } END { print bad + 0 }' "$bo/runs.csv" 2>/dev/null)
	s_none=$(share none); s_mmt=$(share mmt)
	if [ -n "$s_none" ] && [ -n "$s_mmt" ] && [ "$s_mmt" -ge $((s_none + 2000)) ] &&
	   [ "$intact" = 0 ]; then
		echo "  PASS bench_mmt_beats_none mean node0 share: mm_tiering ${s_mmt} bp, none ${s_none} bp; data intact"
		passed=$((passed + 1))
	else
		echo "  FAIL bench_mmt_beats_none mean node0 share: mm_tiering ${s_mmt:-?} bp, none ${s_none:-?} bp; runs with bad data: ${intact:-?}"
		failed=$((failed + 1))
	fi
fi

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

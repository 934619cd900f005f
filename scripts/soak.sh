#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak T=NAME N=20 [K="kernel..."]: one scenario of tests/scenarios
# booted N times on each kernel (default: the stock kernel and
# 6.12.117+deb13-amd64), each run a fresh machine, $MMT_JOBS (default 2)
# boots at a time.  A result that holds once may not hold twice: this is
# how a rare failure (an OOM kill in 3 of 4 runs, or in 1 of 20) is
# counted.  Not part of make check: a measurement, for a closing note.
# Writes build/soak/NAME/: KVER-run-NN.log, results.csv (kernel, run,
# check, result, detail) and summary.txt (each check's passes per kernel,
# each failure's detail), which it also prints; the last line is
# "N passed, N failed" over every check of every run.
#   scripts/soak.sh NAME N [KVER...]
set -uo pipefail

. "$(dirname "$0")/env.sh"
. "$MMT_TOP/scripts/scenarios.sh"
name=${1:-} runs=${2:-}
shift 2 || shift $#
kvers=${*:-$MMT_KVER 6.12.117+deb13-amd64}
if [ -z "${S_BOOT[$name]:-}" ] || ! [ "${runs:-0}" -ge 1 ] 2>/dev/null; then
	echo "usage: make soak T=<scenario of tests/scenarios> N=<runs> [K=\"kernel...\"]" >&2
	exit 2
fi
if [ "${S_BOOT[$name]}" != busybox ]; then
	echo "soak: $name boots the Debian guest; soak boots the busybox initramfs's scenarios" >&2
	exit 2
fi
out=$MMT_TOP/build/soak/$name
rm -rf "$out"
mkdir -p "$out"

# Each kernel: its root, the package built and installed there by DKMS,
# its initramfs (as make check's other kernels).
for k in $kvers; do
	echo "== set-up: $k (root, mm-tiering-dkms, initramfs)"
	(export MMT_KVER=$k MMT_ROOT=$MMT_CACHE/trixie-$k/root
	 "$MMT_TOP/scripts/provision.sh" all &&
	 "$MMT_TOP/scripts/build-dkms.sh" &&
	 "$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd-$k.gz") >"$out/setup-$k.log" 2>&1 ||
		{ tail -20 "$out/setup-$k.log"; echo "soak: setting up $k failed" >&2; exit 1; }
done

# boot KVER RUN: one boot (a second when the first never reached init: the
# bench's fault, not a result)
boot() {
	local k=$1 log try
	log=$out/$k-run-$(printf %02d "$2").log
	for try in 1 2; do
		MMT_KVER=$k MMT_TOPO=${S_TOPO[$name]} MMT_SMP=${S_CPUS[$name]} \
			"$MMT_TOP/scripts/vm.sh" "$out/initrd-$k.gz" "$name" \
			"$(timeout_of "$name")" "mmt.scale=${MMT_SCALE:-1}" \
			</dev/null >"$log" 2>&1
		grep -q '^MMT-BOOT' "$log" && break
		cp "$log" "${log%.log}.boot$try.log"
	done
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
}
# the jobs, one "KVER RUN" line each, kernels interleaved so that each
# kernel's runs meet the same load
for r in $(seq "$runs"); do
	for k in $kvers; do echo "$k $r"; done
done >"$out/jobs"
next_job() {
	flock "$out/jobs.lock" sh -c 'head -1 "$1"; sed -i 1d "$1"' sh "$out/jobs"
}
lane() {
	local k r
	while read -r k r < <(next_job) && [ -n "$r" ]; do
		boot "$k" "$r"
		echo "  $k run $r: $(grep -c '^MMT-TEST PASS' "$out/$k-run-$(printf %02d "$r").log") passed," \
			"$(grep -c '^MMT-TEST FAIL' "$out/$k-run-$(printf %02d "$r").log") failed"
	done
}
echo "== $name: $runs runs on each of $kvers, ${MMT_JOBS:-2} boots at a time (QEMU TCG)"
start=$(date +%s)
pids=()
for _ in $(seq "${MMT_JOBS:-2}"); do
	lane &
	pids+=($!)
done
wait "${pids[@]}"

# results.csv: every check of every run; a run that did not finish, or owed
# results it never printed, gets a failed "finished" row
echo "kernel,run,check,result,detail" >"$out/results.csv"
for k in $kvers; do
	for r in $(seq "$runs"); do
		log=$out/$k-run-$(printf %02d "$r").log
		grep '^MMT-TEST ' "$log" | tr -d '"' |
			sed -n "s/^MMT-TEST \(PASS\|FAIL\|SKIP\) \([^ ]*\) *\(.*\)/$k,$r,\2,\1,\"\3\"/p"
		want=$(sed -n 's/^MMT-PLAN \([0-9]*\).*/\1/p' "$log" | head -1)
		got=$(grep -c '^MMT-TEST ' "$log")
		if grep -q '^MMT-END rc=0' "$log" && [ "$got" -eq "${want:-0}" ] && [ "$got" -gt 0 ]; then
			echo "$k,$r,finished,PASS,\"$got of ${want} results\""
		else
			echo "$k,$r,finished,FAIL,\"$got of ${want:-?} results; $(grep -m1 -E 'Kernel panic|BUG|Oops|timed out' "$log" | tr -d '"')\""
		fi
	done
done >>"$out/results.csv"

# summary.txt: per kernel, each check's passes over the runs and the detail
# of each failure
{
	echo "$name, $runs runs on each kernel, QEMU TCG, ${MMT_JOBS:-2} boots at a time, $(( $(date +%s) - start )) s; machine: ${S_MACHINE[$name]:-node0 2 CPUs + 1 GiB, node1 CPU-less 1 GiB}"
	awk -F, 'NR > 1 {
		key = $1 " " $3
		if (!(key in n)) order[++m] = key
		n[key]++; if ($4 == "PASS") p[key]++
		else fails[key] = fails[key] sprintf("\n    run %s: %s", $2, substr($0, index($0, "\"")))
	} END {
		for (i = 1; i <= m; i++) {
			k = order[i]
			printf "  %-60s %d of %d passed%s\n", k, p[k], n[k], fails[k]
		}
	}' "$out/results.csv"
} >"$out/summary.txt"
cat "$out/summary.txt"
pass=$(awk -F, 'NR > 1 && $4 == "PASS"' "$out/results.csv" | wc -l)
fail=$(awk -F, 'NR > 1 && $4 == "FAIL"' "$out/results.csv" | wc -l)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

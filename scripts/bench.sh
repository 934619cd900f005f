#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: mm_tiering against the alternatives, one QEMU boot per cell
# (policy x workload x repeat), one after another, then a CSV, a markdown
# table and a PNG plot (bench/report.py).  Not a timed test.
#
#   scripts/bench.sh [--quick]
#   BENCH_POLICIES="none debian numab2 recipe mmt mmt_static"
#   BENCH_WORKLOADS="skew phase zipf"  BENCH_REPEATS=3  BENCH_SECS=90
#   BENCH_OUT=build/bench
# --quick: the smoke variant of make check (policies none and mmt, the skew
# workload, one 30 s repeat).
set -euo pipefail

. "$(dirname "$0")/env.sh"
policies=${BENCH_POLICIES:-none debian numab2 recipe mmt mmt_static}
workloads=${BENCH_WORKLOADS:-skew phase zipf}
repeats=${BENCH_REPEATS:-3}
secs=${BENCH_SECS:-90}
out=${BENCH_OUT:-$MMT_TOP/build/bench}
quick=
if [ "${1:-}" = --quick ]; then
	quick=y policies="none mmt" workloads=skew repeats=1 secs=30
	out=${BENCH_OUT:-$MMT_TOP/build/bench-quick}
fi

# also installs Debian's python3-matplotlib for the plot (Debian's
# /usr/bin/python3, not whatever python3 comes first in PATH)
"$MMT_TOP/scripts/provision.sh" all
"$MMT_TOP/scripts/build-dkms.sh"
rm -rf "$out" && mkdir -p "$out/runs"
"$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd.gz"

# cell POLICY WORKLOAD REPEAT: one boot
cell() {
	local log=$out/runs/$1.$2.$3.log
	echo "bench: repeat $3/$repeats, $2, $1 (${secs} s)"
	"$MMT_TOP/scripts/vm.sh" "$out/initrd.gz" bench \
		$((secs * 3 + 300)) mmt.policy="$1" \
		mmt.workload="$2" mmt.secs="$secs" quiet \
		</dev/null 2>&1 | tr -d '\r' >"$log" || true
	grep -E '^BENCH-(RESULT|ERROR)' "$log" || echo "bench: no result in $log"
}
for r in $(seq 1 "$repeats"); do
	for wl in $workloads; do
		for pol in $policies; do
			# the smoke test's two cells side by side (one host core
			# each); measured cells one at a time, alone
			if [ -n "$quick" ]; then
				cell "$pol" "$wl" "$r" &
			else
				cell "$pol" "$wl" "$r"
			fi
		done
	done
done
wait

/usr/bin/python3 "$MMT_TOP/bench/report.py" "$out" \
	--conditions "Debian $MMT_KVER, QEMU TCG (thread=single), node0 2 CPUs + 1 GiB / node1 CPU-less 1 GiB, HMAT 80/250 ns, 72/26 GB/s; ${secs} s per run, $repeats repeat(s)"

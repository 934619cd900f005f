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
#   BENCH_OUT=build/bench  BENCH_JOBS=1  BENCH_NODE_MB=1024  BENCH_TRACE=
#   BENCH_LOWERS=1
# Workloads: skew phase zipf tail perturb zipf80 zipf99 zipf120, and any
# of them as WORKLOAD_thp (transparent huge pages); perturb runs at least
# 130 s (its first forced exchange comes at 60 s).  BENCH_JOBS=2 runs two
# cells at a time, each QEMU pinned to a host core of its own (taskset).
# BENCH_NODE_MB sizes both nodes (MMT_NODE_MB of vm.sh); the workloads'
# hot sets and free room scale with it (their sizes are for 1024 MiB).
# BENCH_LOWERS=K splits the CPU-less memory (BENCH_NODE_MB) over K nodes
# (vm.sh MMT_LOWERS), the hot buffer interleaved over them.
# BENCH_TRACE=1 adds mm_tiering's pair lines once a second to each log
# (BENCH-TRACE, for reading, not parsed).
# --quick: the smoke variant of make check (policies none and mmt, the skew
# workload, one 30 s repeat).
# BENCH_DOC=1: the run's summary table (summary.rst) and plot replace
# those of Documentation/bench.rst (between its bench-summary markers) and
# Documentation/bench-share.png: the documents' figures are made only so.
set -euo pipefail

. "$(dirname "$0")/env.sh"
policies=${BENCH_POLICIES:-none debian numab2 recipe mmt mmt_static}
workloads=${BENCH_WORKLOADS:-skew phase zipf}
repeats=${BENCH_REPEATS:-3}
secs=${BENCH_SECS:-90}
jobs=${BENCH_JOBS:-1}
node_mb=${BENCH_NODE_MB:-1024}
trace=()
[ -n "${BENCH_TRACE:-}" ] && trace=(mmt.trace=1)
export MMT_NODE_MB=$node_mb
lowers=${BENCH_LOWERS:-1}
export MMT_LOWERS=$lowers
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

# cell POLICY WORKLOAD REPEAT [CPU]: one boot (on host CPU CPU, if given)
cell() {
	local log=$out/runs/$1.$2.$3.log s=$secs pin=()
	# perturb's first exchange comes at 60 s: two of them at least
	case $2 in perturb*) [ "$s" -ge 130 ] || s=130 ;; esac
	[ -n "${4:-}" ] && pin=(taskset -c "$4")
	echo "bench: repeat $3/$repeats, $2, $1 (${s} s)"
	"${pin[@]}" "$MMT_TOP/scripts/vm.sh" "$out/initrd.gz" bench \
		$((s * 3 + 300)) mmt.policy="$1" \
		mmt.workload="$2" mmt.secs="$s" mmt.node_mb="$node_mb" \
		mmt.lowers="$lowers" "${trace[@]}" quiet \
		</dev/null 2>&1 | tr -d '\r' >"$log" || true
	grep -E '^BENCH-(RESULT|ERROR)' "$log" || echo "bench: no result in $log"
}
# the smoke test's two cells side by side (one host core each); measured
# cells $jobs at a time, each pinned to a core of its own
[ -n "$quick" ] && jobs=2
[ "$jobs" -le "$(nproc)" ] || jobs=$(nproc)
declare -a on_cpu=()
# free_cpu: set cpu to a CPU below $jobs whose cell has ended (waits for
# one; not in a subshell, which could not wait for this shell's cells)
free_cpu() {
	for (( ; ; )); do
		for ((cpu = 0; cpu < jobs; cpu++)); do
			if [ -z "${on_cpu[cpu]:-}" ] ||
			   ! kill -0 "${on_cpu[cpu]}" 2>/dev/null; then
				return
			fi
		done
		wait -n || true
	done
}
for r in $(seq 1 "$repeats"); do
	for wl in $workloads; do
		for pol in $policies; do
			if [ "$jobs" -le 1 ]; then
				cell "$pol" "$wl" "$r"
				continue
			fi
			free_cpu
			cell "$pol" "$wl" "$r" "$cpu" &
			on_cpu[cpu]=$!
		done
	done
done
wait

# the command that made this, for the summary: the knobs set, then make
cmd=$(for v in BENCH_POLICIES BENCH_WORKLOADS BENCH_REPEATS BENCH_SECS \
	BENCH_JOBS BENCH_NODE_MB BENCH_LOWERS BENCH_TRACE BENCH_DOC; do
	[ -n "${!v:-}" ] && printf '%s="%s" ' "$v" "${!v}"
done; echo "make bench")
/usr/bin/python3 "$MMT_TOP/bench/report.py" "$out" --command "$cmd" \
	--conditions "mm-tiering $("$MMT_TOP/scripts/version.sh"), Debian $MMT_KVER, QEMU TCG (thread=single), node0 2 CPUs + $node_mb MiB / $(
	[ "$lowers" = 1 ] && echo "node1 CPU-less $node_mb MiB" ||
	echo "nodes 1-$lowers CPU-less, $node_mb MiB in all"), HMAT 80/250 ns, 72/26 GB/s; ${secs} s per run, $repeats repeat(s)"
if [ -n "${BENCH_DOC:-}" ] && [ -z "$quick" ]; then
	doc=$MMT_TOP/Documentation/bench.rst
	grep -q '^\.\. bench-summary: begin' "$doc" ||
		{ echo "bench: no bench-summary markers in $doc" >&2; exit 1; }
	awk -v f="$out/summary.rst" '
		/^\.\. bench-summary: begin/ { print; print ""
			while ((getline l < f) > 0) print l; print ""; skip = 1; next }
		/^\.\. bench-summary: end/ { skip = 0 }
		!skip' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
	cp "$out/share.png" "$MMT_TOP/Documentation/bench-share.png"
	echo "bench: Documentation/bench.rst and bench-share.png updated"
fi

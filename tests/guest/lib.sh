# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the guest scenario scripts (busybox sh).
P=/sys/module/mm_tiering/parameters

# plan N: this script reports N results; the host counts missing ones failed.
plan() { echo "MMT-PLAN $1"; }
pass() { n=$1; shift; echo "MMT-TEST PASS $n $*"; }
fail() { n=$1; shift; echo "MMT-TEST FAIL $n $*"; }
# skip NAME DETAIL: a result owed but not measured here (counted neither
# passed nor failed; DETAIL says why)
skip() { n=$1; shift; echo "MMT-TEST SKIP $n $*"; }
# check NAME CONDITION-STATUS DETAIL: pass when the previous command succeeded
check() { if [ "$2" -eq 0 ]; then pass "$1" "$3"; else fail "$1" "$3"; fi; }
info() { echo "MMT-INFO $*"; }
# allow ERE: kernel reports matching ERE are this script's to provoke and
# count; the host's scan of the console (make check's NAME_console_clean)
# passes them over.  Every other report on the console fails the boot.
allow() { echo "MMT-ALLOW $1"; }

# DAMON-only placement: DAMON_STAT off (it starts exclusively), no NUMA
# balancing (it would promote by itself), no proactive compaction and no THP
# (they migrate pages too, and pgmigrate_success would count them).
quiet_neighbours() {
	# 6.12 has no DAMON_STAT
	[ -e /sys/module/damon_stat ] &&
		echo N > /sys/module/damon_stat/parameters/enabled
	echo 0 > /proc/sys/kernel/numa_balancing
	echo 0 > /proc/sys/vm/compaction_proactiveness
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
}

# on_socket S: bind this (sub)shell, and so what it starts, to socket S's
# CPU (the sockets, nodes8 and shared topologies: one CPU per socket)
on_socket() { taskset -p -c "$1" "$(sh -c 'echo $PPID')" > /dev/null; }

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# node_bp NODE FIELD: FIELD of the node's meminfo in bp of its MemTotal
node_bp() {
	awk -v f="$2:" '$3 == "MemTotal:" { t = $4 } $3 == f { v = $4 }
		END { printf "%d\n", v * 10000 / t }' \
		"/sys/devices/system/node/node$1/meminfo"
}

# node_pcp_bp NODE: the pages on the CPUs' free lists of the node's zones
# (/proc/zoneinfo's "count:"), free but not in MemFree, in bp of MemTotal
node_pcp_bp() {
	awk -v n="Node $1," -v kb="$(node_mb "$1" MemTotal)" \
		'/^Node / { z = index($0, n) == 1 } z && $1 == "count:" { c += $2 }
		END { printf "%d\n", c * 4 * 10000 / (kb * 1024) }' /proc/zoneinfo
}

# node_mb NODE FIELD: FIELD of the node's meminfo in MiB
node_mb() {
	awk -v f="$2:" '$3 == f { print int($4 / 1024) }' \
		"/sys/devices/system/node/node$1/meminfo"
}

# param_node PARAM NID: the value for NID of a "nid:value ..." parameter
param_node() { tr ' ' '\n' < "$P/$1" | awk -F: -v n="$2" '$1 == n { print $2 }'; }

# status_kv PREFIX KEY: value of KEY= in the first status line that starts
# with PREFIX ("node=1 ", "pair=0 mode=bandwidth", "running=")
status_kv() {
	awk -v p="$1" -v k="$2" 'index($0, p) == 1 {
		for (i = 1; i <= NF; i++) { split($i, kv, "=")
			if (kv[1] == k) { print kv[2]; exit } } }' "$P/status"
}

# status_field NID FIELD: FIELD=value of NID's node line of status
status_field() { status_kv "node=$1 " "$2"; }

# cmdline_arg NAME: the value of mmt.NAME= on the kernel command line
cmdline_arg() { sed -n "s/.*mmt\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }

# checks: DAMON's monitoring work now, in region access checks per second:
# every node's regions, once per sampling interval (from status)
checks() {
	awk '/^node=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["sample_us"] > 0) c += v["nr_regions"] * 1000000 / v["sample_us"] }
		END { printf "%d\n", c }' $P/status
}

# kdamonds: pids of all kdamond threads, one a line
kdamonds() {
	for d in /proc/[0-9]*; do
		case "$(cat "$d/comm" 2>/dev/null)" in
		kdamond*) echo "${d#/proc/}" ;;
		esac
	done
}

wait_line() { # wait_line PATTERN FILE TIMEOUT_S
	i=0
	while ! grep -q "$1" "$2" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt $(($3 * 10)) ] && return 1; sleep 0.1
	done
}

# offline_blocks NID: the node's memory blocks that are offline (a pc-dimm
# plugged with memhp_default_state=offline)
offline_blocks() {
	for b in /sys/devices/system/node/node$1/memory[0-9]*; do
		[ "$(cat "$b/state")" = offline ] && basename "$b"
	done
}

# blocks_ranges NID: the node's online memory blocks as address ranges,
# contiguous ones merged, in the module's log format " [0x.., 0x..)"
blocks_ranges() {
	bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
	s='' e=''
	for id in $(for b in /sys/devices/system/node/node$1/memory[0-9]*; do
			[ "$(cat "$b/state")" = online ] && echo "${b##*memory}"
		done | sort -n); do
		if [ -n "$e" ] && [ $((id * bs)) -eq "$e" ]; then
			e=$(((id + 1) * bs))
			continue
		fi
		[ -n "$e" ] && printf ' [%#x, %#x)' "$s" "$e"
		s=$((id * bs)) e=$(((id + 1) * bs))
	done
	[ -n "$e" ] && printf ' [%#x, %#x)' "$s" "$e"
	echo
}

# node_span NID: [first, last) address of the node's populated zones, as
# /proc/zoneinfo gives them (start_pfn, spanned)
node_span() {
	awk -v n="Node $1," '$0 ~ /^Node/ { on = index($0, n) == 1 }
		on && $1 == "spanned" { sp = $2 }
		on && $1 == "start_pfn:" && sp > 0 { if (lo == "" || $2 < lo) lo = $2
			if ($2 + sp > hi) hi = $2 + sp }
		END { print lo, hi }' /proc/zoneinfo | {
		read -r lo hi
		printf '[%#x, %#x)\n' $((lo * 4096)) $((hi * 4096))
	}
}

# set_blocks online_movable|offline BLOCK...: write the state of each block,
# wait 3 s (the module acts 1 s after the last event), print how many are
# then in that state
set_blocks() {
	st=$1; shift
	for b in "$@"; do
		echo "$st" > "/sys/devices/system/memory/$b/state" || echo "$st $b failed" >&2
	done
	sleep 3
	for b in "$@"; do cat "/sys/devices/system/memory/$b/state"; done |
		grep -c "^${st%_movable}\$"
}

# hot_within LOG BOUND_S [OFF_MS [NODE]]: whether 90 % of tierload's hot set
# was on the upper node (NODE, 0 by default: named in the message) within
# BOUND_S s of the timed run's start, or of OFF_MS into it, and stayed: no
# later sample under 85 % (a hot set promoted and then let fall back fails;
# runs that reach 90 % hold 92 % or more after); prints when, and the least
hot_within() {
	awk -v b="$2" -v off="${3:-0}" -v nd="${4:-0}" '
		/tierload setup/ { split($3, a, "="); hot = a[2] }
		/tierload t=/ { split($2, t, "="); split($3, u, "=")
			if (done && (low == "" || u[2] < low)) { low = u[2]; lt = t[2] - off }
			if (t[2] >= off && !done && u[2] * 100 >= 90 * hot) { done = 1; at = t[2] - off } }
		END { if (low == "") low = hot
			held = sprintf("%d%% or more after (least %d%% at %d ms)", 85, low * 100 / hot, lt)
			if (done && at <= b * 1000 && low * 100 >= 85 * hot) {
				print "90% of", hot, "hot pages on node" nd, "after", at, "ms,", held; exit 0 }
			if (done && at <= b * 1000) {
				print "90% of", hot, "hot pages on node" nd, "after", at, "ms, then fell back: not", held; exit 1 }
			print "90% of the hot set not on node" nd, "within", b, "s (reached:", done ? at " ms" : "never", ")"; exit 1 }' "$1"
}

# zone_watch NODE FILE: in the background (stop it with kill), every 0.2 s
# until killed, append to FILE one line per populated zone of NODE: its
# name, free pages and min watermark, from /proc/zoneinfo
zone_watch() {
	while :; do
		awk -v n="Node $1," '/^Node/ { on = index($0, n) == 1; z = $4 }
			on && $1 == "pages" && $2 == "free" { f = $3 }
			on && $1 == "min" { m = $2 }
			on && $1 == "managed" && $2 > 0 { print z, f, m }' /proc/zoneinfo
		sleep 0.2
	done >> "$2"
}
# zone_low FILE: per zone of a zone_watch file, the least free pages seen
# above (or, negative, below) its min watermark, and the samples read
zone_low() {
	awk '{ d = $2 - $3; if (!($1 in m) || d < m[$1]) m[$1] = d; c[$1]++ }
		END { for (z in m) printf "%s %d pages above min (%d samples); ", z, m[z], c[z] }' "$1"
}

# dmesg_clean: no kernel report; the OOM killer's and an allocation
# failure's first line come before their Call Trace, and name the cause
SPLAT='WARNING|BUG|Oops|Call Trace|general protection|invoked oom-killer|page allocation failure|blocked for more than'
dmesg_clean() {
	! dmesg | grep -E "$SPLAT"
}

# splat_head: the first kernel report on one line, with the three lines
# before it (a report whose own first line matches none of dmesg_clean's
# words, an RCU stall's, shows only its "Call Trace:" otherwise)
splat_head() {
	dmesg | grep -m1 -B3 -E "$SPLAT" | tr -s '\n\t ' ' ' | cut -c1-400
}

# load_setup LOG TIERLOAD-ARGS...: start tierload in the background and wait
# until its sets are allocated, its timed run not yet begun (load_go LOG
# begins it).  The module is started in between: while the workload's first
# touch fills a node under MPOL_BIND, pages promoted into that node take the
# free memory it measured, and the kernel OOM-kills the workload (seen on
# 6.12 with the static recipe).
load_setup() {
	_log=$1
	shift
	rm -f "$_log.go"
	tierload "$@" -w "$_log.go" > "$_log" &
	wait_line 'tierload setup' "$_log" 120
}
load_go() { touch "$1.go"; }

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# PostgreSQL under mm_tiering, in the Debian guest (systemd, Debian's
# postgresql-17, a cluster made with data checksums and pgbench's tables at
# scale 10 when the image was built: scripts/debian-guest.sh).  One boot:
#   node0 filled by a cold filler process to 48 MiB free, then PostgreSQL
#   started and pgbench_accounts read into shared buffers (pg_prewarm): the
#   buffer pool and the page cache land on node1; then four pgbench runs,
#   TPC-B transactions with a Zipfian account (tests/guest/pgzipf.sql, 4
#   clients), PG_SECS (120 s x mmt.scale) the second, TPS_SECS (90 s x
#   mmt.scale) the others, whose TPS are compared:
#   control: without the module: the negative control (the hot buffers
#      stay on node1);
#   tiering: mm-tiering.service started: the buffers pgbench keeps using
#      move to node0;
#   steady: the module still running, its pages placed: what it costs
#      while it runs;
#   after: the service stopped (module unloaded): the TPS without the
#      module once more, so that the module's cost is measured between two
#      controls of the same boot;
#   then pgbench's own invariant (the sums of balances and of history's
#   deltas agree, exactly), pg_amcheck over every table and index, and
#   pg_checksums over the stopped cluster.
# Where a buffer's pages are: tests/guest/pgplace.py (pg_buffercache's
# usage counts, move_pages(2)).
. /mmt/lib.sh
scale=$(cmdline_arg scale)
PG_SECS=${PG_SECS:-$((120 * ${scale:-1}))}
TPS_SECS=${TPS_SECS:-$((90 * ${scale:-1}))}
FREE_MB=${FREE_MB:-48}
pgv=$(ls /usr/lib/postgresql | sort -n | tail -1)
PGBIN=/usr/lib/postgresql/$pgv/bin
sql() { runuser -u postgres -- psql -XAtq -c "$1"; }
postmaster() { head -1 /var/lib/postgresql/$pgv/main/postmaster.pid; }
# place: hot buffers (usage count >= 4) on node0, of all buffers in use
place() { /mmt/pgplace.py "$(postmaster)"; }
kv() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# node_mem: each node's shared memory (the buffer pool) and page cache, MiB
# (a process's numa_maps counts only the pages it mapped itself)
node_mem() {
	for n in 0 1; do
		awk -v n=$n '$3 == "Shmem:" { s = $4 } $3 == "FilePages:" { f = $4 }
			END { printf "node%d Shmem %d FilePages %d MiB; ", n, s / 1024, f / 1024 }' \
			/sys/devices/system/node/node$n/meminfo
	done
}

# prepare: the machine and the server as the runs start
prepare() {
	[ -e /sys/module/damon_stat ] &&
		echo N > /sys/module/damon_stat/parameters/enabled
	echo 0 > /proc/sys/kernel/numa_balancing
	free=$(node_mb 0 MemFree)
	python3 -c '
import mmap, sys, time
n = int(sys.argv[1]) << 20
m = mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
for i in range(0, n, 4096):
    m[i] = 1
print("filler ready", flush=True)
time.sleep(1e6)' $((free - FREE_MB)) > /tmp/filler.log &
	filler=$!
	wait_line 'filler ready' /tmp/filler.log 300 || return 1
	# the server's memory first-touched on node1, the CXL-like node, in
	# both boots: NUMA policy "preferred" (node0 still serves what node1
	# cannot, and migration ignores it).  Without it, what the server
	# touched first took node0's free 48 MiB: those are the hottest buffers
	# (catalogs, branches, tellers), 45-54 % of the hot pages on node0 in
	# one control run, 3-19 % in others.
	mkdir -p /run/systemd/system/postgresql@.service.d
	printf '[Service]\nNUMAPolicy=preferred\nNUMAMask=1\n' \
		> /run/systemd/system/postgresql@.service.d/mmt-numa.conf
	systemctl daemon-reload
	systemctl start postgresql@$pgv-main || return 1
	sql "SELECT pg_prewarm('pgbench_accounts')" > /dev/null || return 1
	info "filler $((free - FREE_MB)) MiB on node0; prewarmed; $(place); $(node_mem)"
}

# bench NAME SECS: pgbench for SECS; where the buffers are 10 s in and 15 s
# before the end (/tmp/NAME.start, /tmp/NAME.end), its output /tmp/NAME.log
# vmdelta FILE: what reclaim, faults and migration did since FILE's
# /proc/vmstat (a slow run says whether the page cache was reclaimed)
vmdelta() {
	awk 'NR == FNR { a[$1] = $2; next }
	     $1 ~ /^(pgmigrate_success|pgpromote_success|pgdemote_(kswapd|direct)|pgscan_(kswapd|direct)|pgsteal_(kswapd|direct)|workingset_refault_file|pgmajfault|allocstall_(dma32|normal|movable)|compact_stall)$/ {
		printf "%s %d ", $1, $2 - a[$1] }' "$1" /proc/vmstat
}
# kd_ms: the kdamonds' time on a CPU so far, ms (schedstat; 0 without any)
kd_ms() {
	for k in $(pgrep -x 'kdamond\..*'); do cat /proc/$k/schedstat; done |
		awk '{ s += $1 } END { printf "%d", s / 1e6 }'
}
# busy_ms: the guest's CPUs' time not idle so far, ms (/proc/stat, in
# USER_HZ ticks: user nice system idle iowait irq softirq steal)
busy_ms() {
	awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" {
		printf "%d", ($2 + $3 + $4 + $7 + $8 + $9) * 1000 / hz }' /proc/stat
}
bench() {
	cp /proc/vmstat /tmp/$1.vmstat
	kd0=$(kd_ms) busy0=$(busy_ms)
	runuser -u postgres -- $PGBIN/pgbench -n -c 4 -j 2 -T "$2" -P 30 \
		-f /mmt/pgzipf.sql > /tmp/$1.log 2>&1 &
	pgb=$!
	sleep 10
	place > /tmp/$1.start
	sleep $(($2 - 25))
	place > /tmp/$1.end
	info "$1, $(($2 - 15)) s in: $(node_mem)"
	info "$1, /proc/vmstat since the start: $(vmdelta /tmp/$1.vmstat)"
	wait $pgb
	rc=$?
	echo "$(($(kd_ms) - kd0)) $(($(busy_ms) - busy0))" > /tmp/$1.cpu
	info "$1: kdamonds on a CPU, guest CPUs busy: $(cat /tmp/$1.cpu) ms"
	grep -E '^(progress|tps|number of (transactions|failed))' /tmp/$1.log |
		sed "s/^/MMT-INFO $1: /"
	return $rc
}
tps() { sed -n 's/^tps = \([0-9]*\).*without initial.*/\1/p' /tmp/$1.log; }
# share FILE: hot_up/hot in percent, and the figures
share() {
	l=$(cat "$1")
	h=$(kv hot "$l"); u=$(kv hot_up "$l")
	echo "$((u * 100 / (h > 0 ? h : 1)))% of $h hot pages on node0 ($(kv buffers_up "$l") of $(kv buffers "$l") buffer pages)"
}
hot_pct() { l=$(cat "$1"); h=$(kv hot "$l"); echo $(( $(kv hot_up "$l") * 100 / (h > 0 ? h : 1) )); }

# at least MIN_HOT hot pages in a sample, or its share measured nothing
MIN_HOT=${MIN_HOT:-1000}
hot_n() { kv hot "$(cat "$1")"; }
# ran NAME: pgbench exited 0 with transactions and none failed
ran() {
	[ "$1" -eq 0 ] && [ "$(tps "$2")" -gt 0 ] &&
		grep -q '^number of failed transactions: 0 ' /tmp/"$2".log
}
txns() { grep -m1 'number of transactions actually' /tmp/"$1".log; }

plan 13
prepare
check pg_prepared $? "PostgreSQL $pgv, checksums $(sql 'SHOW data_checksums'), $(sql 'SELECT count(*) FROM pgbench_branches') branches; $(place)"
bench control "$TPS_SECS"
ran $? control
check pg_control_run $? "without mm_tiering: tps $(tps control), $(txns control)"
# the negative control: the hot buffers stay where they were, on node1
# (the server's NUMA policy: measured 0 %), and there are hot buffers to
# count (measured 1862 hot pages)
[ "$(hot_n /tmp/control.end)" -ge "$MIN_HOT" ] && [ "$(hot_pct /tmp/control.end)" -lt 20 ]
check pg_control_stays $? "without mm_tiering, after $TPS_SECS s: $(share /tmp/control.end) (10 s in: $(share /tmp/control.start)); bar: under 20 % of at least $MIN_HOT"

systemctl start mm-tiering.service
rc=$?
[ $rc -eq 0 ] && [ "$(cat $P/enabled)" = Y ]
check pg_service_started $? "rc=$rc: enabled=$(cat $P/enabled 2>/dev/null) kdamond_pids=$(cat $P/kdamond_pids 2>/dev/null)"
bench tiering "$PG_SECS"
ran $? tiering
check pg_tiering_run $? "with mm_tiering: tps $(tps tiering), $(txns tiering)"
# at least 45 % of the hot buffers' pages on node0, 30 points above the
# share without the module (measured 46-94 %: what is not promoted is not
# hot enough for DAMON's sampling when node0 reaches its free goal)
pct=$(hot_pct /tmp/tiering.end)
[ "$(hot_n /tmp/tiering.end)" -ge "$MIN_HOT" ] && [ "$pct" -ge 45 ] &&
	[ "$pct" -ge $(($(hot_pct /tmp/control.end) + 30)) ]
check pg_hot_buffers_promoted $? "with mm_tiering, after $PG_SECS s: $(share /tmp/tiering.end) (10 s in: $(share /tmp/tiering.start)); bar: 45 %, and 30 points above the control's; promoted $(param_node bytes_promoted 1) demoted $(param_node bytes_demoted 0) bytes"
info "status: $(grep -E '^(node|pair)=' $P/status | tr '\n' ' ')"
bench steady "$TPS_SECS"
ran $? steady
check pg_steady_run $? "with mm_tiering, pages placed: tps $(tps steady), $(txns steady); promoted $(param_node bytes_promoted 1) demoted $(param_node bytes_demoted 0) bytes since the start"
systemctl stop mm-tiering.service
bench after "$TPS_SECS"
ran $? after
# under TCG both nodes are equally fast: TPS shows the module's own cost,
# not the placement's gain.  The cost itself is the kdamonds' CPU time
# (monitoring, the module's controller and the migrations all run there):
# at most 10 % of the CPU time the guest was busy during both runs with
# the module, placing and placed, a share the host's load moves far less
# than TPS (a vCPU the host does not run stops the kdamonds and the
# guest's clock alike).  Most of it is spent placing (the placing run
# alone: 4 % on an idle host, 5-10 % beside another guest); the placed
# run's kdamonds idle at 30-50 ms per s.
# TPS is moved by the host's load (without the module: 24 to 50 TPS in the
# 30 s intervals of one run beside another guest), so its bar is the loss
# no such noise explains: at least 1/2 of the mean of the runs before and
# after it in the same boot.  It is the steady run's TPS: the run that
# places the pages pays for moving them once (every buffer starts on node1,
# 90-200 MB move in its first 30-60 s, and a slower host stretches that
# part), which pg_module_cpu bounds; what a service pays for as long as it
# runs the module is the steady run's loss (measured with a 600 s run
# each: 75.9 TPS without, 70.2 with, placement included).
set -- $(cat /tmp/tiering.cpu /tmp/steady.cpu 2>/dev/null)
pkd=${1:-0} pbusy=${2:-0}
kd=$((pkd + ${3:-0})) busy=$((pbusy + ${4:-0}))
[ "$busy" -gt 0 ] && [ "$kd" -gt 0 ] && [ $((kd * 10)) -le "$busy" ]
check pg_module_cpu $? "kdamonds on a CPU $kd ms of $busy ms the guest's CPUs were busy during the runs with mm_tiering, placing and placed (bar: at most 10 %, more than 0); placing alone: $pkd of $pbusy ms"
t0=$(tps control) t1=$(tps steady) t2=$(tps after)
t0=${t0:-0} t1=${t1:-0} t2=${t2:-0}
[ "$t2" -gt 0 ] && [ $((t1 * 4)) -ge $((t0 + t2)) ]
check pg_tps_kept $? "tps without, with (pages placed), without again: $t0 $t1 $t2 (bar: with >= 1/2 of the mean without; while placing: $(tps tiering)); after: $(txns after)"

# pgbench's invariant: each transaction adds one delta to an account,
# a teller and a branch and logs it in history
sums=$(sql "SELECT (SELECT sum(abalance) FROM pgbench_accounts) || ' ' ||
	(SELECT sum(tbalance) FROM pgbench_tellers) || ' ' ||
	(SELECT sum(bbalance) FROM pgbench_branches) || ' ' ||
	(SELECT sum(delta) FROM pgbench_history) || ' ' ||
	(SELECT count(*) FROM pgbench_history)")
echo "$sums" | awk '{ exit !(NF == 5 && $1 == $2 && $2 == $3 && $3 == $4 && $5 > 0) }'
check pg_balances_consistent $? "sum(abalance) sum(tbalance) sum(bbalance) sum(delta) count(history): $sums"
kill "$filler"
runuser -u postgres -- $PGBIN/pg_amcheck --all --install-missing --heapallindexed \
	> /tmp/amcheck.log 2>&1
rc=$?
check pg_amcheck_clean $? "pg_amcheck --all --heapallindexed: rc=$rc $(head -c 300 /tmp/amcheck.log)"
[ "$(sql 'SHOW data_checksums')" = on ]
ck=$?
systemctl stop postgresql@$pgv-main
$PGBIN/pg_checksums --check -D /var/lib/postgresql/$pgv/main > /tmp/ck.log 2>&1
rc=$?
[ $ck -eq 0 ] && [ $rc -eq 0 ] && grep -q '^Bad checksums: *0$' /tmp/ck.log
check pg_checksums_verified $? "data_checksums on; pg_checksums --check rc=$rc: $(grep -E 'scanned|Bad' /tmp/ck.log | tr '\n' ' ')"
dmesg_clean > /dev/null
check pg_dmesg_clean $? "$(splat_head)"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench, one cell: policy x workload, given on the kernel command line
# (mmt.policy= mmt.workload= mmt.secs=).  Prints the workload's samples and
# BENCH lines; scripts/bench.sh turns them into CSV, a table and a plot.
. /mmt/lib.sh
POLICY=$(cmdline_arg policy)
WORKLOAD=$(cmdline_arg workload)
SECS=$(cmdline_arg secs)
SECS=${SECS:-60}
# the nodes' size (scripts/bench.sh BENCH_NODE_MB): the workloads' sizes
# below are for 1024 MiB and scale with it
NODE_MB=$(cmdline_arg node_mb)
NODE_MB=${NODE_MB:-1024}
mb() { echo $(($1 * NODE_MB / 1024)); }
# the CPU-less nodes (scripts/bench.sh BENCH_LOWERS): the hot buffer is
# interleaved over nodes 1..LOWERS
LOWERS=$(cmdline_arg lowers)
LOWERS=${LOWERS:-1}
# the seed's recipe is two kdamonds, node0 and node1
if [ "$POLICY" = recipe ] && [ "$LOWERS" != 1 ]; then
	echo "BENCH-ERROR recipe: one lower node only"
	exit 1
fi
# mmt.trace=1 (exploration, not parsed): mm_tiering's pair and node lines
# and the schemes' counters once a second, stamped with the milliseconds
# since the workload's start
TRACE=$(cmdline_arg trace)

# DAMON sysfs: write FILE VALUE under the admin tree
D=/sys/kernel/mm/damon/admin
w() { echo "$2" > "$D/$1" || echo "BENCH-ERROR write $1=$2"; }

# node_range NID: "start end" physical bytes of the node's memory blocks
node_range() {
	bs=$(printf '%d' "0x$(cat /sys/devices/system/memory/block_size_bytes)")
	ls -d /sys/devices/system/node/node$1/memory[0-9]* | sed 's/.*memory//' |
		sort -n | awk -v bs="$bs" 'NR == 1 { lo = $1 } { hi = $1 }
			END { printf "%.0f %.0f\n", lo * bs, (hi + 1) * bs }'
}

# The seed's damo command (../shared/seeds/000_*), written through DAMON
# sysfs as damo would: kdamond 0 demotes node0's cold pages to node1 aiming
# 0.5 % free on node0, kdamond 1 promotes node1's hot pages to node0 aiming
# 99.7 % used on node0; intervals goal 4 % 3 5ms 10s; 200 MB per 1 s;
# young filters; access-pattern maxima written explicitly (sysfs ranges
# default to 0..0, which would match nothing).
damon_recipe() {
	w kdamonds/nr_kdamonds 2
	for k in 0 1; do
		c=kdamonds/$k/contexts
		w $c/nr_contexts 1
		c=$c/0
		w $c/operations paddr
		w $c/monitoring_attrs/intervals/sample_us 5000
		w $c/monitoring_attrs/intervals/aggr_us 100000
		w $c/monitoring_attrs/intervals/update_us 1000000
		w $c/monitoring_attrs/intervals/intervals_goal/access_bp 400
		w $c/monitoring_attrs/intervals/intervals_goal/aggrs 3
		w $c/monitoring_attrs/intervals/intervals_goal/min_sample_us 5000
		w $c/monitoring_attrs/intervals/intervals_goal/max_sample_us 10000000
		w $c/monitoring_attrs/nr_regions/min 10
		w $c/monitoring_attrs/nr_regions/max 1000
		w $c/targets/nr_targets 1
		w $c/targets/0/regions/nr_regions 1
		set -- $(node_range $k)
		w $c/targets/0/regions/0/start "$1"
		w $c/targets/0/regions/0/end "$2"
		w $c/schemes/nr_schemes 1
		s=$c/schemes/0
		w $s/access_pattern/sz/min 4096
		w $s/access_pattern/sz/max 18446744073709551615
		w $s/access_pattern/age/min 0
		w $s/access_pattern/age/max 4294967295
		w $s/apply_interval_us 1000000
		w $s/quotas/bytes 209715200
		w $s/quotas/reset_interval_ms 1000
		w $s/quotas/goals/nr_goals 1
		w $s/quotas/goals/0/nid 0
		w $s/filters/nr_filters 1
		w $s/filters/0/type young
		w $s/filters/0/matching Y
		if [ $k = 0 ]; then
			w $s/action migrate_cold
			w $s/target_nid 1
			w $s/access_pattern/nr_accesses/min 0
			w $s/access_pattern/nr_accesses/max 0
			w $s/quotas/goals/0/target_metric node_mem_free_bp
			w $s/quotas/goals/0/target_value 50
			w $s/filters/0/allow N
		else
			w $s/action migrate_hot
			w $s/target_nid 0
			w $s/access_pattern/nr_accesses/min 1
			w $s/access_pattern/nr_accesses/max 4294967295
			w $s/quotas/goals/0/target_metric node_mem_used_bp
			w $s/quotas/goals/0/target_value 9970
			w $s/filters/0/allow Y
		fi
	done
	w kdamonds/0/state on
	w kdamonds/1/state on
}

case $POLICY in
debian)	;;	# as shipped: DAMON_STAT on, numa_balancing=1
*)	# 6.12 has no DAMON_STAT
	[ -e /sys/module/damon_stat ] &&
		echo N > /sys/module/damon_stat/parameters/enabled
	echo 0 > /proc/sys/kernel/numa_balancing ;;
esac
echo 0 > /proc/sys/vm/compaction_proactiveness

# WORKLOAD_thp: the same workload on transparent huge pages (THP
# "always", buffers advised MADV_HUGEPAGE and 2 MiB aligned: tierload -L)
thp=
case $WORKLOAD in
*_thp)	thp=-L
	echo always > /sys/kernel/mm/transparent_hugepage/enabled ;;
esac
F=$(mb 100)
case ${WORKLOAD%_thp} in
skew)	load="-H $(mb 120) -F $F" ;;
phase)	load="-H $(mb 200) -K 2 -P $((SECS / 2)) -F $F" ;;
zipf)	load="-H $(mb 200) -F $F -Z 100" ;;
zipf80)	load="-H $(mb 200) -F $F -Z 80" ;;
zipf99)	load="-H $(mb 200) -F $F -Z 99" ;;
zipf120) load="-H $(mb 200) -F $F -Z 120" ;;
tail)	load="-H $(mb 200) -K 2 -P $((SECS / 2)) -F $F -W 64" ;;
# skew's static hot set (about 13 % of the RSS), and once a minute 30 % of
# it forced down to node1 with as many cold pages forced up: the seed's
# modified Taobench (up to 10 GiB each way per minute, of a hot set of
# about 35 GiB) at this scale
perturb) load="-H $(mb 120) -F $F -X 30 -Y 60" ;;
*)	echo "BENCH-ERROR workload $WORKLOAD"; exit 1 ;;
esac
# nodes above 1 GiB: the samples read every (node_mb / 1024)-th page, about
# as many pages as with 1 GiB nodes (tierload -S; Zipf weighs every page)
stride=
case ${WORKLOAD%_thp} in
zipf*)	;;
*)	[ "$NODE_MB" -le 1024 ] || stride="-S $((NODE_MB / 1024))" ;;
esac
tierload -l "1-$LOWERS" $load $thp $stride -t "$SECS" -w /tmp/go > /tmp/load.log &
load_pid=$!
wait_line 'tierload oracle' /tmp/load.log 300 || echo "BENCH-ERROR setup"
mig0=$(vmstat pgmigrate_success)
fail0=$(vmstat pgmigrate_fail)

case $POLICY in
none|debian) ;;
numab2)	echo 2 > /proc/sys/kernel/numa_balancing
	echo 1 > /sys/kernel/mm/numa/demotion_enabled
	echo "BENCH-INFO memory tiers: $(for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
		echo "${t##*/}=$(cat $t/nodelist)"; done | tr '\n' ' ')" ;;
recipe)	damon_recipe ;;
mmt)	modprobe mm_tiering enabled=Y ;;
mmt_static) modprobe mm_tiering enabled=Y controller=N ;;
*)	echo "BENCH-ERROR policy $POLICY" ;;
esac
echo "BENCH-INFO policy=$POLICY workload=$WORKLOAD secs=$SECS damon_stat=$(cat /sys/module/damon_stat/parameters/enabled 2>/dev/null || echo none) numa_balancing=$(cat /proc/sys/kernel/numa_balancing) kdamonds=$(kdamonds | wc -l)"
# DAMON's monitoring work (lib.sh's checks), averaged over readings every
# 5 s: mm_tiering's policies only
touch /tmp/go
if [ -n "$TRACE" ] && [ -e $P/status ]; then
	t0=$(awk '{ printf "%d", $1 * 1000 }' /proc/uptime)
	while kill -0 $load_pid 2>/dev/null; do
		sleep 1
		t=$(awk -v t0="$t0" '{ printf "%d", $1 * 1000 - t0 }' /proc/uptime)
		grep '^pair' $P/status | sed "s/^/BENCH-TRACE t=$t /"
		grep '^node=[0-9]* tier' $P/status |
			sed "s/^/BENCH-TRACE-NODE t=$t /"
		echo "BENCH-TRACE-OUT t=$t tried=$(cat $P/bytes_tried) nr_tried=$(cat $P/nr_tried_regions) qt_exceeds=$(cat $P/nr_quota_exceeds)"
	done &
fi
csum=0 cn=0 i=5
while [ $i -lt "$SECS" ]; do
	sleep 5
	if [ -e $P/status ]; then
		csum=$((csum + $(checks))); cn=$((cn + 1))
	fi
	i=$((i + 5))
done
sleep $((SECS - 1 - i + 5))
# the controller's own time, as mm_tiering measures it: its steps in the
# kworker (cost_ns) and its per-sample work in the kdamonds (hook_ns)
ctl=$(awk '/^pair=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	c += v["cost_ns"]; h += v["hook_ns"]; s += v["steps"] }
	END { printf "ctl_ns=%d ctl_hook_ns=%d ctl_steps=%d\n", c, h, s }' \
	$P/status 2>/dev/null)
# utime + stime of every kdamond, in USER_HZ (100 on x86) ticks, and
# their time on a CPU as the scheduler clocks it (schedstat, in ns; TCG's
# tick accounting charges a waking kdamond for the other vCPU's slice)
kd_ticks=0 kd_ns=0
for p in $(kdamonds); do
	kd_ticks=$((kd_ticks + $(awk '{ print $14 + $15 }' /proc/$p/stat)))
	kd_ns=$((kd_ns + $(awk '{ print $1 }' /proc/$p/schedstat 2>/dev/null || echo 0)))
done
mig1=$(vmstat pgmigrate_success)
# what the module counts as moved (its schemes' applied bytes, every
# node), beside the kernel's count of pages migrated in the same window
if [ -e $P/bytes_promoted ]; then
	echo "BENCH-INFO moved: module promoted=$(tr ' ' '\n' <$P/bytes_promoted | awk -F: '{ s += $2 } END { print s + 0 }') demoted=$(tr ' ' '\n' <$P/bytes_demoted | awk -F: '{ s += $2 } END { print s + 0 }') kernel pgmigrate_success=$(( (mig1 - mig0) * 4096 )) pgmigrate_fail=$(( $(vmstat pgmigrate_fail) - fail0 ))"
fi
wait $load_pid
cat /tmp/load.log
echo "BENCH-RESULT policy=$POLICY workload=$WORKLOAD migrated_bytes=$(( (mig1 - mig0) * 4096 )) kdamond_cpu_ms=$((kd_ticks * 10)) kdamond_run_ns=$kd_ns checks_per_s=$(( cn > 0 ? csum / (cn > 0 ? cn : 1) : 0 )) ${ctl:-ctl_ns=0 ctl_hook_ns=0 ctl_steps=0} thp_enabled=$(cat /sys/kernel/mm/transparent_hugepage/enabled | sed 's/.*\[\(.*\)\].*/\1/') verify=$(grep -o 'bad_pages=[0-9]*' /tmp/load.log)"

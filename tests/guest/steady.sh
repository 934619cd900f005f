#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Static workload: a fixed hot set of 120 MiB (about 13 % of the
# RSS) on node1, node0 filled by a cold set to 100 MiB free.  Once placement
# has converged, the module's migration must stay under 1 % of the RSS per
# minute, and
# the controller backs off (cuts migration and DAMON's sampling); the static
# recipe runs the same window as the comparison of monitoring cost.  Then,
# with the workload still running, an input changed through commit_inputs
# takes effect without a restart.
. /mmt/lib.sh
CONVERGE=${CONVERGE:-60}
WINDOW=${WINDOW:-60}
plan 7
quiet_neighbours

# cpu_ns: the kdamonds' time on a CPU, ns, as the scheduler clocks it
# (/proc/PID/schedstat; utime + stime would not do: under TCG the tick
# accounting charges a waking kdamond for the other vCPU's time slice)
cpu_ns() { t=0; for k in $(kdamonds); do t=$((t + $(awk '{ print $1 }' /proc/$k/schedstat))); done; echo $t; }
# moved: bytes the module migrated since it was loaded, every node's
# promotions and demotions.  The bar counts these, not pgmigrate_success:
# that also counts compaction and khugepaged, which moved 0-39 MB in the
# window with the module backed off and moving nothing
moved() { cat $P/bytes_promoted $P/bytes_demoted | tr ' ' '\n' | awk -F: '{ s += $2 } END { printf "%d\n", s }'; }
# kmig: the kernel's own migration counters, for the report
kmig() { awk '$1 ~ /^(pgmigrate_success|compact_migrate_scanned|compact_stall|numa_pages_migrated|thp_collapse_alloc)$/ { printf "%s %s ", $1, $2 }' /proc/vmstat; }

# window MODE EXTRA_S: converge, then measure WINDOW seconds; leaves
# /tmp/MODE.mig (bytes the module migrated in the window), /tmp/MODE.pre
# (before it), /tmp/MODE.kmig (the kernel's counters around the window),
# /tmp/MODE.log, and the
# monitoring work per 5 s reading: region checks/s and the kdamonds' CPU
# in us/s, while the controller is active (converging: .active, .acpu) and
# backed off (in the window: .boff, .bcpu; .bn readings), the window's
# whole (.checks, .cpu)
window() {
	load_setup "/tmp/$1.log" -H 120 -F 100 -t $((CONVERGE + WINDOW + $2))
	modprobe mm_tiering enabled=Y controller="$1"
	load_go "/tmp/$1.log"
	i=0; asum=0; an=0; acpu=0
	while [ $i -lt "$CONVERGE" ]; do
		k0=$(cpu_ns)
		sleep 5; i=$((i + 5))
		k=$(( ($(cpu_ns) - k0) / 5000 ))
		info "controller=$1 t=$i: checks/s $(checks) kdamonds ${k} us/s $(grep '^pair=0' $P/status | cut -c1-150)"
		# monitoring work while the controller is active (not backed off)
		if grep -q '^pair=0 .* backoff=0 ' $P/status; then
			asum=$((asum + $(checks))); acpu=$((acpu + k)); an=$((an + 1))
		fi
	done
	# (busybox sh evaluates both arms of ?:, so no division by zero there)
	if [ $an -gt 0 ]; then echo $((asum / an)); else echo 0; fi > "/tmp/$1.active"
	if [ $an -gt 0 ]; then echo $((acpu / an)); else echo 0; fi > "/tmp/$1.acpu"
	m0=$(moved); w0=$(cpu_ns); echo "$m0" > "/tmp/$1.pre"
	echo "before: $(kmig)" > "/tmp/$1.kmig"
	sum=0; i=0; bsum=0; bn=0; bcpu=0
	while [ $i -lt $((WINDOW / 5)) ]; do
		k0=$(cpu_ns)
		sleep 5; i=$((i + 1))
		k=$(( ($(cpu_ns) - k0) / 5000 ))
		c=$(checks)
		sum=$((sum + c))
		# monitoring work while backed off
		if grep -q '^pair=0 .* backoff=1 ' $P/status; then
			bsum=$((bsum + c)); bcpu=$((bcpu + k)); bn=$((bn + 1))
		fi
	done
	echo $(($(moved) - m0)) > "/tmp/$1.mig"
	echo "after: $(kmig)" >> "/tmp/$1.kmig"
	echo $(( ($(cpu_ns) - w0) / (i * 5000) )) > "/tmp/$1.cpu"
	echo $((sum / i)) > "/tmp/$1.checks"
	if [ $bn -gt 0 ]; then echo $((bsum / bn)); else echo 0; fi > "/tmp/$1.boff"
	if [ $bn -gt 0 ]; then echo $((bcpu / bn)); else echo 0; fi > "/tmp/$1.bcpu"
	echo $bn > "/tmp/$1.bn"
}

window N 0
wait
rmmod mm_tiering
window Y 60
pids=$(cat $P/kdamond_pids)
info "after the window: $(grep '^pair' $P/status)"
# backed off at the window's end, or back within 20 s: a wake (demand from
# a region of the lower node seen accessed once, which counts the region's
# bytes) that finds nothing to move backs off again after idle periods
# (10 of 1 s); the readings in the window say how long it stayed backed off
i=0
while ! grep -q '^pair=0 .* backoff=1 ' $P/status && [ $i -lt 20 ]; do
	sleep 1; i=$((i + 1))
done
grep -q '^pair=0 .* backoff=1 ' $P/status
check steady_backoff $? "backed off in $(cat /tmp/Y.bn) of $((WINDOW / 5)) readings of the window, $i s after it: $(grep '^pair' $P/status | sed 's/.*\(level=\)/\1/')"

# a restart of the loop (every commit restarts it) after minutes of running:
# its first period must count that period's traffic, not everything moved
# since enable (which would read as ping-pong).  Converged and backed off,
# a commit of the same inputs; then the first controller_step's moved bytes
# must be under 16 MiB (before the fix: all bytes since enable, > 100 MiB).
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
since=$(( $(param_node bytes_promoted 1) + $(param_node bytes_demoted 0) ))
echo > $T/trace
echo 1 > $T/events/mm_tiering/controller_step/enable
echo Y > $P/commit_inputs
sleep 4
echo 0 > $T/events/mm_tiering/controller_step/enable
first=$(grep -m1 controller_step $T/trace | sed 's/.*controller_step: //')
mu=$(echo "$first" | sed -n 's/.*moved_up=\([0-9]*\).*/\1/p')
md=$(echo "$first" | sed -n 's/.*moved_down=\([0-9]*\).*/\1/p')
lv=$(echo "$first" | sed -n 's/.*level=\([0-9]*\).*/\1/p')
[ -n "$mu" ] && [ $((mu + md)) -lt $((16 << 20)) ] && [ "$lv" = 0 ]
check restart_counts_one_period $? "first step after a commit: moved_up=$mu moved_down=$md level=$lv (moved since enable: $since bytes)"

# online: ask 25 % free on node0; the same kdamonds make the room
echo 2500 > $P/demote_target_free_bp && echo Y > $P/commit_inputs
rc=$?
i=0
while [ "$(node_bp 0 MemFree)" -lt 2000 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
free_bp=$(node_bp 0 MemFree)
[ $rc -eq 0 ] && [ "$free_bp" -ge 2000 ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] &&
	head -1 $P/status | grep -q 'free_bp=2500 '
check online_commit_applies $? "commit rc=$rc; node0 MemFree $free_bp bp after $i s; kdamonds $pids -> $(cat $P/kdamond_pids); $(head -1 $P/status)"
wait
rss=$(awk '/tierload setup/ { split($3, h, "="); split($4, c, "="); print (h[2] + c[2]) * 4096 }' /tmp/Y.log)
mig=$(cat /tmp/Y.mig)
info "static recipe, same window: migrated $(cat /tmp/N.mig) bytes ($(cat /tmp/N.pre) before it), kdamonds $(cat /tmp/N.cpu) us of CPU per s"
info "controller's window, the kernel's counters: $(tr '\n' ' ' < /tmp/Y.kmig)"
# under 1 % of the RSS per minute, after convergence; and the counters
# that say so are live: placing the hot set moved at least 100 MiB before
# the window (the hot set alone is 120 MiB)
[ -n "$rss" ] && [ "$(cat /tmp/Y.pre)" -ge $((100 << 20)) ] &&
	[ $((mig * 60 * 100)) -lt $((rss * WINDOW)) ]
check steady_under_1pct $? "controller: migrated $mig bytes in $WINDOW s after ${CONVERGE} s ($(cat /tmp/Y.pre) before), RSS $rss bytes (1 %/min: $((rss * WINDOW / 6000)))"
# backed off, DAMON does at most half the monitoring work it did while the
# controller was active (the sampling floor goes from 5 to 500 ms), counted
# as region checks and as the kdamonds' own CPU time; the static recipe's
# figures, which DAMON's own interval tuning makes vary from run to run,
# are reported beside them
[ "$(cat /tmp/Y.active)" -gt 0 ] && [ "$(cat /tmp/Y.bn)" -ge 6 ] &&
	[ $(($(cat /tmp/Y.boff) * 2)) -le "$(cat /tmp/Y.active)" ] &&
	[ "$(cat /tmp/Y.acpu)" -gt 0 ] &&
	[ $(($(cat /tmp/Y.bcpu) * 2)) -le "$(cat /tmp/Y.acpu)" ]
check steady_backoff_cuts_monitoring $? "region checks/s: controller active $(cat /tmp/Y.active), backed off $(cat /tmp/Y.boff) ($(cat /tmp/Y.bn) of $((WINDOW / 5)) readings backed off), whole window $(cat /tmp/Y.checks), static recipe $(cat /tmp/N.checks); kdamonds' CPU us/s: active $(cat /tmp/Y.acpu), backed off $(cat /tmp/Y.bcpu), whole window $(cat /tmp/Y.cpu), static recipe $(cat /tmp/N.cpu)"
grep -q 'bad_pages=0 ' /tmp/Y.log && grep -q 'bad_pages=0 ' /tmp/N.log
check steady_data_intact $? "$(grep -h verify /tmp/Y.log /tmp/N.log | tr '\n' ' ')"
rmmod mm_tiering
dmesg_clean > /dev/null
check steady_dmesg_clean $? "$(splat_head)"

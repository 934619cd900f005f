#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenarios 1-5 of the walking skeleton: promotion, demotion to the free goal,
# data integrity, counters against move_pages(2) and /proc/vmstat, clean stop.
# The workload stores into every hot page it reads while the pages move
# (tierload -G), and at the end every page must hold its last store.
# The hot set (300 MiB, on node1) is larger than node0's free memory (the
# cold set leaves 100 MiB free), so promotion completes only if demotion
# makes room.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
FREE_MB=${FREE_MB:-100}
RUN_S=${RUN_S:-120}
BOUND_S=${BOUND_S:-90}
plan 15
quiet_neighbours

mig0=$(vmstat pgmigrate_success)
tierload -H "$HOT_MB" -F "$FREE_MB" -t "$RUN_S" -G -w /tmp/go > /tmp/load.log &
load=$!
wait_line 'tierload setup' /tmp/load.log 120 || fail setup "workload did not start"
cat /tmp/load.log
modprobe mm_tiering enabled=Y
check modprobe_enable $? "modprobe mm_tiering enabled=Y -> $(cat $P/enabled)"
touch /tmp/go
# node0's per-CPU free lists, once a second, for the free goal (2. below)
(while :; do node_pcp_bp 0; sleep 1; done) > /tmp/pcp & pcpw=$!
cat $P/status
# the topology: node0 upper, node1 lower, tiers read from HMAT
[ "$(status_field 0 tier)" = upper ] && [ "$(status_field 0 target)" = 1 ] &&
	[ "$(status_field 1 tier)" = lower ] && [ "$(status_field 1 target)" = 0 ] &&
	dmesg | grep -q 'mm_tiering: tiers from memory tiering abstract distances'
check topology_detected $? "$(dmesg | grep -o 'tiers from .*' | tail -1); node0 $(status_field 0 tier) -> $(status_field 0 target), node1 $(status_field 1 tier) -> $(status_field 1 target)"
sleep $((RUN_S - 3))
# while the workload still runs, converged: node0's free memory and its
# goal, and the counters read between two reads of /proc/vmstat
kill $pcpw
pcp=$(node_pcp_bp 0)
pcp_max=$(sort -n /tmp/pcp | tail -1)
free=$(($(node_bp 0 MemFree) + pcp))
goal=$(status_field 0 goal_target)
mig1=$(vmstat pgmigrate_success)
prom=$(param_node bytes_promoted 1)
dem=$(param_node bytes_demoted 0)
mig2=$(vmstat pgmigrate_success)
last=$(grep 'tierload t=' /tmp/load.log | tail -1)
cat $P/status
# the priming walk (mmt_ctx.c) checked both nodes once and stopped, where
# the kernel can stop a scheme (7.x); 6.12's first quota window walks the
# node instead, and the module adds no scheme there
pw=$(status_kv "kernel " prime)
p0=$(status_field 0 prime) p1=$(status_field 1 prime)
case $pw in
walk) [ "$p0" = "done" ] && [ "$p1" = "done" ] ;;
first_window) [ "$p0" = none ] && [ "$p1" = none ] ;;
*) false ;;
esac
check priming_walk_done $? "kernel prime=$pw, node0 prime=$p0, node1 prime=$p1"
wait $load
cat /tmp/load.log | tail -n +2

# 1. >= 90 % of the hot set on node0 within BOUND_S seconds
hot_within /tmp/load.log "$BOUND_S" > /tmp/r1
check hot_promoted $? "$(cat /tmp/r1)"

# 2. node0's free memory at its effective free goal, within tolerance: at or
#    above goal - 100 bp (kernel allocations after the last demotion), at
#    most goal + 1500 bp and what node0's per-CPU free lists held at most
#    during the run.  Demotion stops above the goal by design: at the
#    first 100 ms step that finds the goal met (one 20 MiB step, about
#    205 bp of this node), and after making room ahead for the hot pages
#    still waiting, whole regions of which promotion takes only the young
#    pages.  The pages demotion frees wait on the CPUs' free lists, which
#    the kernel lets grow towards an eighth of a zone while a CPU frees
#    many, and which MemFree and the watermark check (so the module's
#    admission and demotion goal) do not count; they reach MemFree as the
#    lists drain, after demotion stopped.  Free memory is read as MemFree
#    and the lists' pages.  Demoting the whole cold set, the failure this
#    catches, would leave over 6000 bp free.
over=1500
[ -n "$goal" ] && [ "$dem" -gt 0 ] && [ "$free" -ge $((goal - 100)) ] &&
	[ "$free" -le $((goal + over + ${pcp_max:-0})) ]
check free_goal $? "node0 free ${free} bp, goal ${goal} bp (bar +${over} + ${pcp_max} bp on the per-CPU lists at most), demoted ${dem} bytes"
info "free_goal overshoot: $((free - ${goal:-0})) bp ($pcp bp on the per-CPU lists now, $pcp_max at most); demoted $dem, promoted $prom bytes into $(sed -n 's/.*up_free_mb=\([0-9]*\).*/\1/p' /tmp/load.log | head -1) MiB free at setup"

# 3. every byte intact after all migrations, every store the last one made
grep -q 'tierload verify .* bad_pages=0 .* stores=[1-9]' /tmp/load.log
check data_intact $? "$(grep 'tierload verify' /tmp/load.log)"
# ... and the checker does catch a corrupted byte and a lost store
# (negative control: two pages)
tierload -H 8 -C 8 -t 1 -G -x > /tmp/x.log
grep -q 'bad_pages=2 .* stores=[1-9]' /tmp/x.log
check checker_catches $? "injected corruption and a lost store: $(grep verify /tmp/x.log)"

# 4. counters agree with move_pages(2) and /proc/vmstat
first=$(grep 'tierload t=' /tmp/load.log | head -1)
hot_up0=$(echo "$first" | sed 's/.*hot_up=\([0-9]*\).*/\1/')
hot_up1=$(echo "$last" | sed 's/.*hot_up=\([0-9]*\).*/\1/')
cold_low=$(echo "$last" | sed 's/.*cold_low=\([0-9]*\).*/\1/')
vm_bytes=$(( (mig1 - mig0) * 4096 ))
vm_bytes2=$(( (mig2 - mig0) * 4096 ))
ours=$((prom + dem))
info "promoted=$prom demoted=$dem pgmigrate_success_bytes=$vm_bytes..$vm_bytes2 hot_up $hot_up0 -> $hot_up1 cold_low=$cold_low"
info "$(grep -E '^(compact_(stall|success|daemon_wake|isolated)|pgmigrate_fail|thp_migration_success) ' /proc/vmstat | tr '\n' ' ')"
[ "$prom" -ge $(( (hot_up1 - hot_up0) * 4096 )) ] && [ "$prom" -gt 0 ]
check promoted_vs_move_pages $? "promoted $prom bytes >= hot pages that reached node0 ($((hot_up1 - hot_up0)) x 4096)"
[ "$dem" -ge $((cold_low * 4096)) ]
check demoted_vs_move_pages $? "demoted $dem bytes >= cold pages on node1 ($cold_low x 4096)"
# the kdamonds publish their stats after each sample, so ours may lag the
# vmstat read before them by one sample's migrations: within 2 %, and never
# above the vmstat read after them
[ "$ours" -le "$vm_bytes2" ] && [ $((ours * 100)) -ge $((vm_bytes * 98)) ]
check counters_vs_vmstat $? "promoted+demoted $ours bytes vs pgmigrate_success $vm_bytes..$vm_bytes2 bytes"
# DAMON_RECLAIM's names: regions tried and applied, quota hits.  A region
# counts as applied when it moved a page or more, so each applied region
# is at least 4096 bytes (the counts read before the bytes: both only grow)
nr_t=$(param_node nr_tried_regions 1); nr_p=$(param_node nr_promoted_regions 1)
nr_d=$(param_node nr_demoted_regions 0)
b_p=$(param_node bytes_promoted 1); b_d=$(param_node bytes_demoted 0)
[ "$nr_p" -gt 0 ] && [ "$nr_t" -ge "$nr_p" ] && [ "$b_p" -ge $((nr_p * 4096)) ] &&
	[ "$b_d" -ge $((nr_d * 4096)) ] && [ $((nr_d > 0)) -eq $((b_d > 0)) ] &&
	[ "$(cat $P/nr_promoted_regions | wc -w)" = 2 ] &&
	cat $P/nr_quota_exceeds | grep -qE '^0:[0-9]+ 1:[0-9]+$'
check region_counters $? "node1: $nr_p of $nr_t regions tried promoted ($b_p bytes); node0: $nr_d regions demoted ($b_d bytes); nr_quota_exceeds $(cat $P/nr_quota_exceeds)"

# 3b. stores kept on transparent huge pages too: a 64 MiB hot set of THPs
# first-touched on node1 (node0 now empty: the workload above has ended),
# stored into while the module promotes it (pages seen moving), and every
# page's last store there at the end
echo always > /sys/kernel/mm/transparent_hugepage/enabled
tierload -L -G -H 64 -C 0 -t 20 > /tmp/thp.log
echo never > /sys/kernel/mm/transparent_hugepage/enabled
moved=$(grep 'tierload t=' /tmp/thp.log | tail -1 | sed -n 's/.* moved=\([0-9]*\).*/\1/p')
grep -q 'tierload setup .* thp_kb=[1-9]' /tmp/thp.log &&
	grep -q 'tierload verify .* bad_pages=0 .* stores=[1-9]' /tmp/thp.log &&
	[ "${moved:-0}" -gt 0 ]
check thp_stores_intact $? "$(grep -o 'thp_kb=[0-9]*' /tmp/thp.log | head -1) at setup; $moved of 16384 pages seen moving; $(grep 'tierload verify' /tmp/thp.log)"

# 5. enabled=N leaves no kdamond of ours, rmmod works, dmesg clean
# (damon_stop() returns once a kdamond's function has returned; its task
# can stay in /proc a moment longer, exiting: seen once on 6.12 under TCG.
# A kdamond that went on running would still be there after 2 s.)
pids=$(tr ' ' '\n' < $P/kdamond_pids | cut -d: -f2)
echo N > $P/enabled
i=0 seen=""
while :; do
	left=""
	for p in $pids; do
		[ -d "/proc/$p" ] && left="$left $p" &&
			seen="$seen $p:$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)@${i}00ms"
	done
	{ [ -z "$left" ] || [ $i -ge 20 ]; } && break
	i=$((i + 1)); sleep 0.1
done
[ "$(cat $P/enabled)" = N ] && [ -z "$left" ] && [ -z "$(kdamonds)" ]
check disable_stops_kdamonds $? "kdamonds before: $(echo $pids) left: ${left:-none}${seen:+ (still in /proc:$seen)} enabled=$(cat $P/enabled)"
rmmod mm_tiering && ! grep -q '^mm_tiering ' /proc/modules
check rmmod $? "rmmod mm_tiering"
dmesg_clean > /dev/null
check dmesg_clean $? "$(splat_head)"
dmesg | grep mm_tiering

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CXL memory offlined while tiering moves pages from and into it
# (MMT_TOPO=hotplug).  node1 has 256 MiB of boot memory and a
# 768 MiB pc-dimm, onlined movable before the module is enabled.  A 300 MiB
# hot set is first-touched on node1 (it lands in the DIMM: user pages go to
# ZONE_MOVABLE first), the cold set fills node0 to 150 MiB free, so that
# the module promotes from the DIMM and demotes into node1.  6 s into the
# run, every block of the DIMM is offlined: the offline must complete (the
# kernel migrates what is there, into node0; the module must not hold it
# up, and holds promotion meanwhile, which would take node0's room), the
# module must say that node1 is now monitored without the DIMM, and go on
# tiering.  20 s later the DIMM is onlined again: the module must monitor
# it again by itself.  At the end the hot set is on node0 and every byte
# intact.  Negative control first, in the same boot: without the module
# the same offline cannot complete (node0 has no room for the DIMM's pages;
# the module's demotion into node1's boot memory makes it).
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
# node0's free memory left by the cold set: less than the DIMM holds (the
# control's offline cannot complete), but not so little that the machine
# is out of memory once the DIMM is gone (1.25 GiB left: with 100 MiB, one
# run in seven was OOM-killed after the offline, when promotion resumed
# into a full node0 with node1's boot memory full too)
FREE_MB=${FREE_MB:-150}
RUN_S=${RUN_S:-100}
plan 10
quiet_neighbours
# The kernel reports the offline's own allocations that find node0 full
# (__GFP_RETRY_MAYFAIL, every node but node1: the control has them too);
# clean_exit counts them, any other report is a failure.
OFFL=': page allocation failure: .*__GFP_RETRY_MAYFAIL.*nodemask=0,'
allow "$OFFL"

# movable_used NID: MiB used in the node's Movable zone (the DIMM)
movable_used() {
	awk -v n="Node $1," '$1 " " $2 == n { z = ($4 == "Movable") }
		z && $1 == "pages" && $2 == "free" { f = $3 }
		z && $1 == "managed" { m = $2 }
		z && $1 == "protection:" { print int((m - f) * 4 / 1024); exit }' /proc/zoneinfo
}
# end_of WHAT: where node1's memory ends in its last "WHAT" line in dmesg
# ("node 1: monitoring" at enable, "hotplug: node 1: now monitoring" after)
end_of() {
	dmesg | sed -n "s/.*$1 .*, \(0x[0-9a-f]*\))\$/\1/p" | tail -1
}
blocks=$(offline_blocks 1)
nb=$(echo $blocks | wc -w)
on=$(set_blocks online_movable $blocks)

# Negative control, without the module: the same load, and the same offline
# with 10 s per block: the blocks that hold pages cannot go offline (their
# pages have nowhere to go: node0 is full); put back online after.
tierload -H "$HOT_MB" -F "$FREE_MB" -t 45 -w /tmp/go0 > /tmp/load0.log &
wait_line 'tierload setup' /tmp/load0.log 120 || fail setup "workload did not start"
touch /tmp/go0
sleep 6
u=$(movable_used 1) stuck=0
for b in $blocks; do
	timeout 10 sh -c "echo offline > /sys/devices/system/memory/$b/state" 2>/dev/null
	[ "$(cat /sys/devices/system/memory/$b/state)" = online ] && stuck=$((stuck + 1))
done
wait
again=$(set_blocks online_movable $(offline_blocks 1))
[ "$stuck" -ge 1 ] && grep -q 'tierload verify .* bad_pages=0 ' /tmp/load0.log
check control_offline_needs_room $? "without the module, $u MiB of the DIMM in use: $stuck of $nb blocks still online after 10 s each ($again put back online); $(dmesg | grep -c 'page allocation failure') allocation failure report(s) of the offline; bytes intact"
nfail0=$(dmesg | grep -c 'page allocation failure')

modprobe mm_tiering enabled=Y
[ "$nb" -ge 1 ] && [ "$on" -eq "$nb" ] && [ "$(cat $P/enabled)" = Y ] &&
	[ "$(kdamonds | wc -l)" -eq 2 ]
check dimm_online_at_enable $? "$on of $nb DIMM blocks online before the enable; enabled=$(cat $P/enabled), kdamonds $(kdamonds | wc -l)"
pids=$(cat $P/kdamond_pids)
# where node1's memory ends at enable (read now: the control's reports may
# push the line out of the log buffer later)
e1=$(end_of 'mm_tiering: node 1: monitoring')

tierload -H "$HOT_MB" -F "$FREE_MB" -t "$RUN_S" -w /tmp/go > /tmp/load.log &
load=$!
wait_line 'tierload setup' /tmp/load.log 120 || fail setup "workload did not start"
info "after setup: $(movable_used 1) MiB used in the DIMM"
touch /tmp/go
sleep 6
p0=$(param_node bytes_promoted 1) d0=$(param_node bytes_demoted 0)
u0=$(movable_used 1)
t0=$(cut -d' ' -f1 /proc/uptime)
(for b in $blocks; do
	echo offline > /sys/devices/system/memory/$b/state || echo "offline $b failed" >&2
done) &
offl=$!
# a migration already under way when the offline begins completes (one
# quota window, up to tens of MB): the hold is measured from 5 s in
sleep 5
p5=$(param_node bytes_promoted 1)
wait $offl
t1=$(cut -d' ' -f1 /proc/uptime)
pa=$(param_node bytes_promoted 1)
sleep 3
off=$(offline_blocks 1 | wc -l)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
[ "$off" -eq "$nb" ] && [ "$p0" -gt 0 ] && [ "$u0" -gt 0 ]
check offline_under_load $? "$off of $nb blocks offline in ${secs} s, with $u0 MiB of the DIMM in use and tiering moving (before: $p0 bytes promoted from node1, $d0 demoted from node0)"
# promotion held while the blocks went offline: at most a page per quota
# interval once the hold is in force
[ $((pa - p5)) -lt 1048576 ]
check promotion_held_while_offlining $? "$((pa - p5)) bytes promoted from node1 from 5 s into the ${secs} s of the offline to its end ($((p5 - p0)) in the first 5 s); $(dmesg | grep -c 'page allocation failure') allocation failure report(s) so far"

e2=$(end_of 'hotplug: node 1: now monitoring')
[ -n "$e1" ] && [ -n "$e2" ] && [ $((e2)) -lt $((e1)) ] &&
	[ "$(cat $P/enabled)" = Y ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] &&
	grep -q '^node=1 .* state=running ' $P/status
check offline_followed $? "node1 now monitored up to ${e2:-?} (with the DIMM: ${e1:-?}); enabled=$(cat $P/enabled), kdamonds $(cat $P/kdamond_pids) (before: $pids)"

# offline, the DIMM holds nothing and tiering goes on into node1's boot
# memory: the demotion counter still grows or the controller holds its room
pw=$(param_node bytes_promoted 1) dw=$(param_node bytes_demoted 0)
sleep 20
p1=$(param_node bytes_promoted 1) d1=$(param_node bytes_demoted 0)
fb=$(($(node_bp 0 MemFree) + $(node_pcp_bp 0))) gb=$(status_field 0 goal_target)
info "the 20 s offline: promoted $((p1 - pw)), demoted $((d1 - dw)) bytes; node0 free $fb bp (per-CPU lists counted), goal $gb bp; node1 free $(node_mb 1 MemFree) MiB"
# ... as the comment says: demoted more in the 20 s, or node0 holds its
# free goal (within 100 bp: kernel allocations after the last demotion),
# not merely a kdamond that runs
[ "$(offline_blocks 1 | wc -l)" -eq "$nb" ] && grep -q '^node=1 .* state=running ' $P/status &&
	[ -n "$gb" ] && { [ "$d1" -gt "$dw" ] || [ "$fb" -ge $((gb - 100)) ]; }
check tiering_while_offline $? "20 s with the DIMM offline: $(offline_blocks 1 | wc -l) of $nb blocks offline, node1 running; in the 20 s demoted $((d1 - dw)) bytes, node0 free $fb bp against its goal $gb bp; since the offline began promoted $((p1 - p0)) bytes, demoted $((d1 - d0))"

on=$(set_blocks online_movable $blocks)
e3=$(end_of 'hotplug: node 1: now monitoring')
[ "$on" -eq "$nb" ] && [ "$e3" = "$e1" ] && [ "$(cat $P/enabled)" = Y ] &&
	[ "$(cat $P/kdamond_pids)" = "$pids" ]
check online_followed $? "$on of $nb blocks online again; node1 monitored up to ${e3:-?} again (offline: ${e2:-?}); kdamonds $(cat $P/kdamond_pids)"

wait $load
tail -n 3 /tmp/load.log
last=$(grep 'tierload t=' /tmp/load.log | tail -1)
hot=$(sed -n 's/^tierload setup hot_pages=\([0-9]*\).*/\1/p' /tmp/load.log)
up=$(echo "$last" | sed 's/.* hot_up=\([0-9]*\).*/\1/')
[ "$up" -ge $((hot * 9 / 10)) ]
check hot_on_node0_at_end $? "$up of $hot hot pages on node0 at the end; $(echo "$last" | sed 's/.* nodes=/nodes=/')"
grep -q 'tierload verify .* bad_pages=0 ' /tmp/load.log
check data_intact $? "$(grep 'tierload verify' /tmp/load.log)"
echo N > $P/enabled && rmmod mm_tiering
nfail=$(dmesg | grep -c "$OFFL")
dmesg_clean > /tmp/splat
other=$(grep -v "$OFFL" /tmp/splat | grep -v 'Call Trace' | head -3)
[ -z "$other" ] && [ "$(grep -c 'Call Trace' /tmp/splat)" -eq "$nfail" ]
check clean_exit $? "disabled, removed; dmesg: $((nfail - nfail0)) allocation failure report(s) of the offline with the module ($nfail0 without), nothing else $other"

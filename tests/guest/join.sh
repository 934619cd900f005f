#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A node that joins and leaves while the others run (MMT_TOPO=join; issue
# 12): node0 the DRAM, node1 a CPU-less node with memory at boot, node2 a
# farther CPU-less node whose only memory is a 512 MiB pc-dimm.  node2
# leaving (all its blocks offline) stops node2's context only; node2
# joining again starts its context only: nodes 0 and 1 keep their kdamonds
# (same pids; before, every context was stopped and started again).
# Negative control first: a hot set on node2 for 15 s with the module not
# enabled stays there; after node2 rejoined, the same hot set reaches
# node0.  Then bandwidth mode, committed online: refused from HMAT (node2's
# bandwidth was not there at load), applied with upper_share_bp.  node1
# also has a 256 MiB DIMM above node2's: its span interleaves with node2's
# memory and holds the PCI hole; the contexts' ranges must be the nodes'
# online blocks.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-100}
BOUND_S=${BOUND_S:-60}
plan 11
quiet_neighbours

# loaded first, not enabled: node2's memory arrives after the load (its
# HMAT bandwidth too, which bandwidth mode reads at the end)
modprobe mm_tiering
blocks=$(offline_blocks 2)
nb=$(echo $blocks | wc -w)
on=$(set_blocks online_movable $blocks)
# node1's own DIMM, above node2's
b1=$(offline_blocks 1)
on1=$(set_blocks online_movable $b1)

# hot_pct LOG: the hot pages on node0 in the last sample, in % of the hot set
hot_pct() {
	awk '/tierload setup/ { split($3, a, "="); hot = a[2] }
		/tierload t=/ { split($3, u, "="); up = u[2] }
		END { printf "%d\n", hot ? up * 100 / hot : -1 }' "$1"
}
tierload -u 0 -l 2 -H "$HOT_MB" -C 0 -t 15 > /tmp/ctl.log
c=$(hot_pct /tmp/ctl.log)
[ "$on" -eq "$nb" ] && [ "$nb" -ge 1 ] && [ "$c" -ge 0 ] && [ "$c" -lt 10 ]
check control_not_enabled_no_promotion $? "node2: $on of $nb blocks online; hot set on node2 for 15 s, module loaded, not enabled: $c % on node0"

# pid_of NID: node NID's kdamond (kdamond_pids: "nid:pid ...")
pid_of() { param_node kdamond_pids "$1"; }
echo Y > $P/enabled
rc=$?
p0=$(pid_of 0) p1=$(pid_of 1) p2=$(pid_of 2)
[ $rc -eq 0 ] && [ -n "$p0" ] && [ -n "$p1" ] && [ -n "$p2" ] &&
	[ "$(kdamonds | wc -l)" -eq 3 ]
check three_nodes_tiered $? "rc=$rc; kdamonds: node0 $p0, node1 $p1, node2 $p2 ($(kdamonds | wc -l) in all)"

# each context monitors its node's online memory blocks, not its span:
# node1's span holds the PCI hole and all of node2's DIMM (the negative
# control: what a context built on the span would monitor)
r1=$(dmesg | sed -n 's/.*mm_tiering: node 1: monitoring//p' | tail -1)
r2=$(dmesg | sed -n 's/.*mm_tiering: node 2: monitoring//p' | tail -1)
w1=$(blocks_ranges 1) w2=$(blocks_ranges 2) sp1=$(node_span 1)
lo=${sp1#[} lo=${lo%%,*} hi=${sp1#*, } hi=${hi%)}
s2=$(echo "$w2" | sed 's/^ \[\(0x[0-9a-f]*\),.*/\1/')
[ "$on1" -ge 1 ] && [ -n "$r1" ] && [ "$r1" = "$w1" ] && [ "$r2" = "$w2" ] &&
	[ $((s2)) -ge $((lo)) ] && [ $((s2)) -lt $((hi)) ]
check ranges_online_memory_not_span $? "node1 monitors$r1 (its online blocks:$w1; its span $sp1 holds node2's memory and the PCI hole); node2 monitors$r2 (blocks:$w2)"

# node2 leaves
off=$(set_blocks offline $blocks)
q0=$(pid_of 0) q1=$(pid_of 1) q2=$(pid_of 2)
[ "$off" -eq "$nb" ] && [ "$q0" = "$p0" ] && [ "$q1" = "$p1" ] &&
	[ -z "$q2" ] && [ "$(kdamonds | wc -l)" -eq 2 ] &&
	[ "$(cat $P/enabled)" = Y ] && ! grep -q '^node=2 ' $P/status &&
	dmesg | grep -q 'mm_tiering: memory hotplug: node 2 stops'
check leave_stops_only_that_node $? "$off of $nb blocks offline; kdamonds now node0 ${q0:-none}, node1 ${q1:-none}, node2 ${q2:-none}; enabled=$(cat $P/enabled); $(dmesg | grep -o 'memory hotplug: [0-9]* node(s) kept running.*' | tail -1)"

# node2 joins again
on=$(set_blocks online_movable $blocks)
r0=$(pid_of 0) r1=$(pid_of 1) r2=$(pid_of 2)
[ "$on" -eq "$nb" ] && [ "$r0" = "$p0" ] && [ "$r1" = "$p1" ] &&
	[ -n "$r2" ] && [ "$(kdamonds | wc -l)" -eq 3 ] &&
	grep -q '^node=2 tier=lower action=promote target=0 ' $P/status &&
	[ "$(dmesg | grep -c 'memory hotplug: 2 node(s) kept running, 1 started')" -eq 1 ]
check join_starts_only_that_node $? "$on of $nb blocks online; kdamonds now node0 ${r0:-none}, node1 ${r1:-none}, node2 ${r2:-none}; $(grep '^node=2 ' $P/status | cut -d' ' -f1-4)"

# and tiers it: the control's hot set, on node2 again, reaches node0
tierload -u 0 -l 2 -H "$HOT_MB" -C 0 -t 75 > /tmp/load.log
hot_within /tmp/load.log "$BOUND_S" > /tmp/r1
check joined_node_promotes $? "$(cat /tmp/r1)"
grep -q 'tierload verify .* bad_pages=0 ' /tmp/load.log &&
	grep -q 'tierload verify .* bad_pages=0 ' /tmp/ctl.log
check data_intact $? "$(grep -h 'tierload verify' /tmp/ctl.log /tmp/load.log | tr '\n' ' ')"
[ "$(pid_of 0)" = "$p0" ] && [ "$(pid_of 1)" = "$p1" ] && [ "$(cat $P/enabled)" = Y ]
check kept_nodes_still_running $? "node0 $(pid_of 0), node1 $(pid_of 1) (were $p0, $p1); enabled=$(cat $P/enabled)"
info "$(dmesg | grep -o 'mm_tiering: memory hotplug.*' | tr '\n' ';')"

# bandwidth mode, committed online.  The module reads HMAT bandwidths at
# load (never from a parameter handler or the hotplug work, see mmt_hmat.c),
# before node2 had memory: with the shares from HMAT the commit must fail,
# say why and change nothing; with upper_share_bp it must apply, node0's
# share split between nodes 1 and 2 equally (node2's bandwidth unknown):
# 7000 / (7000 + 3000 / 2) = 8235 bp in each lower node's context
echo bandwidth > $P/mode && echo Y > $P/commit_inputs 2>/dev/null
rc=$?
[ $rc -ne 0 ] && head -1 $P/status | grep -q 'mode=capacity' &&
	dmesg | grep -q 'no HMAT read bandwidth for nodes 0 and 2'
check joined_node_bandwidth_refused $? "mode=bandwidth from HMAT: commit rc=$rc, $(head -1 $P/status | grep -o 'mode=[a-z]*'); $(dmesg | grep -o 'bandwidth mode: no HMAT.*' | tail -1)"
echo 7000 > $P/upper_share_bp && echo Y > $P/commit_inputs
rc=$?
t1=$(awk '/^pair=0 mode=bandwidth/ && $NF == "lower=1" { split($4, a, "="); print a[2] }' $P/status)
t2=$(awk '/^pair=0 mode=bandwidth/ && $NF == "lower=2" { split($4, a, "="); print a[2] }' $P/status)
[ $rc -eq 0 ] && [ "$t1" = 8235 ] && [ "$t2" = 8235 ] &&
	[ "$(pid_of 0)" = "$p0" ] && [ "$(pid_of 1)" = "$p1" ]
check joined_node_bandwidth_override $? "upper_share_bp=7000 committed: rc=$rc; contexts' targets node1 ${t1:-none}, node2 ${t2:-none} (8235 expected); kdamonds node0 $(pid_of 0), node1 $(pid_of 1)"

echo N > $P/enabled && rmmod mm_tiering && dmesg_clean > /dev/null
check clean_exit $? "disabled, removed, dmesg clean $(splat_head)"

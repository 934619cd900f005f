#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The machine's only CPU-less memory arrives after the module loaded with
# enabled=Y (CXL memory onlined by udev after modules load), then leaves
# and comes back.  node1 has no memory at
# boot; its 768 MiB pc-dimm is offline until the guest onlines it.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
BOUND_S=${BOUND_S:-60}
# 6.12 has no DAMON_STAT: the failed start below needs it
stat=0
[ -e /sys/module/damon_stat ] && stat=1
plan $((8 + stat))
quiet_neighbours

blocks=$(offline_blocks 1)
nb=$(echo $blocks | wc -w)

modprobe mm_tiering enabled=Y
rc=$?
[ $rc -eq 0 ] && [ "$nb" -ge 1 ] && [ "$(cat $P/enabled)" = N ] &&
	[ -z "$(kdamonds)" ] && dmesg | grep -q 'mm_tiering: no CPU-less memory node'
check loaded_nothing_to_tier $? "node1: $nb offline block(s), no memory; modprobe enabled=Y rc=$rc, enabled=$(cat $P/enabled), kdamonds: $(kdamonds | wc -l)"

on=$(set_blocks online_movable $blocks)
[ "$on" -eq "$nb" ] && [ "$(cat $P/enabled)" = Y ] && [ "$(kdamonds | wc -l)" -eq 2 ] &&
	dmesg | grep -q 'mm_tiering: memory hotplug: memory nodes 0-1: started'
check started_when_memory_came $? "$on of $nb blocks online; enabled=$(cat $P/enabled), kdamonds: $(kdamonds | wc -l); $(dmesg | grep -o 'memory hotplug: memory nodes.*' | tail -1)"

# The OOM scenario: node1 is all ZONE_MOVABLE (dax/kmem's CXL memory, as
# vendors online it), so node0 is the only memory kernel allocations can
# use; the hot set is first-touched on node1, then the cold set fills node0
# under MPOL_BIND to 100 MiB free while the module already promotes into it.
# Promotion is admitted only above node0's floor (its zones' high
# watermarks and reserves, and 1 % more), so it never takes what the fill
# and the kernel need: no OOM kill, no allocation failure.  Before
# admission, runs here were OOM-killed with node0's ZONE_DMA32 below its min
# watermark.  The fill itself brings ZONE_DMA32 to its min watermark (direct
# reclaim of a bound allocation), with or without the module: the lowest
# free pages seen (every 0.2 s) are reported, not asserted.
oom0=$(vmstat oom_kill)
zone_watch 0 /tmp/zones & zw=$!
tierload -H "$HOT_MB" -F 100 -t 75 > /tmp/load.log
rc=$?
kill $zw
tail -n 3 /tmp/load.log
hot_within /tmp/load.log "$BOUND_S" > /tmp/r1
check hot_promoted_within_60s $? "$(cat /tmp/r1)"
grep -q 'tierload verify .* bad_pages=0 ' /tmp/load.log
check data_intact $? "$(grep 'tierload verify' /tmp/load.log)"
oom=$(( $(vmstat oom_kill) - oom0 ))
[ "$rc" -eq 0 ] && [ "$oom" -eq 0 ] &&
	! dmesg | grep -qE 'invoked oom-killer|page allocation failure'
check no_oom_kill $? "tierload rc=$rc, OOM kills $oom; node0's lowest: $(zone_low /tmp/zones)$(splat_head)"

off=$(set_blocks offline $blocks)
[ "$off" -eq "$nb" ] && [ "$(cat $P/enabled)" = N ] && [ -z "$(kdamonds)" ] &&
	dmesg | grep -q 'mm_tiering: memory hotplug: memory nodes 0, were 0-1'
check stopped_when_memory_left $? "$off of $nb blocks offline; enabled=$(cat $P/enabled), kdamonds: $(kdamonds | wc -l); $(dmesg | grep -o 'memory hotplug: memory nodes.*' | tail -1)"

on=$(set_blocks online_movable $blocks)
[ "$on" -eq "$nb" ] && [ "$(cat $P/enabled)" = Y ] && [ "$(kdamonds | wc -l)" -eq 2 ]
check started_again $? "$on of $nb blocks online again; enabled=$(cat $P/enabled), kdamonds: $(kdamonds | wc -l)"

# A start that failed is not remembered: with DAMON_STAT running (7.x:
# its damon_start() is exclusive) echo Y fails; the admin stops DAMON_STAT,
# and the DIMM leaves and comes back: nothing starts, enabled reads N.  A
# module that kept enabled=Y started tiering at that memory event.
echo N > $P/enabled
if [ "$stat" = 1 ]; then
	echo Y > /sys/module/damon_stat/parameters/enabled
	echo Y > $P/enabled 2>/dev/null
	rc=$?
	echo N > /sys/module/damon_stat/parameters/enabled
	off=$(set_blocks offline $blocks)
	on=$(set_blocks online_movable $blocks)
	[ "$rc" -ne 0 ] && [ "$off" -eq "$nb" ] && [ "$on" -eq "$nb" ] &&
		[ "$(cat $P/enabled)" = N ] && [ -z "$(kdamonds)" ]
	check failed_start_not_remembered $? "echo Y beside DAMON_STAT: rc=$rc; DAMON_STAT stopped, $off of $nb blocks offline, $on online again: enabled=$(cat $P/enabled), kdamonds: $(kdamonds | wc -l)"
fi

rmmod mm_tiering && dmesg_clean >/dev/null
check clean_exit $? "disabled, removed, dmesg clean"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory hot-added to the lower node after enabled=Y.
# node1 boots with 256 MiB; a 768 MiB pc-dimm on node1 is present but
# offline (memhp_default_state=offline).  The module is enabled first, the
# DIMM's blocks are onlined (movable) 20 s later, then a 300 MiB hot set is
# first-touched on node1, where it lands in the new memory (user pages go to
# ZONE_MOVABLE first), the cold set fills node0 to leave room for it and
# 100 MiB more: >= 90 % of it must reach node0 within 60 s.
# Then the DIMM is offlined again with tiering on: node1's range shrinks
# back.  node1's ranges leave out the hole between its boot memory and the
# DIMM.  Negative control (hotplug_neg.sh, hotplug=N: the module keeps the memory
# it saw at enable, as before it followed hotplug): under half of it does.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
BOUND_S=${BOUND_S:-60}
RUN_S=${RUN_S:-75}
NEG=${NEG:-}
[ -n "$NEG" ] && plan 7 || plan 8
quiet_neighbours

# movable_free NID: free pages of the node's Movable zone
movable_free() {
	awk -v n="Node $1," '$1 " " $2 == n { z = ($4 == "Movable") }
		z && $1 == "pages" && $2 == "free" { print $3; exit }' /proc/zoneinfo
}
blocks=$(offline_blocks 1)
nb=$(echo $blocks | wc -w)
[ "$nb" -ge 1 ]
check dimm_offline_at_boot $? "node1: $nb offline memory block(s) ($(echo $blocks))"

modprobe mm_tiering enabled=Y ${NEG:+hotplug=N}
check module_enabled $? "modprobe mm_tiering enabled=Y${NEG:+ hotplug=N}: enabled=$(cat $P/enabled)"
sleep 20
on=$(set_blocks online_movable $blocks)
seen=$(dmesg | grep -c 'mm_tiering: memory hotplug: node 1: now monitoring')
if [ -z "$NEG" ]; then
	[ "$on" -eq "$nb" ] && [ "$seen" -ge 1 ]
else
	[ "$on" -eq "$nb" ] && [ "$seen" -eq 0 ]
fi
check onlined_and_followed $? "$on of $nb blocks online 20 s after enable; $(dmesg | grep 'mm_tiering: memory hotplug' | sed 's/^\[[^]]*\] //' | tr '\n' ';')"

# node1's memory is two ranges with the PCI hole between them (boot memory
# below 4 GiB, the DIMM above): the hole is not monitored
if [ -z "$NEG" ]; then
	line=$(dmesg | grep 'memory hotplug: node 1: now monitoring' | head -1)
	nr=$(echo "$line" | grep -o '\[0x' | wc -l)
	hole=$(echo "$line" | grep -c '0x50000000, 0x100000000\|\[0x40000000, 0x1[0-9a-f]\{8\})')
	[ "$nr" -eq 2 ] && [ "$hole" -eq 0 ]
	check ranges_skip_hole $? "$(echo "$line" | sed 's/^\[[^]]*\] //') (at enable: $(dmesg | grep -o 'node 1: monitoring .*' | head -1))"
fi

# The cold set leaves node0 room for the whole hot set and SPARE_MB more,
# sized before the hot set is touched: with -F 100 (the cold set sized
# after it), the module, enabled all along, promoted the hot set while the
# cold set was being touched, node0 ran out under the cold set's MPOL_BIND
# and the OOM killer took tierload (1 run in 2 once the backed-off lower
# node sampled every 100 ms; its wake is that much faster).
# Promotion outrunning a bound allocation is tested by hotplug_new.sh;
# this scenario tests that the new memory is followed.
SPARE_MB=${SPARE_MB:-100}
free0=$(node_mb 0 MemFree)
cold=$((free0 - HOT_MB - SPARE_MB))
[ "$cold" -lt 0 ] && cold=0
mf0=$(movable_free 1)
tierload -H "$HOT_MB" -C "$cold" -t "$RUN_S" -w /tmp/go > /tmp/load.log &
load=$!
wait_line 'tierload setup' /tmp/load.log 120 || fail setup "workload did not start"
mf1=$(movable_free 1)
used=$(( (mf0 - mf1) * 4 / 1024 ))
# Where the hot set landed is measured in the negative control, where
# nothing moves it: all of it in the DIMM.  Here the module already promotes
# while the set is being touched, freeing DIMM pages again (131-174 MiB
# were left there after setup in two runs): reported, not asserted.
if [ -n "$NEG" ]; then
	[ "$used" -ge $((HOT_MB * 9 / 10)) ]
	check hot_set_in_new_memory $? "node1's Movable zone (the DIMM) took ${used} MiB of the ${HOT_MB} MiB hot set"
else
	info "node1's Movable zone (the DIMM) holds ${used} MiB after the ${HOT_MB} MiB hot set's setup"
fi
touch /tmp/go
wait $load
cat /tmp/load.log | tail -n 4
awk -v b="$BOUND_S" '
	/tierload setup/ { split($3, a, "="); hot = a[2] }
	/tierload t=/ { split($2, t, "="); split($3, u, "="); last = u[2]
		if (!done && u[2] * 100 >= 90 * hot) { done = 1; at = t[2] } }
	END { printf "hot pages on node0 at the end %d of %d; 90%% %s\n", last, hot,
		done ? "after " at " ms" : "never reached"
		if (done && at <= b * 1000) exit 0; if (last * 2 < hot) exit 2; exit 1 }' \
	/tmp/load.log > /tmp/r1
rc=$?
if [ -z "$NEG" ]; then
	check hot_promoted_within_60s $rc "$(cat /tmp/r1)"
else
	[ $rc -eq 2 ]
	check hotplug_ignored_not_promoted $? "$(cat /tmp/r1)"
fi
grep -q 'tierload verify .* bad_pages=0 ' /tmp/load.log
check data_intact $? "$(grep 'tierload verify' /tmp/load.log)"
# offline the DIMM again, tiering still on: node1's range shrinks back
if [ -z "$NEG" ]; then
	off=$(set_blocks offline $blocks)
	ends=$(dmesg | sed -n 's/.*memory hotplug: node 1: now monitoring .*, \(0x[0-9a-f]*\))$/\1/p')
	e1=$(echo "$ends" | head -1) e2=$(echo "$ends" | tail -1)
	[ "$off" -eq "$nb" ] && [ -n "$e1" ] && [ $((e2)) -lt $((e1)) ] && [ "$(cat $P/enabled)" = Y ]
	check offline_followed $? "$off of $nb blocks offline with tiering on; node1 monitored up to $e1, then $e2; enabled=$(cat $P/enabled)"
fi
echo N > $P/enabled && rmmod mm_tiering && dmesg_clean >/dev/null
check clean_exit $? "disabled, removed, dmesg clean"

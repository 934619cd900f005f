#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A node with more memory ranges than a fixed table holds (MMT_TOPO=ranges):
# node1 has 256 MiB at boot and a 2304 MiB pc-dimm
# onlined movable, 18 blocks.  Every other block of the DIMM goes offline:
# node1's online memory is then 10 ranges, and its context must monitor
# exactly those (before, past 8 ranges the last one stretched over the
# rest: offline blocks counted as idle room, and in bandwidth mode the
# merged ranges could overlap another node's).  Then bandwidth mode is
# committed on them (both nodes' ranges merged into one context), and the
# blocks come back: node1 is monitored whole again.  The truth each time
# is sysfs's list of node1's online blocks (blocks_ranges).
. /mmt/lib.sh
plan 4
quiet_neighbours

# mon_of WHAT: node1's ranges in the module's last "WHAT" line
mon_of() { dmesg | sed -n "s/.*mm_tiering: $1//p" | tail -1; }

modprobe mm_tiering enabled=Y
r0=$(mon_of 'node 1: monitoring') w0=$(blocks_ranges 1)
[ -n "$r0" ] && [ "$r0" = "$w0" ]
check ranges_at_enable $? "node1:$r0"

# the DIMM's blocks: node1's blocks above its boot memory's last one
all=$(for b in /sys/devices/system/node/node1/memory[0-9]*; do
	echo "${b##*memory}"; done | sort -n)
bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
boot_end=$(echo "$w0" | sed 's/^ \[0x[0-9a-f]*, \(0x[0-9a-f]*\)).*/\1/')
odd='' i=0
for id in $all; do
	[ $((id * bs)) -lt $((boot_end)) ] && continue
	[ $((i % 2)) = 1 ] && odd="$odd memory$id"
	i=$((i + 1))
done
# wait_more PATTERN N: until dmesg has more than N lines with PATTERN (20 s)
wait_more() {
	t=0
	while [ $t -lt 100 ] && [ "$(dmesg | grep -c "$1")" -le "$2" ]; do
		sleep 0.2; t=$((t + 1))
	done
}
seen=$(dmesg | grep -c 'memory hotplug: node 1: now monitoring')
off=$(set_blocks offline $odd)
wait_more 'memory hotplug: node 1: now monitoring' "$seen"
r1=$(mon_of 'memory hotplug: node 1: now monitoring') w1=$(blocks_ranges 1)
n1=$(echo "$w1" | grep -o '\[' | wc -l)
[ "$off" -eq "$(echo $odd | wc -w)" ] && [ "$n1" -gt 8 ] && [ "$r1" = "$w1" ]
check ranges_beyond_eight $? "$off of $(echo $odd | wc -w) DIMM blocks offline: $n1 ranges; monitored:$r1"

# bandwidth mode on them: node1's context merges both nodes' ranges
echo bandwidth > $P/mode && echo 5000 > $P/upper_share_bp &&
	echo Y > $P/commit_inputs
rc=$?
[ $rc -eq 0 ] && [ "$(cat $P/enabled)" = Y ] && [ "$(kdamonds | wc -l)" -eq 2 ]
check bandwidth_commit_many_ranges $? "mode=bandwidth upper_share_bp=5000: commit rc=$rc, enabled=$(cat $P/enabled), kdamonds $(kdamonds | wc -l)"

seen=$(dmesg | grep -c 'memory hotplug: node 1: now monitoring')
on=$(set_blocks online_movable $odd)
wait_more 'memory hotplug: node 1: now monitoring' "$seen"
r2=$(mon_of 'memory hotplug: node 1: now monitoring') w2=$(blocks_ranges 1)
[ "$on" -eq "$(echo $odd | wc -w)" ] && [ "$r2" = "$w2" ] && [ "$r2" = "$w0" ]
check ranges_whole_again $? "$on blocks online again; monitored:$r2"
rmmod mm_tiering

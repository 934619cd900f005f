#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# No lower tier (booted with MMT_TOPO=flat: both nodes have a CPU, no
# HMAT): the module loads, says so, starts nothing, and a write of Y says
# why; the same with node1's only CPU offline.
. /mmt/lib.sh
plan 4
quiet_neighbours
info "has_cpu=$(cat /sys/devices/system/node/has_cpu) has_memory=$(cat /sys/devices/system/node/has_memory)"
modprobe mm_tiering enabled=Y
rc=$?
[ $rc -eq 0 ] && grep -q '^mm_tiering ' /proc/modules && [ "$(cat $P/enabled)" = N ] &&
	[ -z "$(kdamonds)" ] && dmesg | grep -q 'mm_tiering: no CPU-less memory node: no lower tier, nothing started'
check flat_loads_starts_nothing $? "modprobe enabled=Y rc=$rc enabled=$(cat $P/enabled) kdamonds=$(kdamonds | wc -l): $(dmesg | grep -o 'no CPU-less.*' | tail -1)"
echo Y > $P/enabled 2>/tmp/err
rc=$?
[ $rc -ne 0 ] && grep -qi 'no such device' /tmp/err && [ -z "$(kdamonds)" ]
check flat_enable_says_why $? "write Y rc=$rc: $(cat /tmp/err)"
# every CPU of node1's socket offline: node1 is still DRAM with CPUs, not
# a lower tier (before, tiers followed the online CPUs: node1 became a
# lower node and tiering started)
echo 0 > /sys/devices/system/cpu/cpu1/online
off=$(cat /sys/devices/system/node/has_cpu)
echo Y > $P/enabled 2>/tmp/err
rc=$?
k=$(kdamonds | wc -l)
echo 1 > /sys/devices/system/cpu/cpu1/online
[ "$off" = 0 ] && [ $rc -ne 0 ] && grep -qi 'no such device' /tmp/err && [ "$k" -eq 0 ]
check flat_socket_offline_stays_upper $? "cpu1 offline (has_cpu=$off): write Y rc=$rc ($(cat /tmp/err)), kdamonds $k; $(dmesg | grep -o 'tiers from .*' | tail -1)"
rmmod mm_tiering && dmesg_clean > /dev/null
check flat_clean_exit $? "removed, dmesg clean"

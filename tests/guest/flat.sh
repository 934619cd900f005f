#!/bin/sh
# No lower tier (booted with MMT_TOPO=flat: both nodes have a CPU): the
# module loads, says so, starts nothing, and a write of Y says why.
. /mmt/lib.sh
plan 3
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
rmmod mm_tiering && dmesg_clean > /dev/null
check flat_clean_exit $? "removed, dmesg clean"

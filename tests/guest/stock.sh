#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 7: the stock Debian state (DAMON_STAT on where the kernel has it,
# numa_balancing=1).  Documented behaviour: enabling fails with -EBUSY and a
# message naming the exact command while another DAMON user runs
# exclusively; nothing of ours is left running; once it is off the module
# starts and warns that NUMA balancing is on.  Debian's 6.12 has no
# DAMON_STAT: there DAMON_RECLAIM, which also starts exclusively, is turned
# on first, as an administrator may have done.
. /mmt/lib.sh
plan 6
excl=damon_stat
if [ ! -e /sys/module/damon_stat ]; then
	excl=damon_reclaim
	echo Y > /sys/module/damon_reclaim/parameters/enabled
fi
E=/sys/module/$excl/parameters/enabled
info "exclusive DAMON user: $excl=$(cat $E) numa_balancing=$(cat /proc/sys/kernel/numa_balancing) kdamonds=$(kdamonds | wc -l)"

modprobe mm_tiering enabled=Y 2>/tmp/err
rc=$?
[ $rc -ne 0 ] && ! grep -q '^mm_tiering ' /proc/modules
check stock_modprobe_enable_refused $? "modprobe enabled=Y rc=$rc: $(cat /tmp/err)"
dmesg | grep -q "echo N > $E"
check stock_message_names_fix $? "$(dmesg | grep 'mm_tiering: DAMON is running' | tail -1)"

modprobe mm_tiering
echo Y > $P/enabled 2>/tmp/err
rc=$?
[ $rc -ne 0 ] && [ "$(cat $P/enabled)" = N ] && grep -q 'busy' /tmp/err &&
	[ "$(kdamonds | wc -l)" -eq 1 ]
check stock_enable_write_busy $? "write rc=$rc ($(cat /tmp/err)) enabled=$(cat $P/enabled) kdamonds=$(kdamonds | wc -l) ($excl's)"

echo N > $E
echo Y > $P/enabled
check stock_enable_after_exclusive_off $? "$excl off: enabled=$(cat $P/enabled) kdamond_pids=$(cat $P/kdamond_pids)"
dmesg | grep -q 'mm_tiering: numa_balancing is 1'
check stock_numa_balancing_warned $? "$(dmesg | grep 'numa_balancing is' | tail -1 | cut -c1-120)"
echo N > $P/enabled && rmmod mm_tiering && dmesg_clean >/dev/null
check stock_clean_exit $? "disabled, removed, dmesg clean"

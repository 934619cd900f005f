#!/bin/sh
# Scenario 7: the stock Debian state (DAMON_STAT on, numa_balancing=1).
# Documented behaviour: enabling fails with -EBUSY and a message naming the
# exact command while DAMON_STAT runs exclusively; nothing of ours is left
# running; once DAMON_STAT is off the module starts and warns that NUMA
# balancing is on.
. /mmt/lib.sh
plan 6
info "damon_stat=$(cat /sys/module/damon_stat/parameters/enabled) numa_balancing=$(cat /proc/sys/kernel/numa_balancing)"

modprobe mm_tiering enabled=Y 2>/tmp/err
rc=$?
[ $rc -ne 0 ] && ! grep -q '^mm_tiering ' /proc/modules
check stock_modprobe_enable_refused $? "modprobe enabled=Y rc=$rc: $(cat /tmp/err)"
dmesg | grep -q 'echo N > /sys/module/damon_stat/parameters/enabled'
check stock_message_names_fix $? "$(dmesg | grep 'mm_tiering: DAMON is running' | tail -1)"

modprobe mm_tiering
echo Y > $P/enabled 2>/tmp/err
rc=$?
[ $rc -ne 0 ] && [ "$(cat $P/enabled)" = N ] && grep -q 'busy' /tmp/err &&
	[ "$(kdamonds | wc -l)" -eq 1 ]
check stock_enable_write_busy $? "write rc=$rc ($(cat /tmp/err)) enabled=$(cat $P/enabled) kdamonds=$(kdamonds | wc -l) (DAMON_STAT's)"

echo N > /sys/module/damon_stat/parameters/enabled
echo Y > $P/enabled
check stock_enable_after_damon_stat_off $? "enabled=$(cat $P/enabled) kdamond_pids=$(cat $P/kdamond_pids)"
dmesg | grep -q 'mm_tiering: numa_balancing is 1'
check stock_numa_balancing_warned $? "$(dmesg | grep 'numa_balancing is' | tail -1 | cut -c1-120)"
echo N > $P/enabled && rmmod mm_tiering && dmesg_clean >/dev/null
check stock_clean_exit $? "disabled, removed, dmesg clean"

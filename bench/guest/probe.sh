#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Calibration: what the guest sees of its topology and neighbours.
cat /sys/devices/system/node/node*/meminfo | grep -E 'MemTotal|MemFree'
cat /sys/devices/system/node/has_cpu /sys/devices/system/node/has_memory
ls /sys/devices/system/node/node1/access0/initiators/ 2>&1
cat /sys/devices/system/node/node1/access0/initiators/*latency 2>&1
ls /sys/devices/virtual/memory_tiering/ 2>&1
cat /sys/devices/virtual/memory_tiering/memory_tier*/nodelist 2>&1
cat /proc/sys/kernel/numa_balancing /sys/module/damon_stat/parameters/enabled
modprobe mm_tiering && echo loaded
cat /sys/module/mm_tiering/parameters/status
echo Y > /sys/module/mm_tiering/parameters/enabled; echo "enable rc=$?"
echo N > /sys/module/damon_stat/parameters/enabled
echo 0 > /proc/sys/kernel/numa_balancing
echo Y > /sys/module/mm_tiering/parameters/enabled; echo "enable rc=$?"
cat /sys/module/mm_tiering/parameters/status
cat /sys/module/mm_tiering/parameters/kdamond_pids
tierload -H 300 -F 40 -t 30 &
sleep 40
cat /sys/module/mm_tiering/parameters/status
for p in bytes_promoted bytes_demoted bytes_tried bytes_failed; do echo "$p: $(cat /sys/module/mm_tiering/parameters/$p)"; done
grep pgmigrate /proc/vmstat
echo N > /sys/module/mm_tiering/parameters/enabled
rmmod mm_tiering && echo unloaded
dmesg | grep -iE 'mm_tiering|warn|bug|oops' | head -40

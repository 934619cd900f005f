#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exploration (not a test): one workload run under one mode, given on the
# kernel command line: mmt.ctl=Y|N|none mmt.wl=tierload,args,comma,separated
# [mmt.every=seconds between status dumps, 5 by default]
. /mmt/lib.sh
CTL=$(cmdline_arg ctl)
WL=$(cmdline_arg wl | tr ',' ' ')
EVERY=$(cmdline_arg every)
EVERY=${EVERY:-5}
quiet_neighbours
[ "$CTL" = none ] || modprobe mm_tiering enabled=Y controller="$CTL"
m0=$(vmstat pgmigrate_success)
$WL > /tmp/wl.log &
wl=$!
i=0
while kill -0 $wl 2>/dev/null; do
	sleep "$EVERY"; i=$((i + EVERY))
	echo "EXP t=$i migrated=$(( ($(vmstat pgmigrate_success) - m0) * 4096 ))"
	[ -e $P/status ] && grep -E '^pair|^node' $P/status | sed 's/^/EXP /'
	H=/sys/kernel/debug/mm_tiering/heat
	[ -e $H ] && sed 's/^/EXP /' $H
	echo "EXP ticks $(for k in $(kdamonds); do printf '%s:%s ' $k $(awk '{print $14 + $15}' /proc/$k/stat); done)"
done
grep tierload /tmp/wl.log
echo "EXP end migrated=$(( ($(vmstat pgmigrate_success) - m0) * 4096 ))"
for k in $(kdamonds); do echo "EXP kdamond $k cpu_ticks=$(awk '{print $14 + $15}' /proc/$k/stat)"; done

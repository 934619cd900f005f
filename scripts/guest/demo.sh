#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo, in the Debian guest (systemd, mm-tiering-dkms and -tools installed with
# apt): a 300 MiB hot set starts on the CPU-less node1, a cold set fills
# node0; systemctl starts mm-tiering.service (which turns DAMON_STAT off,
# sets numa_balancing 0 and modprobes the module) and the hot set moves to
# node0 while cold pages make room on node1, watched with mm-tiering-status.
. /mmt/lib.sh
RUN_S=${RUN_S:-40}
echo "Debian guest: $(uname -r), $(systemctl is-system-running 2>/dev/null) systemd; damon_stat=$(cat /sys/module/damon_stat/parameters/enabled) numa_balancing=$(cat /proc/sys/kernel/numa_balancing)"
tierload -H 300 -F 100 -t "$RUN_S" -w /tmp/go > /tmp/load.log &
load=$!
wait_line 'tierload setup' /tmp/load.log 120
echo "workload: $(sed -n 's/tierload setup //p' /tmp/load.log)"
echo "# systemctl start mm-tiering"
systemctl start mm-tiering
systemctl status --no-pager -n 12 mm-tiering | sed -n '/Active:/p; /mm-tiering-ctl\[/s/^.*mm-tiering-ctl\[[0-9]*\]: /  /p'
touch /tmp/go
i=0
while kill -0 $load 2>/dev/null; do
	# the tool's reading spans 2 s; the workload's last sample beside it
	mm-tiering-status --interval 2 > /tmp/st.txt 2>&1
	l=$(grep 'tierload t=' /tmp/load.log | tail -1)
	[ -z "$l" ] && continue
	echo "$l" | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		tot = v["hot_up"] + v["hot_low"]
		printf "%3.0fs  hot set on node0: %3d%%  (node1: %3d%%), cold pages on node1: %6d\n",
			v["t"] / 1000, v["hot_up"] * 100 / tot, v["hot_low"] * 100 / tot, v["cold_low"] }'
	i=$((i + 1))
	[ $((i % 5)) -eq 1 ] && echo "# mm-tiering-status" && sed 's/^/  /' /tmp/st.txt
done
wait $load
grep 'tierload verify' /tmp/load.log
echo "# mm-tiering-status"
mm-tiering-status | sed 's/^/  /'
echo "# systemctl stop mm-tiering"
systemctl stop mm-tiering
echo "kdamonds left: $(kdamonds | wc -l); module loaded: $(grep -c '^mm_tiering ' /proc/modules)"

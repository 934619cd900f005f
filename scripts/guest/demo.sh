#!/bin/sh
# The demo: a 300 MiB hot set starts on the CPU-less node1, a cold set fills
# node0; mm_tiering is loaded with modprobe and the table shows the hot set
# moving to node0 while cold pages make room on node1.
. /mmt/lib.sh
RUN_S=${RUN_S:-40}
quiet_neighbours
echo "DAMON_STAT off, numa_balancing=0: only mm_tiering moves pages"
tierload -H 300 -F 100 -t "$RUN_S" -w /tmp/go > /tmp/load.log &
load=$!
wait_line 'tierload setup' /tmp/load.log 120
echo "workload: $(sed -n 's/tierload setup //p' /tmp/load.log)"
echo "# modprobe mm_tiering enabled=Y"
modprobe mm_tiering enabled=Y
dmesg | grep 'mm_tiering: node' | sed 's/^\[[^]]*\] /  /'
touch /tmp/go
printf '%6s %14s %14s %14s %12s %12s %12s\n' time hot@node0 hot@node1 cold@node1 node0_free promoted demoted
while sleep 2 && kill -0 $load 2>/dev/null; do
	l=$(grep 'tierload t=' /tmp/load.log | tail -1)
	[ -z "$l" ] && continue
	echo "$l" | awk -v p="$(param_node bytes_promoted 1)" -v d="$(param_node bytes_demoted 0)" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		tot = v["hot_up"] + v["hot_low"]
		printf "%5.0fs %8d (%3d%%) %8d (%3d%%) %8d pages %9d MiB %8d MiB %8d MiB\n",
			v["t"] / 1000, v["hot_up"], v["hot_up"] * 100 / tot, v["hot_low"],
			v["hot_low"] * 100 / tot, v["cold_low"], v["up_free_mb"], p / 1048576, d / 1048576 }'
done
wait $load
grep 'tierload verify' /tmp/load.log
echo "# cat /sys/module/mm_tiering/parameters/status"
cat $P/status
echo N > $P/enabled && rmmod mm_tiering && echo "# disabled and removed"

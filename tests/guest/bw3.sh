#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bandwidth mode with three lower nodes behind one upper node
# (MMT_TOPO=nodes8): socket 0's DRAM (node0) and its
# CPU-less nodes 2, 3 and 4 at 36, 24 and 18 GB/s of HMAT read bandwidth
# beside node0's 72.  Each lower node's context splits the hot memory of
# its own node and node0 by their two bandwidths, so that together every
# node holds hot memory in proportion to its bandwidth: 4800, 2400, 1600
# and 1200 bp of a hot set that starts all on node4.  Negative control
# first, the same workload in capacity mode: node0 takes nearly all of it.
# Then an override of upper_share_bp, committed online: the contexts'
# targets follow (node0 6000 bp, the rest split by bandwidth).
. /mmt/lib.sh
HOT_MB=${HOT_MB:-160}
RUN_S=${RUN_S:-150}
plan 7
quiet_neighbours
on_socket 0

# the whole status (the parameter holds a page: eight nodes' lines in
# bandwidth mode come near it)
ST=/sys/kernel/debug/mm_tiering/status
I=access0/initiators/read_bandwidth
bw() { cat "/sys/devices/system/node/node$1/$I"; }
b0=$(bw 0) b2=$(bw 2) b3=$(bw 3) b4=$(bw 4)
info "HMAT read bandwidth (MB/s): node0 $b0, node2 $b2, node3 $b3, node4 $b4"
# The figures below are worked by hand from vm.sh's HMAT, not recomputed
# by the module's formula: read bandwidth 72, 36, 24 and 18 GB/s from
# socket 0 (the kernel reports 73728, 36864, 24576 and 18432 MB/s).  Each
# lower node's context: node0's share of the two, rounded to nearest.
PAIR="2:6667 3:7500 4:8000"
# the hot set split by bandwidth over all four, 72:36:24:18 of 10000
SPLIT="0:4800 2:2400 3:1600 4:1200"
# upper_share_bp=6000: node0 6000 of all, the rest 4000 split 36:24:18;
# each context's target u / (u + (1 - u) w), w the node's part of 78
OVERRIDE="2:7647 3:8297 4:8666"
# of LIST KEY: KEY's value in a "key:value ..." LIST
of() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2://p"; }

# share LOG NID N: NID's pages in bp of the workload's located pages, each
# of the last N samples (nodes= lists every node holding a page)
share() {
	awk -v nid="$2" '/tierload t=/ { t = 0; v = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^nodes=/) {
			k = split(substr($i, 7), a, ",")
			for (j = 1; j <= k; j++) { split(a[j], nv, ":")
				t += nv[2]; if (nv[1] == nid) v = nv[2] } }
		s[n++] = t ? int(v * 10000 / t) : -1 }
	END { for (i = n - '"$3"'; i < n; i++) if (i >= 0) printf "%d ", s[i]; print "" }' "$1"
}
median() { echo $1 | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# negative control: capacity mode puts the hot set on node0
modprobe mm_tiering enabled=Y
tierload -u 0 -l 4 -H "$HOT_MB" -C 0 -t 45 > /tmp/cap.log
rmmod mm_tiering
cap=$(median "$(share /tmp/cap.log 0 5)")
[ "$cap" -ge 9000 ]
check bw3_control_capacity_fills $? "capacity mode, hot set from node4: node0 holds $cap bp in the last 5 s (node2 $(median "$(share /tmp/cap.log 2 5)"), node3 $(median "$(share /tmp/cap.log 3 5)"), node4 $(median "$(share /tmp/cap.log 4 5)"))"

# each lower node's context: node0's share of the two, from HMAT
modprobe mm_tiering enabled=Y mode=bandwidth
rc=$?
sleep 2
bad=0 got=
[ "$b0 $b2 $b3 $b4" = "73728 36864 24576 18432" ] || bad=1
for l in 2 3 4; do
	want=$(of "$PAIR" $l)
	t=$(awk -v l="lower=$l" '/^pair=0 mode=bandwidth/ && $NF == l {
		split($4, a, "="); print a[2] }' $ST)
	got="$got node$l:${t:-none}/$want"
	[ "$t" = "$want" ] || bad=$((bad + 1))
done
n1=$(grep -c '^pair=1 mode=bandwidth' $ST)
info "status: $(wc -c < $ST) bytes in debugfs, $(wc -c < $P/status) in the parameter"
[ $rc -eq 0 ] && [ $bad -eq 0 ] && [ "$n1" -eq 3 ]
check bw3_pair_targets_from_hmat $? "rc=$rc; node0's share in each lower node's context (got/expected bp):$got; socket 1's lower nodes: $n1 lines (3 expected)"

tierload -u 0 -l 4 -H "$HOT_MB" -C 0 -t "$RUN_S" > /tmp/bw.log &
(while [ -e $P/status ]; do sleep 10; grep '^pair=0 mode' $ST | sed 's/^/MMT-STATUS /'; done) &
status_pid=$!
sleep $((RUN_S - 45))
# every node within 400 bp of its share, the median of the last 10 s
bad=0 got=
for n in 0 2 3 4; do
	want=$(of "$SPLIT" $n)
	m=$(median "$(share /tmp/bw.log $n 10)")
	got="$got node$n:$m/$want"
	[ "$m" -ge $((want - 400)) ] && [ "$m" -le $((want + 400)) ] ||
		bad=$((bad + 1))
done
[ $bad -eq 0 ]
check bw3_hot_set_by_bandwidth $? "hot set by node after $((RUN_S - 45)) s, median of the last 10 s (got/expected bp, +-400):$got"
info "last sample: $(grep 'tierload t=' /tmp/bw.log | tail -1 | cut -d' ' -f2-)"

# override online: node0 6000 bp of all, the rest split by bandwidth
echo 6000 > $P/upper_share_bp && echo Y > $P/commit_inputs
rc=$?
sleep 2
bad=0 got=
for l in 2 3 4; do
	want=$(of "$OVERRIDE" $l)
	t=$(awk -v l="lower=$l" '/^pair=0 mode=bandwidth/ && $NF == l {
		split($4, a, "="); print a[2] }' $ST)
	got="$got node$l:${t:-none}/$want"
	[ "$t" = $want ] || bad=$((bad + 1))
done
[ $rc -eq 0 ] && [ $bad -eq 0 ]
check bw3_override_targets $? "upper_share_bp=6000 committed: rc=$rc; each context's target (got/expected bp):$got"

wait_line 'tierload verify' /tmp/bw.log 120
kill $status_pid
grep -q 'bad_pages=0 ' /tmp/bw.log && grep -q 'bad_pages=0 ' /tmp/cap.log
check bw3_data_intact $? "$(grep -h verify /tmp/cap.log /tmp/bw.log | tr '\n' ' ')"
moved=$(awk '/tierload t=/ { split($0, a, " moved="); split(a[2], b, " "); m = b[1] } END { print m + 0 }' /tmp/bw.log)
info "bytes_promoted=$(cat $P/bytes_promoted) bytes_demoted=$(cat $P/bytes_demoted); pages moved at least once $moved"
[ "$(kdamonds | wc -l)" -eq 8 ]
check bw3_every_node_runs $? "kdamonds $(kdamonds | wc -l) (8 nodes)"
echo N > $P/enabled && rmmod mm_tiering && dmesg_clean > /dev/null
check bw3_clean_exit $? "disabled, removed, dmesg clean $(splat_head)"

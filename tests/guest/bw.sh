#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bandwidth mode: hot memory split between node0 and node1 by
# target shares, from HMAT's read bandwidth by default (72:26 GB/s).  A
# 400 MiB hot set starts on node1 with node0 mostly free.  Negative control
# first: capacity mode (the default) puts nearly all of it on node0.  Then
# mode=bandwidth, committed online: the share of hot pages on node0
# (counted by move_pages) must settle within +-3 % of the target; then an
# override of the share, committed online, must be followed.
. /mmt/lib.sh
plan 8
quiet_neighbours

# share FILE N: node0's share of the hot set in bp, each of the last N samples
share() {
	awk '/tierload setup/ { split($3, a, "="); hot = a[2] }
	/tierload t=/ { split($3, u, "="); s[n++] = int(u[2] * 10000 / hot) }
	END { for (i = n - '"$2"'; i < n; i++) if (i >= 0) printf "%d ", s[i]; print "" }' "$1"
}
# within LIST TARGET TOL: every value of LIST within TOL of TARGET
within() { echo "$1" | awk -v t="$2" -v d="$3" '{ if (!NF) exit 1
	for (i = 1; i <= NF; i++) if ($i < t - d || $i > t + d) exit 1 }'; }

# negative control: capacity mode, same workload
modprobe mm_tiering enabled=Y
tierload -H 400 -C 0 -t 40 > /tmp/cap.log
cap=$(share /tmp/cap.log 5)
within "$cap" 9750 250
check bw_control_capacity_fills $? "capacity mode: node0 share of the hot set, last 5 s: $cap bp"

# the default share, from the bandwidth the guest sees in sysfs: vm.sh's
# HMAT gives node0 72 and node1 26 GB/s of read bandwidth (the kernel
# reports 73728 and 26624 MB/s), so node0's share of the two is
# 73728 / 100352 = 7347 bp, rounded to nearest (worked by hand, not by the
# module's formula)
I=access0/initiators/read_bandwidth
b0=$(cat /sys/devices/system/node/node0/$I); b1=$(cat /sys/devices/system/node/node1/$I)
want=7347
# switched online, so that the distribution schemes and their goals reach
# the running context through damon_commit_ctx(): each node_eligible_mem_bp
# goal must keep its node id there (the shares below are measured on both
# nodes only if it does)
echo bandwidth > $P/mode && echo Y > $P/commit_inputs
sleep 2
tgt=$(status_kv 'pair=0 mode=bandwidth' share_target)
[ "$b0" = 73728 ] && [ "$b1" = 26624 ] && [ "$tgt" = "$want" ]
check bw_default_share_from_hmat $? "HMAT read bandwidth node0 $b0, node1 $b1 MB/s (73728 and 26624 expected): share_target=$tgt ($want expected)"
tgt=${tgt:-$want}

tierload -H 400 -C 0 -t 150 > /tmp/bw.log &
# the controller's view every 5 s, for the log
(while [ -e $P/status ]; do sleep 5; grep -E '^(pair|node)' $P/status | sed 's/^/MMT-STATUS /'; done) &
status_pid=$!
sleep 52
# DAMON's measure, node_eligible_mem_bp of node0, every 2 s for 18 s: one
# reading is noisy (regions flicker in and out of the hot pattern), their
# median is the converged share
damon=
for _ in 1 2 3 4 5 6 7 8 9; do
	sleep 2
	damon="$damon $(status_kv 'pair=0 mode=bandwidth' share)"
done
med=$(echo $damon | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
info "bandwidth mode at 70 s: $(grep '^pair=0 mode' $P/status)"
s1=$(share /tmp/bw.log 10)
within "$med" "$tgt" 300
check bw_eligible_share_converged $? "node_eligible_mem_bp of node0, seconds 54-70: median $med of$damon bp; target $tgt +-300"
# the workload's own count: its hot set is most, not all, of the hot
# memory DAMON sees (the process's other pages, the shell, page cache)
within "$s1" "$tgt" 500
check bw_hot_set_split $? "node0 share of the workload's hot set (move_pages), seconds 61-70: $s1 bp; target $tgt +-500"

# override online: half and half
echo 5000 > $P/upper_share_bp && echo Y > $P/commit_inputs
rc=$?
sleep 60
s2=$(share /tmp/bw.log 10)
info "after the override: $(grep '^pair=0 mode' $P/status)"
[ $rc -eq 0 ] && within "$s2" 5000 300
check bw_override_online $? "commit rc=$rc; upper_share_bp=5000: node0 share, last 10 s: $s2 bp"
kill $status_pid
wait
grep -q 'bad_pages=0 ' /tmp/bw.log && grep -q 'bad_pages=0 ' /tmp/cap.log
check bw_data_intact $? "$(grep -h verify /tmp/cap.log /tmp/bw.log | tr '\n' ' ')"
info "moved: promoted $(cat $P/bytes_promoted) demoted $(cat $P/bytes_demoted); $(grep '^node=1 scheme=push' $P/status)"
rmmod mm_tiering

# controller=N: the static distribution schemes move quota_mb_per_s, not a
# tenth of it (their quota resets once a second: sized for 100 ms they
# moved 3 MiB/s of 30).  30 MiB/s is within what TCG migrates (~35 MB/s).
tierload -H 400 -C 0 -t 40 -w /tmp/go3 > /tmp/static.log &
wait_line 'tierload setup' /tmp/static.log 120
modprobe mm_tiering enabled=Y mode=bandwidth controller=N quota_mb_per_s=30
touch /tmp/go3
sleep 10
moved=$(param_node bytes_promoted 1)
info "controller=N, 10 s: $(grep '^node=1 ' $P/status | tr '\n' ' ')"
rmmod mm_tiering
wait
[ "${moved:-0}" -ge $((100 << 20)) ]
check bw_static_budget $? "controller=N quota_mb_per_s=30: node1 promoted ${moved:-?} bytes in 10 s (at least 100 MiB; a tenth of the budget would be 30 MiB)"
dmesg_clean > /dev/null
check bw_dmesg_clean $? "$(splat_head)"

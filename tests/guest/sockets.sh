#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Two sockets (MMT_TOPO=sockets): CPU 0 with node0
# (1 GiB) and the CPU-less node2 behind it, CPU 1 with node1 and node3.
# One workload bound to each socket's CPU, its hot set first-touched on its
# socket's CPU-less node, its cold set filling its own DRAM to 100 MiB
# free.  Negative control first: 15 s without the module, the hot sets stay
# where they were touched.  Then mm_tiering: each lower node promotes to
# its own socket's DRAM, each DRAM demotes into its own lower node, so each
# hot set ends on its own socket's DRAM (>= 90 % within 60 s) and no page of
# either workload is ever seen on the other socket's nodes (FOREIGN0/1).
# Meanwhile socket 1's only CPU goes offline for 15 s and comes back: its
# DRAM stays an upper node (tiers follow the CPUs a node has, not those
# online), every kdamond runs on, and its hot set stays.  nodes8.sh runs
# the same with three CPU-less nodes behind each socket (LOW0, LOW1: where
# the hot sets start; EXPECT: the plan).
. /mmt/lib.sh
LOW0=${LOW0:-2}
LOW1=${LOW1:-3}
# each socket's nodes: socket 0's workload must never have a page on
# FOREIGN0, socket 1's never on FOREIGN1
FOREIGN0=${FOREIGN0:-"1 3"}
FOREIGN1=${FOREIGN1:-"0 2"}
HOT_MB=${HOT_MB:-120}
BOUND_S=${BOUND_S:-60}
CTL_S=15
plan 10
quiet_neighbours

# the plan the module must make: node=N tier=T target=M
EXPECT=${EXPECT:-"0 upper 2
1 upper 3
2 lower 0
3 lower 1"}
nnodes=$(echo "$EXPECT" | wc -l)

# each socket's workload, both set up before either runs
(on_socket 0; load_setup /tmp/s0.log -u 0 -l $LOW0 -H "$HOT_MB" -F 100 -t $((CTL_S + 75))) &
(on_socket 1; load_setup /tmp/s1.log -u 1 -l $LOW1 -H "$HOT_MB" -F 100 -t $((CTL_S + 75))) &
wait
info "affinity: $(for p in $(pidof tierload); do taskset -p $p; done | tr '\n' ' ')"
t0=$(cut -d' ' -f1 /proc/uptime)
load_go /tmp/s0.log
load_go /tmp/s1.log
sleep $CTL_S

# hot_pct LOG: the hot pages on the upper node in the last sample, in % of the hot set
hot_pct() {
	awk '/tierload setup/ { split($3, a, "="); hot = a[2] }
		/tierload t=/ { split($3, u, "="); up = u[2] }
		END { printf "%d\n", hot ? up * 100 / hot : -1 }' "$1"
}
c0=$(hot_pct /tmp/s0.log) c1=$(hot_pct /tmp/s1.log)
[ "$c0" -ge 0 ] && [ "$c0" -lt 10 ] && [ "$c1" -ge 0 ] && [ "$c1" -lt 10 ]
check control_no_module_no_promotion $? "after ${CTL_S} s without the module: ${c0} % of socket 0's hot set on node0, ${c1} % of socket 1's on node1"

modprobe mm_tiering enabled=Y
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
# plan_now: "node tier target" per node, as status gives them
plan_now() {
	awk '/^node=/ { split($1, n, "="); split($2, t, "="); split($4, g, "=");
		print n[2], t[2], g[2] }' $P/status | sort -n
}
got=$(plan_now)
[ $rc -eq 0 ] && [ "$got" = "$EXPECT" ] && [ "$(kdamonds | wc -l)" -eq "$nnodes" ]
check sockets_pairs $? "rc=$rc, kdamonds $(kdamonds | wc -l); node tier target: $(echo $got | tr '\n' ';')"

# socket 1's only CPU offline from 35 s after the enable (its hot set is
# on its DRAM by 25 s) for 15 s, then online; the plan, the kdamonds and
# enabled read while it is offline, and again after
pids=$(cat $P/kdamond_pids)
cpu=/sys/devices/system/cpu/cpu1/online
(sleep 35
 echo 0 > $cpu; rc=$?
 echo "offline rc=$rc online=$(cat $cpu) has_cpu=$(cat /sys/devices/system/node/has_cpu)" > /tmp/cpu.log
 sleep 15
 plan_now > /tmp/cpu.plan
 echo "kdamond_pids=$(cat $P/kdamond_pids) enabled=$(cat $P/enabled)" >> /tmp/cpu.log
 echo 1 > $cpu; rc=$?
 echo "online rc=$rc online=$(cat $cpu)" >> /tmp/cpu.log) &
cpuj=$!

# each socket's hot set on its own DRAM within BOUND_S of the enable
off_ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d\n", (b - a) * 1000 }')
wait_line 'tierload verify' /tmp/s0.log 200
wait_line 'tierload verify' /tmp/s1.log 60
wait $cpuj
[ "$(cat /tmp/cpu.plan)" = "$EXPECT" ] && [ "$(plan_now)" = "$EXPECT" ] &&
	grep -q '^offline rc=0 online=0 ' /tmp/cpu.log &&
	grep -qx "kdamond_pids=$pids enabled=Y" /tmp/cpu.log &&
	grep -q '^online rc=0 online=1$' /tmp/cpu.log &&
	[ "$(cat $P/kdamond_pids)" = "$pids" ]
check socket1_cpu_offline_kept $? "$(tr '\n' ';' < /tmp/cpu.log) plan while offline: $(tr '\n' ';' < /tmp/cpu.plan) (kdamond_pids before: $pids)"
for s in 0 1; do
	hot_within /tmp/s$s.log "$BOUND_S" "$off_ms" $s > /tmp/r$s
	check "socket${s}_hot_on_own_dram" $? "$(cat /tmp/r$s); last: $(grep 'tierload t=' /tmp/s$s.log | tail -1 | cut -d' ' -f2-7)"
	# nodes= gives the pages of both sets on each node, every sample
	eval f=\$FOREIGN$s
	# shellcheck disable=SC2154 # f: set by the eval
	m=$(awk -v f=" $f " '/tierload t=/ { x = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^nodes=/) {
			k = split(substr($i, 7), a, ",")
			for (j = 1; j <= k; j++) { split(a[j], nv, ":")
				if (index(f, " " nv[1] " ")) x += nv[2] } }
		if (x > m) m = x } END { print m + 0 }' /tmp/s$s.log)
	info "socket $s: largest count of pages under migration in a sample: $(awk '/tierload t=/ { split($13, u, "="); if (u[2] > m) m = u[2] } END { print m + 0 }' /tmp/s$s.log); last sample: $(grep 'tierload t=' /tmp/s$s.log | tail -1 | sed 's/.* nodes=/nodes=/')"
	# ... and sees every page: the last sample's nodes= and unknown= add
	# up to the pages verified
	seen=$(grep 'tierload t=' /tmp/s$s.log | tail -1 | awk '{ x = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^unknown=/) { split($i, u, "="); x += u[2] }
			if ($i ~ /^nodes=/) { k = split(substr($i, 7), a, ",")
				for (j = 1; j <= k; j++) { split(a[j], nv, ":"); x += nv[2] } } }
		print x }')
	all=$(sed -n 's/^tierload verify pages=\([0-9]*\).*/\1/p' /tmp/s$s.log)
	[ "$m" -eq 0 ] && [ "$seen" = "$all" ]
	check "socket${s}_nothing_crossed" $? "at most $m page(s) of socket $s's workload on the other socket's nodes ($f) in $(grep -c 'tierload t=' /tmp/s$s.log) samples; $seen of $all pages located in the last"
	grep -q 'tierload verify .* bad_pages=0 ' /tmp/s$s.log
	check "socket${s}_data_intact" $? "$(grep 'tierload verify' /tmp/s$s.log)"
done
info "$(grep -E '^(pair|node)=' $P/status | cut -c1-150)"
info "bytes_promoted=$(cat $P/bytes_promoted) bytes_demoted=$(cat $P/bytes_demoted)"

echo N > $P/enabled && rmmod mm_tiering && dmesg_clean > /dev/null
check clean_exit $? "disabled, removed, dmesg clean $(splat_head)"

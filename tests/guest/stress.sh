#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The stress suite of the sanitizer kernel (scripts/debug-kernel.sh; booted
# with panic_on_warn=1, so a KASAN, UBSAN, KFENCE, lockdep, atomic-sleep,
# debug-objects or list report ends the boot and every result below goes
# missing).  A tiering workload runs throughout and its bytes are verified
# at the end.
#   1. enabled Y/N cycles with the controller on while two readers poll the
#      outputs; then a kmemleak scan: no leak;
#   2. a commit_inputs storm with fault injection: each write fails the
#      Nth allocation of the writing task (fail-nth), and every other one
#      also fails one allocation of a kdamond (failslab with make-it-fail):
#      after each write, every node holds the new goals (the write
#      succeeded) or every node the old ones (it failed); a node whose
#      kdamond stopped says so in status and enabled reads N;
#   3. the restart that follows: enabled=Y runs every node again;
#   4. the rmmod/enabled race of race.sh, shorter;
#   5. bad inputs that the setters must refuse (upper_share_bp around the
#      bandwidth deadband) and a bandwidth-mode commit under load;
#   6. a kdamond that stops by itself at start-up (failslab aimed at
#      kdamond_fn by its stack-trace filter): enabled reads N, status says
#      which node and why, commit_inputs is refused (the other node alone
#      would take it), a memory event (node1's offline pc-dimm block
#      onlined: MMT_TOPO=stress) starts every node again, and so does
#      enabled=Y.
# mmt.scale=N on the kernel command line multiplies the counts; mmt.cycles=N
# sets the first one's.
. /mmt/lib.sh
plan 15
quiet_neighbours
scale=$(cmdline_arg scale)
scale=${scale:-1}
D=/sys/kernel/debug
F=$D/failslab
info "kernel $(uname -r); scale $scale"
# leak suspects from boot are not ours: only objects allocated from here on
echo clear > $D/kmemleak

# no TLB flushes (-T 0): this workload is load and bytes to verify, not a
# placement to measure (with them the suite took 1213 s, 812 s before)
tierload -H 200 -F 100 -t 100000 -T 0 -w /tmp/go -s /tmp/stop > /tmp/load.log &
load=$!
wait_line 'tierload setup' /tmp/load.log 300 || info "workload did not start"
touch /tmp/go
modprobe mm_tiering enabled=Y controller=Y control_period_ms=200
check stress_load $? "modprobe enabled=Y: $(cat $P/enabled)"

reader() {
	while :; do
		cat $P/status $P/kdamond_pids $P/bytes_promoted \
			$P/bytes_demoted $P/bytes_tried $P/enabled >/dev/null
	done
}
reader 2>/dev/null & r1=$!
reader 2>/dev/null & r2=$!
# mmt.cycles=N sets this count alone (1000 for a long run)
cycles=$(cmdline_arg cycles)
cycles=${cycles:-$((30 * scale))} i=0 bad=0
while [ $i -lt $cycles ]; do
	i=$((i + 1))
	echo N > $P/enabled || bad=$((bad + 1))
	echo Y > $P/enabled || bad=$((bad + 1))
done
kill $r1 $r2
wait $r1 $r2 2>/dev/null
[ $bad -eq 0 ] && [ "$(cat $P/enabled)" = Y ] &&
	[ "$(kdamonds | wc -l)" -eq 2 ]
check enable_cycles $? "$cycles Y/N cycles under 2 readers: $bad writes failed; enabled=$(cat $P/enabled), kdamonds $(kdamonds | wc -l)"

# 2. commit storm with fault injection (the static recipe: goals as typed)
for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait 2>/dev/null
	echo 0 > $D/$f/verbose 2>/dev/null
done
echo N > $P/controller && echo Y > $P/commit_inputs
writes=$((20 * scale)) w=0 refused=0 ok=0 mixed=0 injected=0 stopped=0
u0=$(status_field 1 goal_target) f0=$(status_field 0 goal_target)
while [ $w -lt $writes ]; do
	w=$((w + 1))
	u=$((9000 + w % 900)) f=$((300 + w % 50))
	echo $u > $P/promote_target_used_bp
	echo $f > $P/demote_target_free_bp
	if [ $((w % 2)) = 0 ]; then
		# one allocation of one kdamond fails
		echo Y > $D/failslab/task-filter
		echo 100 > $D/failslab/probability
		echo 1 > $D/failslab/times
		for k in $(kdamonds); do echo 1 > /proc/$k/make-it-fail; done
	fi
	# the writer's own Nth allocation fails (fail-nth counts this task's
	# fault points: slab and page allocations), N spread over the write
	# path; every fourth write without it
	n=0
	[ $((w % 4)) = 0 ] || n=$((1 + (w * 7) % 50))
	sh -c "echo $n > /proc/self/fail-nth; echo Y > $P/commit_inputs" 2>/dev/null
	rc=$?
	echo 0 > $D/failslab/probability
	for k in $(kdamonds); do echo 0 > /proc/$k/make-it-fail 2>/dev/null; done
	injected=$((injected + (n > 0) + (1 - w % 2)))
	gu=$(status_field 1 goal_target) gf=$(status_field 0 goal_target)
	if [ "$(cat $P/enabled)" = N ]; then
		stopped=$((stopped + 1))
		grep -q 'state=commit_failed\|state=kdamond_exited' $P/status ||
			{ mixed=$((mixed + 1)); info "write $w: enabled=N but no node says stopped"; }
		echo Y > $P/enabled
		u0=$(status_field 1 goal_target) f0=$(status_field 0 goal_target)
	elif [ $rc -eq 0 ]; then
		ok=$((ok + 1))
		[ "$gu" = $u ] && [ "$gf" = $f ] ||
			{ mixed=$((mixed + 1)); info "write $w ok: goals $gu/$gf, wrote $u/$f"; }
		u0=$gu f0=$gf
	else
		refused=$((refused + 1))
		[ "$gu" = "$u0" ] && [ "$gf" = "$f0" ] ||
			{ mixed=$((mixed + 1)); info "write $w refused: goals $gu/$gf, before $u0/$f0"; }
	fi
done
[ $mixed -eq 0 ] && [ $refused -gt 0 ] && [ $ok -gt 0 ]
check commit_storm_all_or_nothing $? "$writes commits, $injected faults injected: $ok applied, $refused refused with the old goals on every node, $stopped stopped a kdamond (restarted), $mixed mixed"
[ "$(cat $P/enabled)" = Y ] && [ "$(kdamonds | wc -l)" -eq 2 ]
check restart_after_storm $? "enabled=$(cat $P/enabled) kdamonds=$(kdamonds | wc -l)"

# 2b. every allocation of the writer fails once a budget of bytes is spent
# (failslab space, times -1), the budget swept upwards until a write
# applies: a failure half-way through the building of the scratch contexts
# must change no node.  Before the contexts were all built first, one built
# per node between commits, an exhausted budget failed node 1's build after
# node 0 had committed, then node 0's rollback build too: node 0 kept the new
# goals.
echo Y > $F/task-filter
echo -1 > $F/times
echo 1 > $F/interval
budget=0 bsteps=0 bref=0 bmixed=0 bapplied=
u0=$(status_field 1 goal_target) f0=$(status_field 0 goal_target)
while [ -z "$bapplied" ] && [ $bsteps -lt 64 ]; do
	bsteps=$((bsteps + 1))
	u=$((9100 + bsteps)) f=$((200 + bsteps))
	echo $u > $P/promote_target_used_bp
	echo $f > $P/demote_target_free_bp
	echo $budget > $F/space
	echo 100 > $F/probability
	sh -c "echo 1 > /proc/self/make-it-fail; echo Y > $P/commit_inputs" 2>/dev/null
	rc=$?
	echo 0 > $F/probability
	gu=$(status_field 1 goal_target) gf=$(status_field 0 goal_target)
	if [ $rc -eq 0 ]; then
		bapplied=$budget
		[ "$gu" = $u ] && [ "$gf" = $f ] || bmixed=$((bmixed + 1))
	else
		bref=$((bref + 1))
		[ "$gu" = "$u0" ] && [ "$gf" = "$f0" ] ||
			{ bmixed=$((bmixed + 1)); info "budget $budget: refused, goals $gu/$gf, before $u0/$f0"; }
	fi
	[ "$(cat $P/enabled)" = Y ] || { bmixed=$((bmixed + 1)); echo Y > $P/enabled; }
	budget=$((budget + 512))
done
echo 0 > $F/space
echo 1 > $F/times
[ $bmixed -eq 0 ] && [ $bref -gt 0 ] && [ -n "$bapplied" ]
check commit_budget_all_or_nothing $? "$bsteps commits, every writer allocation failing after a budget of 0..$((budget - 512)) bytes: $bref refused with the old goals on every node, applied at ${bapplied:-none}, $bmixed mixed"

# 6. a kdamond that stops by itself: its first allocation (kdamond_fn's
# score histogram, after damon_start() returned) fails
ks=$(awk '$3 == "kdamond_fn" { print $1; exit }' /proc/kallsyms)
ke=$(sort /proc/kallsyms | awk -v s="$ks" 'f && $1 != s { print $1; exit }
	$1 == s { f = 1 }')
echo N > $P/enabled
if [ -n "$ks" ] && [ -n "$ke" ] && [ -e $F/require-start ]; then
	echo N > $F/task-filter
	echo N > $F/ignore-gfp-wait
	echo 0 > $F/verbose
	echo 0x$ks > $F/require-start
	echo 0x$ke > $F/require-end
	echo 1 > $F/times
	echo 100 > $F/probability
	echo Y > $P/enabled
	rc=$?
	sleep 2
	st=$(cat $P/enabled)
	why=$(grep -o 'node=[0-9]* .*state=kdamond_exited err=[-0-9]*' $P/status |
		sed 's/ tier.*state=/ state=/')
	echo 0 > $F/probability
	echo 0 > $F/require-start
	echo 18446744073709551615 > $F/require-end
	# the other node runs on: a commit would not reach every node
	echo Y > $P/commit_inputs 2>/dev/null
	crc=$?
	# a memory event: the offline block of node1 (MMT_TOPO=stress: a
	# 128 MiB pc-dimm) comes online, and every node starts again on the
	# memory there is now (before, the other node went on monitoring what
	# it had).  Onlining moves no page; an offline would have to migrate
	# node1's pages into node0, which the workload keeps full.
	blk=$(offline_blocks 1 | head -1) pids0=$(kdamonds)
	on=0
	[ -n "$blk" ] && on=$(set_blocks online_movable $blk)
	t=0
	while [ $t -lt 30 ] && [ "$(cat $P/enabled)" != Y ]; do sleep 1; t=$((t + 1)); done
	st2=$(cat $P/enabled) k2=$(kdamonds | wc -l) pids2=$(kdamonds)
	[ $crc -ne 0 ] && [ "$st" = N ] && dmesg | grep -q 'commit_inputs: a node.s kdamond has stopped'
	check commit_refused_while_stopped $? "commit_inputs with node $(echo "$why" | cut -d' ' -f1) stopped: rc=$crc"
	[ "$on" = 1 ] && [ "$st2" = Y ] && [ "$k2" -eq 2 ] && [ "$pids2" != "$pids0" ] &&
		dmesg | grep -q 'a kdamond had stopped: starting every node again'
	check hotplug_restarts_stopped $? "node1 ${blk:-has no offline block}: $on online; enabled $st -> $st2 in $t s, kdamonds $(echo $pids0) -> $(echo $pids2)"
	echo Y > $P/enabled
	[ $rc -eq 0 ] && [ "$st" = N ] && [ -n "$why" ] &&
		[ "$(cat $P/enabled)" = Y ] && [ "$(kdamonds | wc -l)" -eq 2 ]
	check kdamond_exit_reported $? "fault in kdamond_fn (0x$ks..0x$ke): write rc=$rc, enabled then $st, status: ${why:-no node stopped}; after enabled=Y: $(cat $P/enabled), kdamonds $(kdamonds | wc -l)"
else
	echo Y > $P/enabled
	fail commit_refused_while_stopped "no kdamond stopped"
	fail hotplug_restarts_stopped "no kdamond stopped"
	fail kdamond_exit_reported "no kdamond_fn in /proc/kallsyms or no failslab stack filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"
fi

# 5. bad inputs: refused by the setter, with the reason
nbad=0
for v in 1 150 9850 9999 10000; do
	echo $v > $P/upper_share_bp 2>/dev/null && nbad=$((nbad + 1))
done
echo 151 > $P/upper_share_bp && echo 9849 > $P/upper_share_bp
ok=$?
[ $nbad -eq 0 ] && [ $ok -eq 0 ] &&
	dmesg | grep -q "upper_share_bp: invalid value '150': need 0 (from HMAT) or basis points 151..9849"
check share_deadband_bounds $? "5 values outside 151..9849 refused ($nbad accepted), 151 and 9849 accepted"
echo bandwidth > $P/mode && echo 9849 > $P/upper_share_bp &&
	echo Y > $P/controller && echo Y > $P/commit_inputs &&
	sleep 3 && echo 7000 > $P/upper_share_bp && echo Y > $P/commit_inputs &&
	sleep 3 && grep -q '^pair=0 mode=bandwidth' $P/status &&
	echo capacity > $P/mode && echo 0 > $P/upper_share_bp &&
	echo Y > $P/commit_inputs && [ "$(cat $P/enabled)" = Y ]
check bandwidth_commits $? "capacity -> bandwidth 9849 -> 7000 -> capacity under load: $(head -1 $P/status | cut -c1-100)"
# bandwidth mode with the shares from HMAT, committed online: the read
# bandwidths come from the cache module_init() filled, not from sysfs under
# mmt_lock (which lockdep reported when it was read there: possible
# circular locking, mmt_lock -> the seq_file lock of read_bandwidth, against
# a read of enabled: seq_file lock -> of->mutex -> param_lock -> mmt_lock)
echo bandwidth > $P/mode && echo 0 > $P/upper_share_bp &&
	echo Y > $P/commit_inputs && echo N > $P/enabled &&
	echo Y > $P/enabled && sleep 2
rc=$?
share=$(status_kv 'pair=0 mode=bandwidth' share_target)
I=access0/initiators/read_bandwidth
b0=$(cat /sys/devices/system/node/node0/$I) b1=$(cat /sys/devices/system/node/node1/$I)
# 73728 / (73728 + 26624) MB/s, rounded to nearest (bw.sh)
want=7347
echo capacity > $P/mode && echo Y > $P/commit_inputs
[ $rc -eq 0 ] && [ "$b0 $b1" = "73728 26624" ] && [ "$share" = $want ] &&
	[ "$(cat $P/enabled)" = Y ] &&
	! dmesg | grep -q 'possible recursive locking\|possible circular locking'
check bandwidth_hmat_commit $? "bandwidth mode from HMAT ($b0 and $b1 MB/s) committed under load, then enabled N/Y: rc=$rc share_target=${share:-none} ($want expected), lockdep $(dmesg | grep -c 'possible .* locking') reports"

# 4. rmmod racing enabled writers
writer() {
	while :; do
		echo Y > $P/enabled
		echo N > $P/enabled
	done
}
echo N > $P/enabled
rmmod mm_tiering
writer 2>/dev/null & wr=$!
rounds=$((5 * scale)) i=0 left=0
while [ $i -lt $rounds ]; do
	i=$((i + 1))
	modprobe mm_tiering enabled=Y
	# shellcheck disable=SC3028 # busybox ash has RANDOM
	sleep 0.$((RANDOM % 10))
	n=0
	while grep -q '^mm_tiering ' /proc/modules && [ $n -lt 100 ]; do
		rmmod mm_tiering 2>/dev/null
		n=$((n + 1))
	done
	sleep 0.1
	[ -n "$(kdamonds)" ] && left=$((left + 1))
done
kill $wr
wait $wr 2>/dev/null
[ $left -eq 0 ]
check rmmod_race $? "$rounds modprobe/rmmod rounds under an enabled writer: $left left a kdamond"

# the workload's bytes, then leaks
touch /tmp/stop
wait $load
grep -q 'bad_pages=0 ' /tmp/load.log
check bytes_intact $? "$(grep 'tierload verify' /tmp/load.log)"
echo scan > $D/kmemleak
sleep 5
echo scan > $D/kmemleak
leaks=$(grep -c '^unreferenced object' $D/kmemleak)
[ "$leaks" -eq 0 ]
check no_leaks $? "kmemleak: $leaks unreferenced objects"
[ "$leaks" -eq 0 ] || head -40 $D/kmemleak
dmesg_clean >/dev/null
check dmesg_clean $? "$(dmesg | grep -m1 -E 'WARNING|BUG|Oops|Call Trace' | cut -c1-100)"

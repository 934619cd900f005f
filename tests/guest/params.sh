#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scenario 6 and the modprobe line: every bad write is rejected with an
# error, reads back unchanged, and the running contexts keep their values;
# bad values on the modprobe line fail the load without starting anything;
# a good commit_inputs takes effect online; rmmod while enabled is clean.
. /mmt/lib.sh
plan 17
quiet_neighbours

# bad values on the modprobe line: clean refusal, nothing started
bad_load=0
for a in quota_mb_per_s=0 promote_target_used_bp=10001 demote_target_free_bp=-1 \
	 promote_target_used_bp=abc quota_mb_per_s=1048577 enabled=maybe; do
	if modprobe mm_tiering enabled=Y "$a" 2>/dev/null ||
	   grep -q '^mm_tiering ' /proc/modules || [ -n "$(kdamonds)" ]; then
		info "modprobe with $a was not refused cleanly"
		bad_load=1
		rmmod mm_tiering 2>/dev/null
	fi
done
[ $bad_load -eq 0 ]
check modprobe_bad_values_refused $? "6 bad modprobe lines: load failed, no kdamond"

# modules made by mkinitramfs.sh, each the installed one with a string
# changed: a DAMON function this kernel lacks (the load is refused, the
# symbol named), a build for another kernel of the same release (refused
# with ENOEXEC, which busybox's insmod words as "invalid module format",
# both versions named); the unchanged module loads right after this
insmod /mmt/ko/no-symbol.ko enabled=Y 2>/dev/null
rc=$?
[ $rc -ne 0 ] && ! grep -q '^mm_tiering ' /proc/modules && [ -z "$(kdamonds)" ] &&
	dmesg | grep -q 'cannot resolve DAMON symbol no_such_function'
check missing_symbol_refused $? "rc=$rc: $(dmesg | grep 'symbol(s) missing' | tail -1 | cut -c1-110)"

err=$(insmod /mmt/ko/other-kernel.ko enabled=Y 2>&1)
rc=$?
line=$(dmesg | grep "mm_tiering: built for kernel '" | tail -1)
[ $rc -ne 0 ] && ! grep -q '^mm_tiering ' /proc/modules && [ -z "$(kdamonds)" ] &&
	echo "$err" | grep -qi 'Exec format error\|invalid module format' &&
	echo "$line" | grep -qF "this is '$(uname -v)'"
check other_kernel_refused $? "rc=$rc ($err): ${line#*] }"

modprobe mm_tiering enabled=Y quota_mb_per_s=150
check modprobe_good_values $? "enabled=$(cat $P/enabled) quota=$(cat $P/quota_mb_per_s)"
g0=$(status_field 0 goal_target); g1=$(status_field 1 goal_target)

# the corpus: PARAM VALUE pairs that must each fail
nbad=0; nok=0
while read -r p v; do
	[ -z "$p" ] && continue
	old=$(cat "$P/$p")
	if echo "$v" > "$P/$p" 2>/dev/null; then
		info "accepted: $p='$v'"; nbad=$((nbad + 1))
	elif [ "$(cat "$P/$p")" != "$old" ]; then
		info "changed on error: $p='$v' $old -> $(cat "$P/$p")"; nbad=$((nbad + 1))
	else
		nok=$((nok + 1))
	fi
done <<'CORPUS'
promote_target_used_bp 0
promote_target_used_bp 10001
promote_target_used_bp -5
promote_target_used_bp abc
promote_target_used_bp 99999999999999999999999
promote_target_used_bp 12abc
promote_target_used_bp 
demote_target_free_bp 0
demote_target_free_bp 20000
demote_target_free_bp 0x
demote_target_free_bp 1.5
quota_mb_per_s 0
quota_mb_per_s 1048577
quota_mb_per_s -1
quota_mb_per_s ten
control_period_ms 99
control_period_ms 60001
controller maybe
upper_share_bp 1
upper_share_bp 150
upper_share_bp 9850
upper_share_bp 10000
mode fast
enabled maybe
enabled 2
commit_inputs maybe
upper_nodes 2
lower_nodes x
skip_nodes 0-4096
upper_nodes 1-
CORPUS
[ $nbad -eq 0 ] && [ $nok -eq 30 ]
check bad_writes_rejected $? "$nok of 30 bad writes rejected and read back unchanged"
dmesg | grep -q "mm_tiering: quota_mb_per_s: invalid value 'ten'"
check bad_writes_explained $? "$(dmesg | grep "quota_mb_per_s: invalid value 'ten'" | tail -1 | cut -c1-110)"

# status in debugfs: the same lines (a page-sized parameter cuts many nodes)
cut -d' ' -f1 $P/status > /tmp/st.param
cut -d' ' -f1 /sys/kernel/debug/mm_tiering/status > /tmp/st.dbg
[ -s /tmp/st.dbg ] && cmp -s /tmp/st.param /tmp/st.dbg && ! grep -q '^truncated' $P/status
check status_debugfs_same $? "$(wc -l < /tmp/st.dbg) lines in /sys/kernel/debug/mm_tiering/status, $(wc -l < /tmp/st.param) in the parameter"

# read-only outputs refuse writes
echo 5 > $P/bytes_promoted 2>/dev/null
[ $? -ne 0 ]
check readonly_outputs $? "bytes_promoted is read-only"

echo Y > $P/commit_inputs
[ "$(cat $P/enabled)" = Y ] && [ "$(status_field 0 goal_target)" = "$g0" ] &&
	[ "$(status_field 1 goal_target)" = "$g1" ] &&
	head -1 $P/status | grep -q 'quota=150 '
check running_config_kept $? "after the corpus and a commit: $(head -1 $P/status)"

# a good change applies online, without restart
pids=$(cat $P/kdamond_pids)
echo 7000 > $P/promote_target_used_bp && echo 1000 > $P/demote_target_free_bp &&
	echo 80 > $P/quota_mb_per_s && echo Y > $P/commit_inputs
rc=$?
[ $rc -eq 0 ] && [ "$(status_field 0 goal_target)" = 1000 ] &&
	[ "$(status_field 1 goal_target)" = 7000 ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] &&
	head -1 $P/status | grep -q 'quota=80'
check commit_applies_online $? "rc=$rc node0 free goal $(status_field 0 goal_target) node1 used goal $(status_field 1 goal_target) pids $pids -> $(cat $P/kdamond_pids)"

# the controller switched on and off online
echo Y > $P/controller && echo 500 > $P/control_period_ms && echo Y > $P/commit_inputs
on=$?
sleep 2
head -1 $P/status | grep -q 'controller=1 period_ms=500' && grep -q '^pair=0 ' $P/status
on=$((on + $?))
echo N > $P/controller && echo Y > $P/commit_inputs
head -1 $P/status | grep -q 'controller=0' && ! grep -q '^pair=' $P/status &&
	[ "$(cat $P/kdamond_pids)" = "$pids" ] && [ $on -eq 0 ]
check controller_toggles_online $? "on: $(grep '^pair' $P/status | cut -c1-60) off: $(head -1 $P/status)"

# a value the setter accepts commits: the bandwidth shares at the deadband
sh_rc=0
for v in 151 9849; do
	echo $v > $P/upper_share_bp && echo bandwidth > $P/mode &&
		echo Y > $P/commit_inputs &&
		head -1 $P/status | grep -q "mode=bandwidth upper_share_bp=$v" ||
		sh_rc=1
done
echo capacity > $P/mode && echo 0 > $P/upper_share_bp && echo Y > $P/commit_inputs &&
	[ "$(cat $P/enabled)" = Y ] && [ $sh_rc -eq 0 ]
check accepted_share_commits $? "upper_share_bp 151 and 9849 committed in bandwidth mode, back to capacity: $(head -1 $P/status | cut -c1-90)"

# the admin's tiers: the plan is readable as it would run; lists that
# overlap are refused at the commit, nothing changed; named tiers apply
# online (the nodes whose place changed restart); lists that leave no
# lower tier are refused; empty lists give the machine's tiers back
pids=$(cat $P/kdamond_pids)
p0=$(cat $P/plan | tr '\n' ';')
echo 1 > $P/upper_nodes && echo 1 > $P/lower_nodes
echo Y > $P/commit_inputs 2>/dev/null
rc=$?
p1=$(head -1 $P/plan)
case $p0 in
"from="*" upper=1 lower=1;node=0 tier=upper target=1;node=1 tier=lower target=0;") true ;;
*) false ;;
esac && [ $rc -ne 0 ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] &&
	case $p1 in invalid:*) true ;; *) false ;; esac &&
	dmesg | grep -q 'commit_inputs: node(s) 1 both in upper_nodes and in lower_nodes: refused'
check node_lists_overlap_refused $? "plan: $p0 overlap: commit rc=$rc, plan '$p1', pids $pids -> $(cat $P/kdamond_pids)"

echo 0 > $P/lower_nodes && echo Y > $P/commit_inputs
rc=$?
sleep 1
[ $rc -eq 0 ] && [ "$(status_field 0 tier)" = lower ] && [ "$(status_field 0 target)" = 1 ] &&
	[ "$(status_field 1 tier)" = upper ] && [ "$(status_field 1 target)" = 0 ] &&
	[ "$(kdamonds | wc -l)" = 2 ] && [ "$(cat $P/enabled)" = Y ] &&
	head -1 $P/status | grep -qE 'upper_nodes=1 lower_nodes=0 skip_nodes=( |$)'
check node_lists_apply_online $? "upper_nodes=1 lower_nodes=0: rc=$rc; node0 $(status_field 0 tier) to $(status_field 0 target), node1 $(status_field 1 tier) to $(status_field 1 target); kdamonds $pids -> $(cat $P/kdamond_pids)"

pids=$(cat $P/kdamond_pids)
echo > $P/upper_nodes && echo > $P/lower_nodes && echo 1 > $P/skip_nodes
echo Y > $P/commit_inputs 2>/dev/null
rc=$?
[ $rc -ne 0 ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] && [ "$(status_field 1 tier)" = upper ] &&
	dmesg | grep -q 'commit_inputs: the node lists leave no lower tier'
rc2=$?
echo > $P/skip_nodes && echo Y > $P/commit_inputs &&
	[ "$(status_field 0 tier)" = upper ] && [ "$(status_field 1 tier)" = lower ] &&
	[ "$(kdamonds | wc -l)" = 2 ] && [ $rc2 -eq 0 ]
check node_lists_no_lower_refused $? "skip_nodes=1: commit rc=$rc, kdamonds $pids -> $(cat $P/kdamond_pids); empty lists: node0 $(status_field 0 tier), node1 $(status_field 1 tier)"

# classes: where DAMON has memcg goals, a class commits, and bandwidth mode
# with classes is refused; elsewhere (6.12) the list is refused, naming the
# missing feature, and an empty one is accepted
mount -t cgroup2 none /sys/fs/cgroup && echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
	mkdir /sys/fs/cgroup/t
pids=$(cat $P/kdamond_pids)
kc=$(status_kv "kernel " classes)
case $kc in
damon)
	echo /t:1000 > $P/classes && echo Y > $P/commit_inputs &&
		grep -q '^class=/t share_bp=1000 state=active' $P/status &&
		echo bandwidth > $P/mode && ! echo Y > $P/commit_inputs 2>/dev/null &&
		dmesg | grep -q 'commit_inputs: classes work in capacity mode: refused' &&
		echo capacity > $P/mode && echo > $P/classes && echo Y > $P/commit_inputs &&
		! grep -q '^class=' $P/status && [ "$(cat $P/kdamond_pids)" = "$pids" ] ;;
none)
	! echo /t:1000 > $P/classes 2>/dev/null && [ -z "$(cat $P/classes)" ] &&
		dmesg | grep -q "classes: invalid value '/t:1000': this kernel's DAMON has no node_memcg_used_bp quota goals" &&
		echo > $P/classes ;;
*) false ;;
esac
check classes_by_kernel $? "kernel classes=$kc: $(dmesg | grep -E 'classes' | tail -1 | cut -c1-120); kdamonds $pids -> $(cat $P/kdamond_pids)"

rmmod mm_tiering && [ -z "$(kdamonds)" ] && dmesg_clean > /dev/null
check rmmod_while_enabled $? "rmmod while enabled: kdamonds left: $(kdamonds | wc -l)"

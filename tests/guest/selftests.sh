#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's own DAMON selftests and the mm migration selftest beside
# mm_tiering, in the Debian guest: tools/testing/selftests/damon of
# linux-source-7.3 (its TEST_PROGS, as its Makefile lists them;
# access_memory built by scripts/debian-guest.sh) and
# tools/testing/selftests/mm/migration (each of its test cases: pages moved
# between node0 and node1 with move_pages() while threads read them) run
# with mm_tiering enabled (a kdamond per node of its own, non-exclusive
# contexts, migrating the same pages), each test under a timeout; then,
# with the module unloaded and no kdamond left, the tests that did not pass
# run once more without it, the negative control of their result (a pass
# needs none).  migration wants three CPUs or more (booted with MMT_SMP=4).
# A test passes here when it passes with the module (kselftest's exit
# codes: 0 pass, 4 skip, other fail); one that skips or fails both ways is
# reported skipped (below, how a difference is judged); the one difference
# a test itself declares is
# asserted as such: reclaim.sh and lru_sort.sh skip when another kdamond runs (the
# DAMON_RECLAIM and DAMON_LRU_SORT modules start exclusively).  The module
# must still run, untouched, after them.
. /mmt/lib.sh
D=/mmt/selftests/damon
TMO=${TMO:-300}
M=/mmt/selftests/mm
tests=$(sed -n 's/^TEST_PROGS += //p' $D/Makefile | tr ' ' '\n' | grep -v '^$')
mtests=$(sed -n 's/^TEST_F_TIMEOUT(migration, \([a-z_]*\),.*/migration.\1/p' $M/migration.c)
# tests that skip by design while any other kdamond runs
EXCLUSIVE=" reclaim.sh lru_sort.sh "
all="$tests $mtests"
nall=$(echo $all | wc -w)
plan $((nall + 4))
[ -e /sys/module/damon_stat ] &&
	echo N > /sys/module/damon_stat/parameters/enabled
echo 0 > /proc/sys/kernel/numa_balancing

# sysfs_off: stop what a test left running in DAMON's sysfs (a timeout)
sysfs_off() {
	K=/sys/kernel/mm/damon/admin/kdamonds
	for f in $K/[0-9]*/state; do
		[ -e "$f" ] && echo off > "$f" 2>/dev/null
	done
	echo 0 > $K/nr_kdamonds 2>/dev/null
}
# run TAG: every test once; /tmp/TAG.rc holds "test rc" lines
run() {
	: > /tmp/$1.rc
	for t in $tests; do
		t0=$(cut -d. -f1 /proc/uptime)
		(cd $D && timeout $TMO ./$t) > /tmp/$1.$t.log 2>&1
		rc=$?
		sysfs_off
		echo "$t $rc" >> /tmp/$1.rc
		info "$1: $t rc=$rc in $(($(cut -d. -f1 /proc/uptime) - t0)) s ($(tail -1 /tmp/$1.$t.log | cut -c1-100))"
	done
	[ -n "$mtests" ] || return 0
	# migration's cases from its TAP lines: ok (0), ok # SKIP (4), not ok
	t0=$(cut -d. -f1 /proc/uptime)
	(cd $M && timeout $TMO ./migration) > /tmp/$1.migration.log 2>&1
	info "$1: migration rc=$? in $(($(cut -d. -f1 /proc/uptime) - t0)) s ($(grep -c '^ok' /tmp/$1.migration.log) ok)"
	for t in $mtests; do
		l=$(grep -E "^(not )?ok [0-9]+ $t( |\$)" /tmp/$1.migration.log)
		case $l in
		"ok "*"# SKIP"*) rc=4 ;;
		"ok "*) rc=0 ;;
		*) rc=1 ;;
		esac
		echo "$t $rc" >> /tmp/$1.rc
		info "$1: $t rc=$rc (${l:-no result})"
		[ $rc = 1 ] && info "$1: $t: $(sed -n "/^#  RUN .*\.${t#migration.} /,/^\(not \)\?ok /p" /tmp/$1.migration.log | tail -4 | tr '\n' ' ' | cut -c1-300)"
	done
}
# rc_of TAG TEST: TEST's result in run TAG
rc_of() { awk -v t=$2 '$1 == t { print $2 }' /tmp/$1.rc; }
# has WORD LIST: whether LIST holds WORD
has() { case " $(echo $2) " in *" $1 "*) return 0 ;; esac; return 1; }
word() { case $1 in 0) echo pass ;; 4) echo skip ;; *) echo "fail($1)" ;; esac; }

# only TESTS...: run() over those of the given tests ($tests and $mtests
# as they were before, after)
only() {
	all_tests=$tests all_mtests=$mtests tests='' mtests=''
	for t in $1; do
		if has $t "$all_mtests"; then mtests="$mtests $t"; else tests="$tests $t"; fi
	done
	shift
	"$@"
	tests=$all_tests mtests=$all_mtests
}

modprobe mm_tiering enabled=Y
pids=$(cat $P/kdamond_pids)
[ "$(cat $P/enabled)" = Y ]
check selftests_module_enabled $? "enabled=$(cat $P/enabled) kdamond_pids=$pids"
run with
# the module untouched by the tests: same kdamonds, still enabled
[ "$(cat $P/enabled)" = Y ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] &&
	grep -q '^node=1 .* state=running ' $P/status
check selftests_module_untouched $? "after: enabled=$(cat $P/enabled) kdamond_pids=$(cat $P/kdamond_pids) (before: $pids)"
# the negative control of every result but a pass, in a machine as it was
# before the module: unloaded, no kdamond of anyone's left
rmmod mm_tiering
unload=$?
kds=$(pgrep -x 'kdamond\..*' | wc -l)
notpass=
for t in $all; do
	has $t "$EXCLUSIVE" && continue
	[ "$(rc_of with $t)" = 0 ] || notpass="$notpass $t"
done
: > /tmp/without.rc
[ -n "$notpass" ] && only "$notpass" run without
# A result with the module is judged against the same test's without it.
# The same pass: PASS.  The same skip or the same failure: SKIP, not PASS
# (nothing was measured here: a tool the guest lacks, a test that fails on
# this machine either way).  A pass with the module where it failed
# without: PASS.  A failure (or skip) only with the module: the test runs
# $RERUNS more times with it, and each rerun must give the result it gave
# without, or it FAILs (DAMON's selftests time what they check, and under
# TCG beside another guest one fails now and then either way).  Every rerun
# is reported.
RERUNS=${RERUNS:-3}
retry=
for t in $all; do
	has $t "$EXCLUSIVE" && continue
	a=$(rc_of without $t) b=$(rc_of with $t)
	[ "$a" != "$b" ] && [ "$b" != 0 ] && retry="$retry $t"
done
reruns() { for r in $(seq $RERUNS); do run again$r; done; }
if [ -n "$retry" ]; then
	info "again with the module, $RERUNS times:$retry"
	modprobe mm_tiering enabled=Y
	only "$retry" reruns
	rmmod mm_tiering
fi
for t in $all; do
	a=$(rc_of without $t) b=$(rc_of with $t)
	d="with: $(word "$b"); without: $(word "$a")"
	[ -n "$a" ] || d="with: $(word "$b")"
	if has $t "$EXCLUSIVE"; then
		[ "$b" = 4 ] && grep -q 'Another kdamond is running' /tmp/with.$t.log
		check "selftest_$t" $? "$d ($(tail -1 /tmp/with.$t.log)): it skips beside any other kdamond"
	elif has $t "$retry"; then
		ok=0 again=
		for r in $(seq $RERUNS); do
			c=$(rc_of again$r $t)
			again="$again $(word "$c")"
			[ "$c" = "$a" ] || ok=1
		done
		check "selftest_$t" $ok "$d; again with it:$again (each must be $(word "$a"))"
	elif [ "$a" = "$b" ] && [ "$a" != 0 ]; then
		skip "selftest_$t" "$d: the same without the module, nothing measured ($(tail -1 /tmp/with.$t.log | cut -c1-80))"
	else
		pass "selftest_$t" "$d"
	fi
done
npass=$(awk '$2 == 0' /tmp/with.rc | wc -l)
nskip=$(awk '$2 == 4' /tmp/with.rc | wc -l)
info "with mm_tiering: $npass passed, $nskip skipped, $((nall - npass - nskip)) failed of $nall"
[ $unload -eq 0 ] && [ "$kds" -eq 0 ]
check selftests_unloaded_clean $? "rmmod rc=$unload; kdamonds left after it: $kds; then without the module:${notpass:- nothing (every test passed with it)}"
dmesg_clean > /dev/null
check selftests_dmesg_clean $? "$(splat_head)"

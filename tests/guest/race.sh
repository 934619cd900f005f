#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a management agent and an administrator do at the same time:
# a writer toggling enabled (and a reader polling the outputs) while the module
# is loaded and removed, round after round.  Before the fix a write landing
# during module_exit() started kdamonds that ran the freed module text (a
# kernel panic in the second round).  Asserted: the kernel survives every
# round, no kdamond or module is left after any round, dmesg is clean.
# Then, with DAMON_STAT on, modprobe enabled=Y: refused every time alone,
# and while a writer toggles enabled nothing of ours survives any load.
# mmt.scale=N on the kernel command line (MMT_SCALE) multiplies the rounds.
. /mmt/lib.sh
plan 4
quiet_neighbours
scale=$(cmdline_arg scale)
scale=${scale:-1}
# rounds, bounded in time too (TCG: a round is a module load, kprobe lookups
# and up to two kdamond starts); at least MIN_ROUNDS must run, and the
# rounds go on past secs until they have, up to max_secs: on a host that
# also builds the sanitizer kernel (a cold cache) a round took 9 s
# (the sanitizer kernel, several times slower, passes mmt.min_rounds=,
# mmt.race_secs= and mmt.race_max_secs=: a round took 30 to 50 s there)
rounds=$((200 * scale)) secs=$(cmdline_arg race_secs)
secs=$((${secs:-150} * scale))
max_secs=$(cmdline_arg race_max_secs)
max_secs=${max_secs:-$((secs * 3))}
MIN_ROUNDS=$(cmdline_arg min_rounds)
MIN_ROUNDS=${MIN_ROUNDS:-30}

# a short pause between writes: a busy loop would starve the test itself
# (two vCPUs taking turns in one TCG thread), and a removal takes tens of
# milliseconds (kdamonds stop), so writes still land inside it
writer() {
	while :; do
		echo Y > $P/enabled
		sleep 0.01
		echo N > $P/enabled
		sleep 0.01
	done
}
reader() {
	while :; do
		cat $P/status $P/kdamond_pids $P/bytes_promoted \
			$P/bytes_demoted $P/enabled >/dev/null
		sleep 0.02
	done
}

writer 2>/dev/null & w1=$!
reader 2>/dev/null & r1=$!
i=0 left=0 mods=0 loads=0 t0=$(date +%s)
# more_time: within secs, or within max_secs while short of MIN_ROUNDS
more_time() {
	el=$(($(date +%s) - t0))
	[ $el -lt $secs ] || { [ $i -lt $MIN_ROUNDS ] && [ $el -lt $max_secs ]; }
}
while [ $i -lt $rounds ] && more_time; do
	i=$((i + 1))
	modprobe mm_tiering enabled=$([ $((i % 2)) = 0 ] && echo Y || echo N) \
		2>/dev/null && loads=$((loads + 1))
	# land the removal at a different phase of the writers each round
	# shellcheck disable=SC3028 # busybox ash has RANDOM
	sleep 0.0$((RANDOM % 10))
	n=0
	while grep -q '^mm_tiering ' /proc/modules; do
		rmmod mm_tiering 2>/dev/null
		n=$((n + 1)); [ $n -gt 50 ] && break
	done
	if grep -q '^mm_tiering ' /proc/modules; then
		mods=$((mods + 1))
		[ $mods -le 3 ] && info "round $i: the module still loaded after $n rmmods"
	fi
	# with the module gone, no kdamond may run (DAMON_STAT is off)
	sleep 0.05
	k=$(kdamonds | wc -l)
	if [ "$k" -ne 0 ]; then
		left=$((left + 1))
		[ $left -le 3 ] && info "round $i: $k kdamond(s) without the module"
	fi
done
kill $w1 $r1
wait 2>/dev/null
refused=$(dmesg | grep -c 'enabled: the module is being removed')
info "$i rounds in $(($(date +%s) - t0)) s, $loads loads; writes refused during removal: $refused (rate-limited count)"
[ $i -ge $MIN_ROUNDS ] && [ $left -eq 0 ] && [ $mods -eq 0 ] && [ -z "$(kdamonds)" ] &&
	! grep -q '^mm_tiering ' /proc/modules
check rmmod_races_enabled_writers $? "$i rounds (at least $MIN_ROUNDS, in at most $max_secs s) of modprobe/rmmod under an enabled writer and a reader: rounds with a kdamond left $left, with the module left $mods"
dmesg_clean >/dev/null
check rmmod_race_dmesg_clean $? "$(splat_head)"

# a load that fails while enabled is toggled: DAMON_STAT running
# exclusively (Debian's kernels), else a DAMON symbol that does not resolve
# (a module made by mkinitramfs.sh)
stat=/sys/module/damon_stat/parameters/enabled
why="DAMON_STAT on"
load="modprobe mm_tiering"
[ -e $stat ] && echo Y > $stat
[ -e $stat ] || { load="insmod /mmt/ko/no-symbol.ko"; why="a DAMON symbol missing"; }
stat_pids=$(kdamonds)
# alone, every load refuses: enabled=Y cannot start
alone=0
for j in 1 2 3; do
	$load enabled=Y 2>/dev/null || alone=$((alone + 1))
	rmmod mm_tiering 2>/dev/null
done
writer 2>/dev/null & w1=$!
fails=0 j=0 stray=0
while [ $j -lt $((i / 4)) ] || [ $j -lt 3 ]; do
	j=$((j + 1))
	$load enabled=Y 2>/dev/null ||
		fails=$((fails + 1))
	rmmod mm_tiering 2>/dev/null
	# nothing of ours after any load, refused or not
	{ [ "$(kdamonds)" = "$stat_pids" ] && ! grep -q '^mm_tiering ' /proc/modules; } ||
		stray=$((stray + 1))
done
kill $w1
wait 2>/dev/null
# beside the writer a load refuses when enabled is still Y at
# module_init(); the writer may have written N by then, and that load
# succeeds starting nothing
[ $alone -eq 3 ] && [ $stray -eq 0 ] && [ "$(kdamonds)" = "$stat_pids" ] &&
	! grep -q '^mm_tiering ' /proc/modules
check failed_load_races_writer $? "alone $alone of 3 loads refused ($why); beside the writer $fails of $j refused, loads that left a kdamond or the module: $stray; kdamonds: $(kdamonds | wc -l) (before: $(echo $stat_pids | wc -w))"
[ -e $stat ] && echo N > $stat
dmesg_clean >/dev/null
check failed_load_dmesg_clean $? "$(splat_head)"

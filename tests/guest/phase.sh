#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Controller scenario: a hot set that moves, over a long tail.
# Two 200 MiB slices on node1, one hot at a time, the hot slice changing
# every PHASE_S seconds; every page of the RSS also gets a lukewarm trickle
# of reads (tierload -W); node0 filled by a cold set to 100 MiB free.  The
# same workload runs twice in this boot, side by side: mm_tiering with its
# feedback controller (the default), then with the controller off (static
# recipe: "accessed at all" promotes, "not accessed" demotes, fixed budget).
. /mmt/lib.sh
PHASE_S=${PHASE_S:-40}
PHASES=${PHASES:-2}
TAIL=${TAIL:-64}
# seconds after a shift by which 90 % of the new slice must be on node0
# (measured 9-19 s here with the controller; see Documentation/testing.rst)
BOUND=${BOUND:-30}
# Who tunes the quota from the goals: DAMON (7.x) or, where the kernel's
# tuner lacks what the module needs, the module standing in for it (6.12:
# status line "kernel ... goal_tuner=module").  The bars below hold for
# both; any other answer (none: the load failed) fails.
modprobe mm_tiering && tuner=$(status_kv kernel goal_tuner) && rmmod mm_tiering
plan 8
case $tuner in damon|module) true ;; *) false ;; esac
check phase_goal_tuner $? "goal_tuner=${tuner:-none}"
quiet_neighbours

# run MODE: one workload run; leaves /tmp/MODE.log and /tmp/MODE.bytes
run() {
	load_setup "/tmp/$1.log" -H 200 -K 2 -P "$PHASE_S" -F 100 -W "$TAIL" \
		-t $((PHASE_S * PHASES))
	if ! modprobe mm_tiering enabled=Y controller="$1"; then
		fail "phase_$1_start" "modprobe failed"
		load_go "/tmp/$1.log"
		wait
		return 1
	fi
	T=/sys/kernel/tracing
	[ -d $T/events ] || T=/sys/kernel/debug/tracing
	echo > $T/trace
	echo 1 > $T/events/mm_tiering/controller_step/enable
	load_go "/tmp/$1.log"
	# counters while the workload still runs: its exit frees memory that
	# the module would then fill
	sleep $((PHASE_S * PHASES - 2))
	echo $(( $(param_node bytes_promoted 1) + $(param_node bytes_demoted 0) )) > "/tmp/$1.bytes"
	info "controller=$1: $(head -1 $P/status); $(grep '^pair' $P/status)"
	info "controller=$1: promoted $(param_node bytes_promoted 1) demoted $(param_node bytes_demoted 0) bytes"
	wait
	echo 0 > $T/events/mm_tiering/controller_step/enable
	grep controller_step $T/trace > "/tmp/$1.trace"
	grep -c controller_step "/tmp/$1.trace" > "/tmp/$1.steps"
	sed 's/.*controller_step: /MMT-STEP /' "/tmp/$1.trace" | awk 'NR % 4 == 1'
	grep '^pair=0 free=' $P/status > "/tmp/$1.pair"
	rmmod mm_tiering
}

# phases FILE: per phase, seconds from its start to 90 % of its slice on node0
phases() {
	awk -v p="$PHASE_S" -v np="$PHASES" '
	/tierload setup/ { split($3, a, "="); hot = a[2] }
	/tierload t=/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		ph = v["phase"]; if (ph >= np) next; if (ph >= n) n = ph + 1
		if (!(ph in at) && v["hot_up"] * 100 >= 90 * hot) at[ph] = v["t"] / 1000 - ph * p }
	END { for (i = 0; i < n; i++) printf "%s ", (i in at) ? int(at[i] + 0.5) : "never"; print "" }' "$1"
}
# moved2 FILE: pages seen changing node twice or more, at the last sample
moved2() { grep 'tierload t=' "$1" | tail -1 | sed 's/.*moved2=\([0-9]*\).*/\1/'; }
# moved2_hot FILE [PHASE]: of them, pages of the two slices (at the last
# sample, or the last of PHASE)
moved2_hot() {
	grep 'tierload t=' "$1" | { [ -n "$2" ] && grep " phase=$2 " || cat; } |
		tail -1 | sed 's/.*moved2=\([0-9]*\) moved2_hot=\([0-9]*\).*/\2 of \1/'
}

for mode in Y N; do
	run $mode
	info "controller=$mode: seconds to 90% per phase: $(phases /tmp/$mode.log); pages moved twice or more: $(moved2 /tmp/$mode.log); of the slices: $(moved2_hot /tmp/$mode.log) ($(moved2_hot /tmp/$mode.log 0) at the first shift)"
done

b_on=$(cat /tmp/Y.bytes); b_off=$(cat /tmp/N.bytes)
m_on=$(moved2 /tmp/Y.log); m_off=$(moved2 /tmp/N.log)
grep -q 'bad_pages=0 ' /tmp/Y.log && grep -q 'bad_pages=0 ' /tmp/N.log
check phase_data_intact $? "both runs: $(grep -h verify /tmp/Y.log /tmp/N.log | tr '\n' ' ')"
# every phase of the controller run reaches 90 % within BOUND seconds
t_on=$(phases /tmp/Y.log)
echo "$t_on" | awk -v b="$BOUND" -v n="$PHASES" '{ if (NF != n) exit 1
	for (i = 1; i <= NF; i++) if ($i == "never" || $i > b) exit 1 }'
check phase_t90_bound $? "controller: 90% of each new slice on node0 after $t_on s (bound $BOUND s); static: $(phases /tmp/N.log) s"
# migration traffic, against what the workload asks for, not against the
# static recipe (admission bounds both, and cut a third to a half of the
# static recipe's bytes): each slice promoted once per phase and as much
# demoted for it, less node0's free memory at the start,
# is the least any policy moves.  The controller moves at most twice that
# (measured 1.4-1.8 times); the static recipe before admission moved 2.8
# times.  Pages moved twice or more: at most the slices' pages (the
# controller measured 44045-63783 of 102400; the static recipe before
# admission 115969-169228).
setup=$(grep -m1 'tierload setup' /tmp/Y.log)
hp=$(echo "$setup" | sed -n 's/.* hot_pages=\([0-9]*\).*/\1/p')
sl=$(echo "$setup" | sed -n 's/.* slices=\([0-9]*\).*/\1/p')
fm=$(echo "$setup" | sed -n 's/.* up_free_mb=\([0-9]*\).*/\1/p')
least=$(( (2 * ${hp:-0} * PHASES - ${fm:-0} * 256) * 4096 ))
traffic="bytes migrated: controller $b_on, static $b_off, the least the workload asks for $least"
pingpong="pages moved twice or more: controller $m_on, static $m_off (of $setup)"
[ "$b_on" -gt 0 ] && [ "$least" -gt 0 ] && [ "$b_on" -le $((least * 2)) ]
check phase_less_traffic $? "$traffic"
[ -n "$m_on" ] && [ -n "$hp" ] && [ -n "$sl" ] && [ "$m_on" -le $((hp * sl)) ]
check phase_less_pingpong $? "$pingpong"
# every event carries what status shows and the step's own time; status
# counted the steps the trace saw (give or take the ones around the trace's
# start and end)
steps=$(sed -n 's/.* steps=\([0-9]*\).*/\1/p' /tmp/Y.pair)
bad=$(awk '!/ waiting=[0-9]+ heat=[0-9]+ integ=-?[0-9]+ share=0 share_target=0 step_ns=[1-9][0-9]* young_bp=[0-9]+$/' /tmp/Y.trace | wc -l)
cost=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^step_ns=/) { split($i, a, "="); s += a[2]; n++; if (a[2] > m) m = a[2] } }
	END { if (n) printf "mean %d ns, max %d ns per step", s / n, m }' /tmp/Y.trace)
ev=$(cat /tmp/Y.steps)
[ "$ev" -ge $((PHASE_S * PHASES / 2)) ] && [ "$bad" = 0 ] && [ -n "$steps" ] &&
	[ "$steps" -ge "$ev" ] && [ "$steps" -le $((ev + 3)) ]
check controller_tracepoint $? "mm_tiering:controller_step events: controller on $ev ($bad without waiting/heat/integ/share/step_ns/young_bp), status steps=$steps; $cost"
[ "$(cat /tmp/N.steps)" -eq 0 ]
check static_no_steps $? "controller off: $(cat /tmp/N.steps) controller_step events"
dmesg_clean > /dev/null
check phase_dmesg_clean $? "$(splat_head)"

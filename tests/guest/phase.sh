#!/bin/sh
# Controller scenario (issue 4, in progress): a hot set that moves.  Two 200 MiB slices
# on node1, one hot at a time, the hot slice changing every PHASE_S seconds;
# node0 filled by a cold set to 100 MiB free.  The same workload runs twice
# in this boot: mm_tiering with its feedback controller, then with the
# controller off (static recipe, fixed budget); both are reported.
. /mmt/lib.sh
PHASE_S=${PHASE_S:-40}
PHASES=${PHASES:-2}
plan 4
quiet_neighbours

# run MODE: one workload run; leaves /tmp/MODE.log and /tmp/MODE.bytes
run() {
	modprobe mm_tiering enabled=Y controller="$1" ||
		{ fail "phase_$1_start" "modprobe failed"; return 1; }
	T=/sys/kernel/tracing
	[ -d $T/events ] || T=/sys/kernel/debug/tracing
	echo > $T/trace
	echo 1 > $T/events/mm_tiering/controller_step/enable
	tierload -H 200 -K 2 -P "$PHASE_S" -F 100 -t $((PHASE_S * PHASES)) \
		> "/tmp/$1.log" &
	# counters while the workload still runs: its exit frees memory that
	# the module would then fill
	sleep $((PHASE_S * PHASES - 2))
	echo $(( $(param_node bytes_promoted 1) + $(param_node bytes_demoted 0) )) > "/tmp/$1.bytes"
	info "controller=$1: $(head -1 $P/status); $(grep '^pair' $P/status)"
	info "controller=$1: promoted $(param_node bytes_promoted 1) demoted $(param_node bytes_demoted 0) bytes"
	wait
	echo 0 > $T/events/mm_tiering/controller_step/enable
	grep -c controller_step $T/trace > "/tmp/$1.steps"
	grep controller_step $T/trace | sed 's/.*controller_step: /MMT-STEP /' | head -60
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

for mode in Y N; do
	run $mode
	grep -q 'bad_pages=0 ' "/tmp/$mode.log" || info "controller=$mode: data check failed"
	info "controller=$mode: seconds to 90% per phase: $(phases /tmp/$mode.log)"
done

# What is asserted: both modes run the moving workload to its end with every
# byte intact, the controller steps once per period (its tracepoint) and
# moves pages, the static recipe has no controller steps.  What is only
# reported: seconds to 90 % per phase and bytes moved, per mode -- the
# controller does not yet beat the static recipe here (issue 4 is open).
b_on=$(cat /tmp/Y.bytes); b_off=$(cat /tmp/N.bytes)
info "seconds to 90% per phase: controller $(phases /tmp/Y.log)/ static $(phases /tmp/N.log); bytes moved: controller $b_on, static $b_off"
[ "$b_on" -gt 0 ] && [ "$b_off" -gt 0 ]
check phase_both_moved $? "migrated bytes: controller on $b_on, off $b_off"
grep -q 'bad_pages=0 ' /tmp/Y.log && grep -q 'bad_pages=0 ' /tmp/N.log
check phase_data_intact $? "both runs: $(grep -h verify /tmp/Y.log /tmp/N.log | tr '\n' ' ')"
[ "$(cat /tmp/Y.steps)" -ge $((PHASE_S * PHASES / 2)) ] && [ "$(cat /tmp/N.steps)" -eq 0 ]
check controller_tracepoint $? "mm_tiering:controller_step events: controller on $(cat /tmp/Y.steps), off $(cat /tmp/N.steps)"
dmesg_clean > /tmp/splat
check phase_dmesg_clean $? "$(head -3 /tmp/splat)"

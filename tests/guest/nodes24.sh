#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Twenty-four memory nodes (MMT_TOPO=nodes24): node0 with both
# CPUs and 1 GiB, 23 CPU-less nodes of 128 MiB behind it.  What only many
# nodes show:
# - status: every node's line makes more than a page (4096 bytes) here.
#   The parameter gets one page: it must end with a line that says it was
#   cut (every node is in debugfs), never a line cut in the middle or a node
#   silently missing (cut at the page, with no debugfs file).
# - commit_inputs hands every kdamond its context at once, so a commit waits
#   about one sampling interval in all, not one per node in series (24
#   idle nodes would make one commit wait a sampling interval per node,
#   under the parameter lock).
# Then a hot set first touched on the farthest node (23) is promoted to
# node0, bytes verified.
. /mmt/lib.sh
NN=24
plan 7
quiet_neighbours
DS=/sys/kernel/debug/mm_tiering/status

modprobe mm_tiering enabled=Y
rc=$?
nk=$(kdamonds | wc -l)
nl=$(grep -c '^node=.* state=running ' $DS 2>/dev/null)
[ $rc -eq 0 ] && [ "$nk" -eq $NN ] && [ "$nl" -eq $NN ] &&
	[ "$(grep -c '^node=[0-9]* tier=lower action=promote target=0 ' $DS)" -eq $((NN - 1)) ]
check nodes24_all_running $? "rc=$rc, $nk kdamonds, $nl node lines state=running in debugfs status; $(head -1 $P/status)"

# the parameter: at most a page, every line whole (a known line start and
# the node line's last field), the last one saying it was cut when a node
# is missing from it
cat $P/status > /tmp/st.param
sz=$(wc -c < /tmp/st.param)
pn=$(grep -c '^node=' /tmp/st.param)
dsz=$(wc -c < $DS 2>/dev/null || echo 0)
bad=$(grep -v -E '^(running=|kernel |pair=|truncated: )|^node=[0-9]+ .* (err=-?|pushed=)[0-9]+$' /tmp/st.param | wc -l)
if [ "$pn" -lt $NN ]; then tail -1 /tmp/st.param | grep -q '^truncated: '; else true; fi &&
	[ "$sz" -le 4096 ] && [ "$bad" -eq 0 ] && [ "$dsz" -gt 4096 ]
check status_cut_says_so $? "parameter: $sz bytes, $pn of $NN node lines, $bad line(s) not whole, last: $(tail -1 /tmp/st.param | cut -c1-60); debugfs: $dsz bytes, $(grep -c '^node=' $DS 2>/dev/null) node lines"

# idle: the controller backs off after ten idle periods and every context
# samples slowly.  ST: the whole status, or what the parameter holds of it
# (a module without the debugfs file: its pair line may be cut off, then
# 15 s are given to the back-off)
ST=$DS; [ -r $DS ] || ST=$P/status
i=0
while [ $i -lt 60 ]; do
	if grep -q '^pair=' $ST; then
		grep -q '^pair=.* backoff=0 ' $ST || break
	elif [ $i -ge 15 ]; then
		break
	fi
	sleep 1; i=$((i + 1))
done
# the nodes' sampling intervals: shortest, longest, and their sum (what
# waiting for each node in turn would take)
set -- $(awk '/^node=/ { for (f = 1; f <= NF; f++) { split($f, kv, "=")
	if (kv[1] != "sample_us") continue
	v = kv[2]; s += v; if (n++ == 0 || v < lo) lo = v; if (v > hi) hi = v } }
	END { print lo + 0, hi + 0, s + 0 }' $ST)
smin=$1 smax=$2 ssum=$3
info "after $i s: $(grep '^pair=' $ST | cut -c1-120); sample_us $smin..$smax ($(grep -c '^node=' $ST) nodes read)"
pids=$(cat $P/kdamond_pids)
# three commits: the same inputs, a new free goal, the default back
worst=0 rcs='' times=''
for v in same 2000 50; do
	[ $v = same ] || echo $v > $P/demote_target_free_bp
	a=$(cut -d' ' -f1 /proc/uptime)
	echo Y > $P/commit_inputs
	rcs="$rcs$?"
	b=$(cut -d' ' -f1 /proc/uptime)
	ms=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%d\n", (b - a) * 1000 }')
	times="$times $ms"
	[ $ms -gt $worst ] && worst=$ms
	[ $v = 2000 ] && g=$(status_kv running= free_bp)
done
# bound: two of the longest sampling interval, at least 0.5 s; it must be
# under half of what a commit waiting for each node in turn would take, or
# the check could not tell them apart
bound=$((2 * smax)); [ $bound -lt 500000 ] && bound=500000
[ "$rcs" = 000 ] && [ "$ssum" -gt $((2 * bound)) ] &&
	[ $((worst * 1000)) -lt $bound ] && [ "$g" = 2000 ] &&
	[ "$(status_kv running= free_bp)" = 50 ]
check commit_waits_one_sample $? "rc $rcs; commits took$times ms (bound $((bound / 1000)) ms: two sampling intervals of $((smax / 1000)) ms, at least 500; one per node in series: $((ssum / 1000)) ms); running free_bp=$g after the second, $(status_kv running= free_bp) after the third"
[ "$(cat $P/kdamond_pids)" = "$pids" ] && [ "$(echo $pids | wc -w)" -eq $NN ] &&
	! echo "$pids" | grep -q ':-'
check commits_kept_kdamonds $? "kdamonds $(echo $pids | cut -c1-60)... -> $(cat $P/kdamond_pids | cut -c1-60)..."

# a hot set on the farthest node, promoted to node0
load_setup /tmp/l.log -u 0 -l 23 -H 64 -C 64 -t 60
load_go /tmp/l.log
wait_line 'tierload verify' /tmp/l.log 120
hot_within /tmp/l.log 60 > /tmp/r1
check hot_from_node23_on_node0 $? "$(cat /tmp/r1); last: $(grep 'tierload t=' /tmp/l.log | tail -1 | cut -d' ' -f2-7)"
grep -q 'tierload verify .* bad_pages=0 ' /tmp/l.log
check data_intact $? "$(grep 'tierload verify' /tmp/l.log)"
info "bytes_promoted=$(cat $P/bytes_promoted | cut -c1-200)"

echo N > $P/enabled && rmmod mm_tiering && [ "$(kdamonds | wc -l)" -eq 0 ] &&
	dmesg_clean > /dev/null
check clean_exit $? "disabled, removed, dmesg clean $(splat_head)"

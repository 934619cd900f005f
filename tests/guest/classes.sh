#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Per-cgroup classes (the classes parameter): two cgroups, latency and
# batch, each run the workload with a 300 MiB hot set that starts on node1,
# while node0 has room for about 400 MiB of it (hugepages, which DAMON does
# not move, hold the rest).  Batch starts first and its hot set fills
# node0; latency starts HEAD_S s later.  Without classes (the negative
# control) latency gets what batch left free; with latency's class,
# batch's memory is demoted to make latency the room: latency has 90 % of
# its hot set on node0 within 60 s, and keeps it while batch's hot set
# grows; the shares change online without restarting the kdamonds;
# latency's cgroup removed, the module runs on and batch gets the room
# back.  Every byte of every run is verified at its end.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
ROOM_MB=${ROOM_MB:-400}
BOUND_S=${BOUND_S:-60}
HEAD_S=${HEAD_S:-20}
ROOM_S=${ROOM_S:-40}
CG=/sys/fs/cgroup
plan 12
quiet_neighbours

# cgroup_load CGROUP LOG TIERLOAD-ARGS...: load_setup, in CGROUP
cgroup_load() {
	_cg=$1 _log=$2
	shift 2
	rm -f "$_log.go"
	sh -c 'echo $$ > "$0/cgroup.procs" && exec tierload "$@"' \
		"$CG/$_cg" "$@" -w "$_log.go" > "$_log" &
	wait_line 'tierload setup' "$_log" 120
}
# hot_pct LOG: the share of LOG's hot set on node0 at its last sample, %
hot_pct() {
	awk '/tierload setup/ { split($3, a, "="); hot = a[2] }
		/tierload t=/ { split($3, u, "="); up = u[2] }
		END { printf "%d\n", hot ? up * 100 / hot : 0 }' "$1"
}
# reached LOG PCT BOUND_S FROM_MS [KEEP]: the first sample at or after
# FROM_MS with PCT % of the hot set on node0, within BOUND_S s of FROM_MS;
# then the least share of the later samples, which must be KEEP % at least
# (default 0).  Exit status 0 when both hold.
reached() {
	awk -v p="$2" -v b="$3" -v off="$4" -v keep="${5:-0}" '
		/tierload setup/ { split($3, a, "="); hot = a[2] }
		/tierload t=/ { split($2, t, "="); split($3, u, "=")
			if (t[2] < off) next
			if (at != "" && (low == "" || u[2] < low)) low = u[2]
			if (at == "" && u[2] * 100 >= p * hot) at = t[2] - off }
		END { if (at == "" || at > b * 1000) {
				print p "% of the hot set on node0 not within", b, "s"; exit 1 }
			if (low == "") low = hot
			print p "% of", hot, "hot pages on node0 after", at, "ms, least",
				int(low * 100 / hot) "% after"
			exit low * 100 < keep * hot }' "$1"
}
# last_t LOG: the time of LOG's last sample, ms
last_t() { awk '/tierload t=/ { split($2, t, "="); v = t[2] } END { print v + 0 }' "$1"; }
# samples LOG: LOG's samples as "t:hot_up" pairs on one line, for the report
samples() {
	awk '/tierload t=/ { split($2, t, "="); split($3, u, "="); printf "%d:%d ", t[2] / 1000, u[2] }' "$1"
	echo
}
# verified LOG...: every run's pages held what it wrote
verified() {
	for _l; do
		grep -q 'tierload verify pages=[0-9]* bad_pages=0 ' "$_l" || return 1
	done
}
# two_loads SUFFIX: enable tiering, start batch's workload, HEAD_S s later
# latency's (logs /tmp/batchSUFFIX.log, /tmp/latencySUFFIX.log); $head:
# batch's share of its hot set on node0 when latency started, %
two_loads() {
	for _c in latency batch; do
		cgroup_load $_c "/tmp/$_c$1.log" -H "$HOT_MB" -C 0 -t 900 \
			-s "/tmp/$_c$1.log.stop"
	done
	echo Y > $P/enabled
	load_go "/tmp/batch$1.log"
	sleep "$HEAD_S"
	head=$(hot_pct "/tmp/batch$1.log")
	load_go "/tmp/latency$1.log"
}
# room_demoted: bytes latency's room scheme on node0 demoted
room_demoted() {
	sed -n 's/^class=\/latency node=0 .*room_demoted=\([0-9]*\).*/\1/p' $P/status
}
# stop_loads LOG...: end the timed runs and wait for the verifies
stop_loads() {
	for _l; do touch "$_l.stop"; done
	wait
}

mount -t cgroup2 none $CG && echo +memory > $CG/cgroup.subtree_control &&
	mkdir $CG/latency $CG/batch
cg=$?
# node0's room for hot data: hugepages hold the rest
free0=$(node_mb 0 MemFree)
hp=$(( (free0 - ROOM_MB) / 2 ))
[ "$hp" -gt 0 ] &&
	echo "$hp" > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
room=$(node_mb 0 MemFree)
[ "$cg" -eq 0 ] && [ "$room" -le $((ROOM_MB + 40)) ] && [ "$room" -ge $((ROOM_MB - 40)) ]
check cgroup_setup $? "cgroup2 with the memory controller: rc=$cg; node0 free $free0 MiB, $hp hugepages, $room MiB left"
modprobe mm_tiering

# 1. the negative control: no class, node0 stays batch's; latency has
# what batch left free (hot pages are not demoted to make room)
two_loads -0
h0=$head
sleep "$BOUND_S"
reached /tmp/latency-0.log 90 "$BOUND_S" 0 > /tmp/r0
a0=$?
l0=$(hot_pct /tmp/latency-0.log) b0=$(hot_pct /tmp/batch-0.log)
stop_loads /tmp/latency-0.log /tmp/batch-0.log
echo N > $P/enabled
[ "$a0" -ne 0 ] && [ "$b0" -ge 80 ]
check control_shared $? "no class: batch $h0 % of its hot set on node0 when latency started; after ${BOUND_S} s latency $l0 %, batch $b0 %; latency $(cat /tmp/r0)"

# 2. refused, with the running list kept
echo /latency:7000 > $P/classes
before=$(cat $P/classes)
r1=0 r2=0 r3=0
echo /nosuch:1000 > $P/classes 2>/dev/null || r1=1
echo /latency:7000,/batch:3001 > $P/classes 2>/dev/null || r2=1
echo /latency:7000,/latency/x:100 > $P/classes 2>/dev/null || r3=1
[ $r1$r2$r3 = 111 ] && [ "$(cat $P/classes)" = "$before" ] &&
	dmesg | grep -q 'classes: invalid value ./nosuch:1000.: /nosuch: no such cgroup'
check classes_refused $? "unknown $r1, over-committed $r2, overlapping $r3 refused; kept '$(cat $P/classes)'; $(dmesg | grep 'classes: invalid' | tail -1 | cut -c1-160)"

# 3. latency's class: the room made, its hot set on node0 within BOUND_S,
# and kept
two_loads ""
grep -q "^class=/latency share_bp=7000 state=active" $P/status
check class_status $? "$(grep '^class=' $P/status | tr '\n' ' ')"
sleep "$BOUND_S"
reached /tmp/latency.log 90 "$BOUND_S" 0 > /tmp/r1
a1=$?
rd=$(room_demoted)
[ "$a1" -eq 0 ] && [ "${rd:-0}" -gt 0 ]
check class_protected $? "latency: $(cat /tmp/r1); batch $head % when latency started, $(hot_pct /tmp/batch.log) % after ${BOUND_S} s; room demoted ${rd:-?} bytes"
cat $P/status
# batch's hot set grows by 64 MiB: latency keeps its pages
t1=$(last_t /tmp/latency.log)
cgroup_load batch /tmp/batch2.log -H 64 -C 0 -t 600 -s /tmp/batch2.log.stop
load_go /tmp/batch2.log
sleep 20
reached /tmp/latency.log 90 5 "$t1" 90 > /tmp/r2
check class_kept $? "while batch grows: latency $(cat /tmp/r2), now $(hot_pct /tmp/latency.log) %; batch $(hot_pct /tmp/batch.log) %, batch2 $(hot_pct /tmp/batch2.log) %"

# 4. the shares changed online: the kdamonds stay
pids=$(cat $P/kdamond_pids)
echo /latency:6000,/batch:1000 > $P/classes && echo Y > $P/commit_inputs
rc=$?
[ "$rc" -eq 0 ] && [ "$(cat $P/kdamond_pids)" = "$pids" ] &&
	grep -q "^class=/latency share_bp=6000 state=active" $P/status &&
	grep -q "^class=/batch share_bp=1000 state=active" $P/status
check commit_online $? "commit rc=$rc, kdamonds $pids -> $(cat $P/kdamond_pids); $(grep '^class=/[a-z]* share' $P/status | tr '\n' ' ')"

# 5. latency's cgroup removed: the module runs on, batch gets the room
stop_loads_one() { touch "$1.stop"; while ! grep -q 'tierload verify' "$1"; do sleep 1; done; }
stop_loads_one /tmp/latency.log
rmdir $CG/latency
rm=$?
t2=$(last_t /tmp/batch.log)
echo Y > $P/commit_inputs
crc=$?
[ "$rm" -eq 0 ] && [ "$crc" -eq 0 ] && [ "$(cat $P/enabled)" = Y ] &&
	grep -q "^class=/latency share_bp=6000 state=idle" $P/status &&
	dmesg | grep -q 'commit_inputs: class /latency: no such cgroup'
check class_removed $? "rmdir rc=$rm, commit rc=$crc, enabled=$(cat $P/enabled); $(grep '^class=/latency share' $P/status)"
sleep "$ROOM_S"
reached /tmp/batch.log 90 "$ROOM_S" "$t2" > /tmp/r3
check room_to_others $? "batch: $(cat /tmp/r3); batch2 $(hot_pct /tmp/batch2.log) %"
stop_loads /tmp/batch.log /tmp/batch2.log
cat $P/status
for l in latency batch batch2; do info "$l (s:hot pages on node0): $(samples /tmp/$l.log)"; done

verified /tmp/latency-0.log /tmp/batch-0.log /tmp/latency.log /tmp/batch.log /tmp/batch2.log
check bytes_intact $? "$(grep -h 'tierload verify' /tmp/*.log | tr '\n' ' ')"
echo N > $P/enabled
rmmod mm_tiering
check rmmod $? "rmmod with classes"
dmesg_clean
check dmesg_clean $? "$(splat_head)"

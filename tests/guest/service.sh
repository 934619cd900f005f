#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Debian guest (systemd, Debian's 7.3.4 kernel with DAMON_STAT on at
# boot, mm-tiering-dkms and -tools installed with apt): mm-tiering.service as an admin
# uses it.  Two boots of one machine (guest-run reboots it when asked):
#   1: the unit is shipped disabled and nothing runs; without the module
#      the hot set stays on node1 (the negative control of boot 2's move);
#      a start that cannot work (DAMON_STAT left on) fails and systemctl
#      status gives the module's reason; then systemctl enable, reboot;
#   2: tiering runs after boot with no manual step (DAMON_STAT off and
#      numa_balancing 0 as /etc/default/mm-tiering says), a hot set
#      first-touched on node1 moves to node0, bytes intact; systemctl stop
#      leaves no kdamond and no module.  mm-tiering-status, as the package
#      installs it, reads the running module (JSON, a record, the table).
#      mm-tiering-bench refuses to run beside the service, then runs its
#      three modes.  Both packages upgraded with apt to the next version
#      while the service runs: it restarts on the new module; the tools
#      removed, it stops first.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-100}
COLD_MB=${COLD_MB:-128}
st=/var/lib/mmt-test
mkdir -p $st
boot=$(($(cat $st/boots 2>/dev/null || echo 0) + 1))
echo $boot > $st/boots
sync
loaded() { grep -c '^mm_tiering ' /proc/modules; }
stat_on() { cat /sys/module/damon_stat/parameters/enabled; }
# hot_share LOG PERCENT: "N of M" hot pages on node0 at the last sample;
# exit 0 when at least PERCENT % of them are, 1 when fewer, 2 without a
# sample
hot_share() {
	awk -v want="$2" '/tierload setup/ { split($3, a, "="); hot = a[2] }
		/tierload t=/ { split($3, u, "="); last = u[2]; n++ }
		END { printf "%d of %d hot pages on node0\n", last, hot
			if (!n || hot <= 0) exit 2
			exit !(last * 100 >= want * hot) }' "$1"
}

# bench_run: mm-tiering-bench's three modes, one run each, a small hot
# set: the table printed, the JSON's figures: with mm_tiering the hot set
# moves up (at least half of it, 30 points above no tiering, where it
# stays below 20 %), every byte intact in every run, and the settings the
# bench changed put back
bench_run() {
	nb=$(cat /proc/sys/kernel/numa_balancing) ds=$(stat_on)
	t0=$(date +%s)
	mm-tiering-bench --repeat 1 --seconds 20 --hot-mb 64 --free-mb 300 \
		--json /tmp/bench.json > /tmp/bench.out 2>&1
	rc=$?
	sed 's/^/MMT-INFO bench: /' /tmp/bench.out
	fig=$(python3 -c '
import json
r = json.load(open("/tmp/bench.json"))
s = {m: v[0] for m, v in r["runs"].items()}
ok = (s["mm_tiering"]["hot_upper_pct"] >= 50 and s["none"]["hot_upper_pct"] < 20 and
      s["mm_tiering"]["hot_upper_pct"] >= s["none"]["hot_upper_pct"] + 30 and
      all(x["bad_pages"] == 0 and x["throughput_mb_s"] > 0 for x in s.values()))
print("ok" if ok else "bad", " ".join("%s: %.0f%% up, %.0f MB/s, %.1f MiB moved" %
      (m, x["hot_upper_pct"], x["throughput_mb_s"], x["migrated_mib"]) for m, x in s.items()))
' 2>&1)
	[ $rc -eq 0 ] && [ "$(grep -cE '^ *(none|numa|mm_tiering) ' /tmp/bench.out)" = 3 ] &&
		[ "${fig%% *}" = ok ] && [ "$(loaded)" = 0 ] && [ "$(stat_on)" = "$ds" ] &&
		[ "$(cat /proc/sys/kernel/numa_balancing)" = "$nb" ]
	check bench_runs_three_modes $? "rc=$rc in $(($(date +%s) - t0)) s; ${fig#* }; after: mm_tiering loaded $(loaded), damon_stat=$(stat_on) (was $ds), numa_balancing=$(cat /proc/sys/kernel/numa_balancing) (was $nb)"
}

case $boot in
1)
	# 26: the last two, service_record_plot and service_metrics_parse,
	# are the host's (check.sh)
	plan 26
	en=$(systemctl is-enabled mm-tiering.service 2>&1)
	[ "$en" = disabled ] && [ "$(loaded)" = 0 ] && [ "$(stat_on)" = Y ]
	check service_shipped_disabled $? "is-enabled: $en; mm_tiering loaded: $(loaded); damon_stat=$(stat_on)"

	echo 0 > /proc/sys/kernel/numa_balancing
	tierload -H "$HOT_MB" -C "$COLD_MB" -t 20 > /tmp/neg.log
	hot_share /tmp/neg.log 50 > /tmp/r
	[ $? -eq 1 ]
	check control_no_service_no_promotion $? "without mm_tiering: $(cat /tmp/r)"

	cp /etc/default/mm-tiering /tmp/conf
	sed -i 's/^STOP_DAMON_STAT=.*/STOP_DAMON_STAT=no/' /etc/default/mm-tiering
	systemctl start mm-tiering.service
	rc=$?
	sleep 1
	systemctl status --no-pager -l -n 20 mm-tiering.service > /tmp/status 2>&1
	[ $rc -ne 0 ] && [ "$(loaded)" = 0 ] &&
		grep -q 'DAMON is running exclusively' /tmp/status
	check service_failure_explained $? "start rc=$rc: $(grep -m1 -o 'modprobe mm_tiering.*' /tmp/status | cut -c1-100); $(grep -m1 -o 'DAMON is running exclusively.*' /tmp/status | cut -c1-80)"
	cp /tmp/conf /etc/default/mm-tiering
	systemctl reset-failed mm-tiering.service

	systemctl enable mm-tiering.service 2>/dev/null
	check service_enable $? "is-enabled: $(systemctl is-enabled mm-tiering.service)"
	touch /run/mmt-reboot
	;;
2)
	info "after reboot: $(systemctl status --no-pager mm-tiering.service | grep -m1 'Active:')"
	act=$(systemctl is-active mm-tiering.service)
	[ "$act" = active ] && [ "$(cat $P/enabled)" = Y ] &&
		[ -n "$(cat $P/kdamond_pids)" ] && [ "$(stat_on)" = N ] &&
		[ "$(cat /proc/sys/kernel/numa_balancing)" = 0 ]
	check service_started_at_boot $? "$act: enabled=$(cat $P/enabled 2>/dev/null) kdamond_pids=$(cat $P/kdamond_pids 2>/dev/null) damon_stat=$(stat_on) numa_balancing=$(cat /proc/sys/kernel/numa_balancing)"

	# mm-tiering-status recording from 2 s before the workload starts, so
	# that the whole move (it can take a second) falls in its record
	b0=$(param_node bytes_promoted 1)
	mm-tiering-status record --interval 1 --count 20 /tmp/rec.csv &
	rec=$!
	sleep 2
	tierload -H "$HOT_MB" -C "$COLD_MB" -t 60 > /tmp/load.log &
	load=$!
	wait $rec
	b1=$(param_node bytes_promoted 1)
	mm-tiering-status --json > /tmp/st.json
	mm-tiering-status > /tmp/st.txt
	wait $load
	hot_share /tmp/load.log 90 > /tmp/r
	check service_tiering_moves_pages $? "after 60 s: $(cat /tmp/r); promoted $(param_node bytes_promoted 1) bytes"
	grep -q 'tierload verify .* bad_pages=0 ' /tmp/load.log
	check service_data_intact $? "$(grep 'tierload verify' /tmp/load.log)"

	# the tool's JSON names what status does; its record's rates add up
	# to its counters, which lie within the parameter's before and after
	# and the counters of DAMON_RECLAIM's names, and the step's own time
	want="0:$(status_field 0 tier):$(status_field 0 target) 1:$(status_field 1 tier):$(status_field 1 target) $(cat $P/kdamond_pids) counters step_ns"
	got=$(python3 -c 'import json
d = json.load(open("/tmp/st.json"))
n = d["nodes"]
names = ("nr_tried_regions", "nr_promoted_regions", "nr_demoted_regions", "nr_quota_exceeds")
print(" ".join("%s:%s:%s" % (k, n[k]["tier"], n[k]["target"]) for k in sorted(n)),
      " ".join("%s:%s" % (k, n[k]["kdamond_pids"]) for k in sorted(n)),
      "counters" if all(isinstance(n[k][c], int) for k in n for c in names) else "no-counters",
      "step_ns" if n["0"]["controller"].get("step_ns", 0) > 0 else "no-step_ns")' 2>&1)
	[ "$got" = "$want" ]
	check status_tool_json $? "mm-tiering-status --json: $got (status and kdamond_pids: $want)"
	# one version: the two packages', the module's MODULE_VERSION, the tool's
	v_pkg=$(dpkg-query -W -f='${Version}' mm-tiering-dkms 2>&1)
	v_tools=$(dpkg-query -W -f='${Version}' mm-tiering-tools 2>&1)
	v_mod=$(cat /sys/module/mm_tiering/version 2>&1)
	v_tool=$(mm-tiering-status --version 2>&1 | cut -d' ' -f2)
	[ -n "$v_pkg" ] && [ "$v_tools" = "$v_pkg" ] && [ "$v_mod" = "$v_pkg" ] &&
		[ "$v_tool" = "$v_pkg" ]
	check versions_agree $? "packages $v_pkg and $v_tools, module $v_mod, mm-tiering-status $v_tool"
	awk -F, -v b0="$b0" -v b1="$b1" 'NR == 1 { for (i = 1; i <= NF; i++) {
			if ($i == "node1_bytes_promoted") c = i
			if ($i == "node1_promoted_per_s") r = i } next }
		{ n++; if (n == 1) first = $c; else sum += $r * ($1 - t)
		  if ($c < last) bad = 1; last = $c; t = $1 }
		END { moved = last - first
			printf "%d samples, node1 promoted %d bytes in them, rates sum to %d; parameter %d..%d, CSV %d..%d\n",
				n, moved, sum, b0, b1, first, last
			d = sum - moved; if (d < 0) d = -d
			exit !(n == 20 && !bad && moved > 0 && first >= b0 && last <= b1 &&
				d <= moved / 100 + 4096 * n) }' /tmp/rec.csv > /tmp/r
	check status_tool_record $? "record: $(cat /tmp/r)"
	# the record, for the host to plot (service_record_plot, check.sh)
	sed 's/^/MMT-CSV /' /tmp/rec.csv
	rows=$(grep -cE '^ +[0-9]+ +(upper|lower) ' /tmp/st.txt)
	[ "$rows" = 2 ] && grep -qE '^ +1 +lower +0 +used_bp ' /tmp/st.txt
	check status_tool_table $? "$rows node rows: $(sed -n 3p /tmp/st.txt | tr -s ' ')"
	# a health check: 0 while every node runs; a user who may not read
	# the parameters is told so, without a traceback
	ok=$(mm-tiering-status --check 2>&1); rc_ok=$?
	nr=$(runuser -u nobody -- mm-tiering-status 2>&1); rc_nr=$?
	[ $rc_ok -eq 0 ] && [ "$ok" = "mm-tiering: ok: 2 nodes running" ] &&
		[ $rc_nr -eq 1 ] && echo "$nr" | grep -q 'run it as root' &&
		! echo "$nr" | grep -q Traceback
	check status_tool_check $? "--check rc=$rc_ok: $ok; as nobody rc=$rc_nr: $(echo "$nr" | tail -1 | cut -c1-100)"

	# the metrics unit writes node_exporter's textfile whole, only where
	# the collector's directory is, with the parameter's migrated bytes;
	# the host parses it with the Prometheus text parser
	# (service_metrics_parse, check.sh)
	prom=/var/lib/prometheus/node-exporter/mm_tiering.prom
	systemctl start mm-tiering-metrics.service
	skipped=0; [ -e $prom ] || skipped=1
	mkdir -p /var/lib/prometheus/node-exporter
	systemctl start mm-tiering-metrics.service
	rc=$?
	pb=$(param_node bytes_promoted 1)
	mb=$(sed -n 's/^mm_tiering_migrated_bytes_total{node="1",direction="promote"} //p' $prom 2>/dev/null)
	left=$(find /var/lib/prometheus/node-exporter -name '*.tmp' | wc -l)
	[ "$skipped" = 1 ] && [ $rc -eq 0 ] && grep -qx 'mm_tiering_up 1' $prom &&
		[ "$left" = 0 ] && [ -n "$mb" ] && [ "$b1" -le "$mb" ] && [ "$mb" -le "$pb" ]
	check status_tool_metrics $? "skipped without the directory: $skipped; rc=$rc, $(grep -c '^mm_tiering' $prom 2>/dev/null) samples, promoted $mb bytes (parameter $b1..$pb), temporary files left: $left"
	sed 's/^/MMT-PROM /' $prom
	systemctl list-timers --all --no-pager mm-tiering-metrics.timer > /tmp/timers 2>&1
	info "metrics timer: $(grep -c mm-tiering-metrics.timer /tmp/timers) listed, $(systemctl is-enabled mm-tiering-metrics.timer 2>&1)"

	# systemctl reload: /etc/default's PARAMS applied online, same kdamonds
	pids=$(cat $P/kdamond_pids)
	cp /etc/default/mm-tiering /tmp/conf
	sed -i 's/^PARAMS=.*/PARAMS="quota_mb_per_s=150"/' /etc/default/mm-tiering
	systemctl reload mm-tiering.service
	rc=$?
	[ $rc -eq 0 ] && head -1 $P/status | grep -q 'quota=150 ' &&
		[ "$(cat $P/kdamond_pids)" = "$pids" ] &&
		[ "$(systemctl is-active mm-tiering.service)" = active ]
	check service_reload_applies $? "reload rc=$rc: $(head -1 $P/status | cut -c1-70); kdamonds $pids -> $(cat $P/kdamond_pids)"
	cp /tmp/conf /etc/default/mm-tiering
	restore=$(cat /run/mm-tiering/restore 2>&1 | tr '\n' ' ')

	# the module's kdamonds (DAMON_STAT's, back on after the stop, is not)
	ours=$(cat $P/kdamond_pids | tr ' ' '\n' | cut -d: -f2)
	systemctl stop mm-tiering.service
	rc=$?
	left=$(for k in $ours; do [ -d /proc/$k ] && echo $k; done)
	[ $rc -eq 0 ] && [ "$(loaded)" = 0 ] && [ -n "$ours" ] && [ -z "$left" ] &&
		[ "$(systemctl is-active mm-tiering.service)" = inactive ]
	check service_stop_unloads $? "stop rc=$rc: $(systemctl is-active mm-tiering.service); mm_tiering loaded: $(loaded); the module's kdamonds $(echo $ours) left: ${left:-none}"
	# what start changed at boot is put back: DAMON_STAT on, numa_balancing
	# as the kernel booted with it
	nb=$(echo "$restore" | sed -n 's/.*numa_balancing=\([0-9]*\).*/\1/p')
	case $restore in *damon_stat=Y*) true ;; *) false ;; esac &&
		[ -n "$nb" ] && [ "$(cat /proc/sys/kernel/numa_balancing)" = "$nb" ] &&
		[ "$(stat_on)" = Y ] && [ ! -e /run/mm-tiering/restore ]
	check service_stop_restores $? "start had changed: $restore; after stop damon_stat=$(stat_on) numa_balancing=$(cat /proc/sys/kernel/numa_balancing)"
	mm-tiering-status > /tmp/st.txt 2>&1
	rc=$?
	mm-tiering-status --check > /tmp/ck.txt 2>&1
	rc_ck=$?
	[ $rc -eq 1 ] && grep -q 'mm_tiering is not loaded' /tmp/st.txt && [ $rc_ck -eq 1 ]
	check status_tool_not_loaded $? "rc=$rc: $(cat /tmp/st.txt); --check rc=$rc_ck"

	# a module loaded by hand: start enables it, with the service's choices
	modprobe mm_tiering
	systemctl start mm-tiering.service
	rc=$?
	[ $rc -eq 0 ] && [ "$(cat $P/enabled)" = Y ] && [ "$(kdamonds | wc -l)" = 2 ] &&
		[ "$(stat_on)" = N ] && [ "$(systemctl is-active mm-tiering.service)" = active ]
	check service_start_loaded_module $? "modprobe, then start rc=$rc: enabled=$(cat $P/enabled) kdamonds $(kdamonds | wc -l) damon_stat=$(stat_on)"

	# mm-tiering-bench as an admin runs it on this machine: not while
	# the service runs (it would stop it), then its three modes
	mm-tiering-bench --seconds 5 > /tmp/bench.out 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q 'mm-tiering.service is active' /tmp/bench.out &&
		[ "$(systemctl is-active mm-tiering.service)" = active ] && [ "$(cat $P/enabled)" = Y ]
	check bench_refuses_running_service $? "rc=$rc: $(cat /tmp/bench.out); service $(systemctl is-active mm-tiering.service), enabled=$(cat $P/enabled)"
	systemctl stop mm-tiering.service
	bench_run

	# a kernel DKMS did not build the module for: the unit is skipped,
	# not failed (ConditionPathExistsGlob)
	mkdir -p /tmp/ko
	mv /lib/modules/$(uname -r)/updates/dkms/mm_tiering.ko* /tmp/ko/
	systemctl start mm-tiering.service
	rc=$?
	cond=$(systemctl show -p ConditionResult --value mm-tiering.service)
	act=$(systemctl is-active mm-tiering.service)
	mv /tmp/ko/* /lib/modules/$(uname -r)/updates/dkms/
	[ $rc -eq 0 ] && [ "$cond" = no ] && [ "$act" = inactive ] && [ "$(loaded)" = 0 ] &&
		[ "$(stat_on)" = Y ]
	check service_skips_without_module $? "module moved away: start rc=$rc, ConditionResult=$cond, $act, loaded $(loaded), damon_stat=$(stat_on)"

	# both packages upgraded with apt while the service runs, to the next
	# version debian-guest.sh made (with DKMS's tarball of its module,
	# which the dkms package's postinst loads where it looks for one,
	# instead of compiling under TCG): the new module installed, the
	# service restarted onto it by the tools' postinst, the admin's
	# edit of /etc/default/mm-tiering kept and applied
	systemctl start mm-tiering.service
	pids=$(cat $P/kdamond_pids) v=$(cat /sys/module/mm_tiering/version)
	up=$(cat /var/tmp/mmt-upgrade/stamp)
	sed -i 's/^PARAMS=.*/PARAMS="quota_mb_per_s=120"/' /etc/default/mm-tiering
	mkdir -p /usr/share/mm-tiering-dkms
	cp "/var/tmp/mmt-upgrade/mm-tiering-$up.dkms.tar.gz" /usr/share/mm-tiering-dkms/
	t0=$(date +%s)
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		"/var/tmp/mmt-upgrade/mm-tiering-dkms_${up}_all.deb" \
		"/var/tmp/mmt-upgrade/mm-tiering-tools_${up}_all.deb" > /tmp/up.log 2>&1
	rc=$?
	now=$(cat $P/kdamond_pids 2>/dev/null) mv=$(cat /sys/module/mm_tiering/version 2>/dev/null)
	dk=$(dkms status mm-tiering 2>&1 | tr '\n' ' ')
	[ $rc -eq 0 ] && [ "$(systemctl is-active mm-tiering.service)" = active ] &&
		[ "$(cat $P/enabled 2>/dev/null)" = Y ] && [ -n "$now" ] && [ "$now" != "$pids" ] &&
		[ "$mv" = "$up" ] && [ "$v" != "$up" ] &&
		[ "$(dpkg-query -W -f='${Version}' mm-tiering-tools)" = "$up" ] &&
		case $dk in *"$up, $(uname -r), x86_64: installed"*) true ;; *) false ;; esac &&
		case $dk in *"$v,"*) false ;; *) true ;; esac &&
		grep -qx 'PARAMS="quota_mb_per_s=120"' /etc/default/mm-tiering &&
		head -1 $P/status | grep -q 'quota=120 '
	check package_upgrade_restarts_service $? "apt-get install $up over $v, service active: rc=$rc in $(($(date +%s) - t0)) s, $(systemctl is-active mm-tiering.service); module $v -> ${mv:-none}; kdamonds $pids -> ${now:-none}; dkms: $dk; $(grep '^PARAMS' /etc/default/mm-tiering), $(head -1 $P/status | grep -o 'quota=[0-9]*')"
	grep -E 'Loading tarball|Building|Error|error' /tmp/up.log | sed 's/^/MMT-INFO upgrade: /' | head -8
	# removed while the service runs: stopped first, so the module is
	# unloaded and what start changed is put back
	apt-get remove -y mm-tiering-tools > /tmp/rm.log 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ "$(loaded)" = 0 ] && [ "$(stat_on)" = Y ] &&
		[ ! -e /run/mm-tiering/restore ]
	check package_remove_stops_service $? "apt-get remove mm-tiering-tools, service active: rc=$rc; mm_tiering loaded: $(loaded); damon_stat=$(stat_on); $(grep -c '^Removing mm-tiering-tools' /tmp/rm.log) removed"

	dmesg_clean > /dev/null
	check service_dmesg_clean $? "$(splat_head)"
	;;
*)
	fail service_boots "booted $boot times (two expected)"
	;;
esac

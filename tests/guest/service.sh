#!/bin/sh
# The Debian guest (systemd, Debian's 7.3.4 kernel with DAMON_STAT on at
# boot, mm-tiering-dkms installed with apt): mm-tiering.service as an admin
# uses it.  Two boots of one machine (guest-run reboots it when asked):
#   1: the unit is shipped disabled and nothing runs; without the module
#      the hot set stays on node1 (the negative control of boot 2's move);
#      a start that cannot work (DAMON_STAT left on) fails and systemctl
#      status gives the module's reason; then systemctl enable, reboot;
#   2: tiering runs after boot with no manual step (DAMON_STAT off and
#      numa_balancing 0 as /etc/default/mm-tiering says), a hot set
#      first-touched on node1 moves to node0, bytes intact; systemctl stop
#      leaves no kdamond and no module.
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

case $boot in
1)
	plan 9
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

	tierload -H "$HOT_MB" -C "$COLD_MB" -t 60 > /tmp/load.log
	hot_share /tmp/load.log 90 > /tmp/r
	check service_tiering_moves_pages $? "after 60 s: $(cat /tmp/r); promoted $(param_node bytes_promoted 1) bytes"
	grep -q 'tierload verify .* bad_pages=0 ' /tmp/load.log
	check service_data_intact $? "$(grep 'tierload verify' /tmp/load.log)"

	systemctl stop mm-tiering.service
	rc=$?
	[ $rc -eq 0 ] && [ "$(loaded)" = 0 ] && [ -z "$(kdamonds)" ] &&
		[ "$(systemctl is-active mm-tiering.service)" = inactive ]
	check service_stop_unloads $? "stop rc=$rc: $(systemctl is-active mm-tiering.service); mm_tiering loaded: $(loaded); kdamonds: $(kdamonds | wc -l)"

	dmesg_clean > /tmp/splat
	check service_dmesg_clean $? "$(head -3 /tmp/splat)"
	;;
*)
	fail service_boots "booted $boot times (two expected)"
	;;
esac

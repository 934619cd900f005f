#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Negative control of scenario 1: the same workload, same neighbours off,
# no module.  The hot set must stay off node0, or a pass of tiering.sh would
# prove nothing.
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
FREE_MB=${FREE_MB:-100}
RUN_S=${RUN_S:-60}
plan 2
quiet_neighbours
tierload -H "$HOT_MB" -F "$FREE_MB" -t "$RUN_S" > /tmp/load.log
awk '/tierload setup/ { split($3, a, "="); hot = a[2] }
	/tierload t=/ { split($3, u, "="); last = u[2] }
	END { printf "%d of %d hot pages on node0 (%d%%)\n", last, hot, last * 100 / hot;
		exit !(last * 100 < 50 * hot) }' /tmp/load.log > /tmp/r
check control_no_module_no_promotion $? "without mm_tiering: $(cat /tmp/r)"
! grep -q '^mm_tiering ' /proc/modules && [ -z "$(kdamonds)" ]
check control_nothing_running $? "no module, no kdamond"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Negative control of scenario 1: the same workload, same neighbours off,
# no module.  The hot set must stay off node0, or a pass of tiering.sh would
# prove nothing: over the same run as tiering.sh's (its claim: 90 % on
# node0 within 90 s of a 120 s run), no sample may find even 10 % of the
# hot set on node0 (measured: 0 %).
. /mmt/lib.sh
HOT_MB=${HOT_MB:-300}
FREE_MB=${FREE_MB:-100}
RUN_S=${RUN_S:-120}
plan 2
quiet_neighbours
tierload -H "$HOT_MB" -F "$FREE_MB" -t "$RUN_S" > /tmp/load.log
awk '/tierload setup/ { split($3, a, "="); hot = a[2] }
	/tierload t=/ { split($3, u, "="); last = u[2]; n++; if (u[2] > most) most = u[2] }
	END { printf "%d of %d hot pages on node0 at the end (%d%%), at most %d in %d samples over %d s\n",
			last, hot, hot ? last * 100 / hot : 0, most, n, run
		exit !(n > 0 && hot > 0 && most * 100 < 10 * hot) }' run="$RUN_S" /tmp/load.log > /tmp/r
check control_no_module_no_promotion $? "without mm_tiering: $(cat /tmp/r)"
! grep -q '^mm_tiering ' /proc/modules && [ -z "$(kdamonds)" ]
check control_nothing_running $? "no module, no kdamond"

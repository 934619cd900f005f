/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mm_tiering

#if !defined(_MMT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MMT_TRACE_H

#include <linux/tracepoint.h>

#include "mmt_ctl.h"

/*
 * One control step of a tier pair (see mmt_loop.c), bytes per period:
 * budgets (demote, promote) and what moved in the period (moved_up,
 * moved_down: deltas of the schemes' applied bytes); what status shows of
 * the decision (waiting: hot bytes waiting that fit the budget, scaled by
 * young_bp, the young share of what promotion walked, in bp; heat: the
 * promotion threshold, integ: the PI law's integral; share and
 * share_target in bp, bandwidth mode only) and the step's own time in ns
 * (observe, decide, act).  Pointers to the pair's observation and step:
 * BPF's tracepoint glue takes at most 12 arguments.
 */
TRACE_EVENT(controller_step,
	TP_PROTO(int upper, const struct mmt_obs *o, const struct mmt_step *st,
		 s64 integ, bool bw, u64 step_ns),
	TP_ARGS(upper, o, st, integ, bw, step_ns),
	TP_STRUCT__entry(
		__field(int, upper)
		__field(u64, free)
		__field(u64, goal)
		__field(s64, err)
		__field(u64, demote)
		__field(u64, promote)
		__field(u64, moved_up)
		__field(u64, moved_down)
		__field(unsigned int, level)
		__field(bool, backoff)
		__field(u64, waiting)
		__field(unsigned int, heat)
		__field(s64, integ)
		__field(unsigned long, share)
		__field(unsigned long, share_target)
		__field(u64, step_ns)
		__field(unsigned long, young_bp)
	),
	TP_fast_assign(
		__entry->upper = upper;
		__entry->free = o->free;
		__entry->goal = st->target;
		__entry->err = st->err;
		__entry->demote = st->demote;
		__entry->promote = st->promote + st->push;
		__entry->moved_up = o->moved_up;
		__entry->moved_down = o->moved_down;
		__entry->level = st->level;
		__entry->backoff = st->backoff;
		__entry->waiting = st->want;
		__entry->heat = st->heat;
		__entry->integ = integ;
		__entry->share = bw ? o->share : 0;
		__entry->share_target = bw ? o->share_target : 0;
		__entry->step_ns = step_ns;
		__entry->young_bp = st->young_bp;
	),
	TP_printk("node=%d free=%llu goal=%llu err=%lld demote=%llu promote=%llu moved_up=%llu moved_down=%llu level=%u backoff=%d waiting=%llu heat=%u integ=%lld share=%lu share_target=%lu step_ns=%llu young_bp=%lu",
		  __entry->upper, __entry->free, __entry->goal, __entry->err,
		  __entry->demote, __entry->promote, __entry->moved_up,
		  __entry->moved_down, __entry->level, __entry->backoff,
		  __entry->waiting, __entry->heat, __entry->integ,
		  __entry->share, __entry->share_target, __entry->step_ns,
		  __entry->young_bp)
);

#endif /* _MMT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mmt_trace
#include <trace/define_trace.h>

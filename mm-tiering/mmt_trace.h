/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mm_tiering

#if !defined(_MMT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MMT_TRACE_H

#include <linux/tracepoint.h>

/*
 * One control step of a tier pair (see mmt_loop.c), bytes per period:
 * budgets (demote, promote) and what moved in the period (moved_up,
 * moved_down: deltas of the schemes' applied bytes).
 */
TRACE_EVENT(controller_step,
	TP_PROTO(int upper, u64 free, u64 goal, s64 err, u64 demote,
		 u64 promote, u64 moved_up, u64 moved_down, unsigned int level,
		 bool backoff),
	TP_ARGS(upper, free, goal, err, demote, promote, moved_up, moved_down,
		level, backoff),
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
	),
	TP_fast_assign(
		__entry->upper = upper;
		__entry->free = free;
		__entry->goal = goal;
		__entry->err = err;
		__entry->demote = demote;
		__entry->promote = promote;
		__entry->moved_up = moved_up;
		__entry->moved_down = moved_down;
		__entry->level = level;
		__entry->backoff = backoff;
	),
	TP_printk("node=%d free=%llu goal=%llu err=%lld demote=%llu promote=%llu moved_up=%llu moved_down=%llu level=%u backoff=%d",
		  __entry->upper, __entry->free, __entry->goal, __entry->err,
		  __entry->demote, __entry->promote, __entry->moved_up,
		  __entry->moved_down, __entry->level, __entry->backoff)
);

#endif /* _MMT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mmt_trace
#include <trace/define_trace.h>

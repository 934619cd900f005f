/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering controller laws: pure functions and small state machines, no
 * kernel state.  The module's control loop feeds them observations once per
 * control period; KUnit (kunit/mmt_ctl_test.c) drives them with simulated
 * ones.  The model and the reasons of every constant are in mmt_ctl.c.
 */
#ifndef _MMT_CTL_H
#define _MMT_CTL_H

#include <linux/types.h>

/* ---- PI law with anti-windup ---- */

/**
 * struct mmt_pi - proportional-integral law on an error in bytes.
 * @kp_milli:	proportional gain in 1/1000
 * @ki_milli:	integral gain in 1/1000 per period
 * @integ_max:	bound of |@integ|, in bytes
 * @integ:	accumulated error (state)
 * @shrink_only: set by the caller for a step whose error is a transient
 *		(a goal raised for a while): @integ may then only shrink
 *		towards zero, as while saturated the error's way
 */
struct mmt_pi {
	s64 kp_milli;
	s64 ki_milli;
	s64 integ_max;
	s64 integ;
	bool shrink_only;
};

s64 mmt_pi_step(struct mmt_pi *pi, s64 err, s64 lo, s64 hi);

/* ---- ping-pong detector ---- */

#define MMT_PP_WINDOW		32	/* periods */
#define MMT_PP_MAX_LEVEL	4

/**
 * struct mmt_pp_cfg - ping-pong detector tuning.
 * @capacity:		bytes of the upper node: moving more than this both
 *			ways within one window means pages moved twice
 * @min_bytes:		a period is quiet if either way moved less than this
 * @relax_periods:	quiet periods before the level drops by one
 * @busy_periods:	a full window with at least this many periods moving
 *			@min_bytes or more both ways is churn too (0: off)
 */
struct mmt_pp_cfg {
	u64 capacity;
	u64 min_bytes;
	unsigned int relax_periods;
	unsigned int busy_periods;
};

/**
 * struct mmt_pingpong - ping-pong detector state.
 * @prom:	promoted bytes of the last MMT_PP_WINDOW periods (ring)
 * @dem:	demoted bytes of the same periods
 * @pos:	next ring slot
 * @filled:	valid slots
 * @level:	damping level, 0 (none) .. MMT_PP_MAX_LEVEL
 * @quiet:	consecutive periods without two-way movement
 */
struct mmt_pingpong {
	u64 prom[MMT_PP_WINDOW];
	u64 dem[MMT_PP_WINDOW];
	unsigned int pos;
	unsigned int filled;
	unsigned int level;
	unsigned int quiet;
};

unsigned int mmt_pingpong_update(struct mmt_pingpong *pp,
				 const struct mmt_pp_cfg *cfg,
				 u64 promoted, u64 demoted);
u64 mmt_pp_budget(u64 budget, unsigned int level);

/* ---- static-pattern back-off ---- */

/**
 * struct mmt_bo_cfg - back-off tuning.
 * @idle_bytes:		a period is idle if it moved less than this
 * @idle_periods:	idle periods in a row before backing off
 * @wake_bytes:		demand (eligible bytes or goal shortfall) that resumes
 */
struct mmt_bo_cfg {
	u64 idle_bytes;
	unsigned int idle_periods;
	u64 wake_bytes;
};

/**
 * struct mmt_backoff - back-off state.
 * @idle:	idle periods in a row
 * @backed_off:	migration and monitoring are cut down
 */
struct mmt_backoff {
	unsigned int idle;
	bool backed_off;
};

bool mmt_backoff_update(struct mmt_backoff *bo, const struct mmt_bo_cfg *cfg,
			u64 moved, u64 demand);

/* ---- heat: comparing regions of contexts that sample differently ---- */

/*
 * Heat bucket of a region: 0 when not seen accessed, else k for an observed
 * rate of [2^(k-1), 2^k) accessed samples per second, the last bucket open
 * (and holding what was seen accessed in every sample).
 */
#define MMT_NR_HEAT		12

unsigned int mmt_heat_bucket(unsigned int nr_accesses, unsigned int max_nr,
			     unsigned long aggr_us);
unsigned int mmt_heat_min_accesses(unsigned int bucket, unsigned int max_nr,
				   unsigned long aggr_us);
/*
 * A region of the upper node not seen accessed for this long (its age, in
 * microseconds) is idle: colder than anything seen accessed at all.
 */
#define MMT_IDLE_US		(10ULL * 1000 * 1000)

bool mmt_region_idle(unsigned int bucket, unsigned int age,
		     unsigned long aggr_us);
unsigned int mmt_pick_heat(const u64 *low, const u64 *up, u64 idle, u64 room,
			   unsigned int gap);
u64 mmt_heat_sum(const u64 *heat, unsigned int from, unsigned int to);
u64 mmt_want_cap(u64 moved_up, u64 room, u64 budget);
unsigned long mmt_young_share(u64 passed, u64 tried, unsigned long last_bp);
u64 mmt_promote_budget(u64 budget, unsigned long young_bp);

/* ---- the whole step of a tier pair: observe (caller), decide (here) ---- */

/**
 * struct mmt_obs - what the loop observed of one tier pair this period.
 * @budget:		bytes the pair may move this period
 * @managed:		bytes of the upper node
 * @free:		its free bytes
 * @free_goal_bp:	its effective free goal (mmt_effective_goals())
 * @floor:		the free bytes it keeps from promotion (mmt_free_floor()):
 *			its free goal is never below them
 * @moved_up:		bytes promoted into it this period
 * @moved_down:		bytes demoted (or pushed) out of it this period
 * @tried_up:		bytes of the regions promotion walked this period
 * @passed_up:		of them, the bytes its young filter passed (kernels
 *			that do not count them: @tried_up)
 * @low:		bytes per heat bucket on its lower nodes
 * @up:			bytes per heat bucket on it
 * @up_idle:		of its bucket 0, the bytes of idle regions
 *			(mmt_region_idle())
 * @hot:		bandwidth mode: hot bytes the distribution pattern matches
 * @share:		bandwidth mode: its share of them (node_eligible_mem_bp)
 * @share_low:		bandwidth mode: the lower node's share
 * @share_target:	bandwidth mode: the share to hold
 */
struct mmt_obs {
	u64 budget;
	u64 managed;
	u64 free;
	unsigned long free_goal_bp;
	u64 floor;
	u64 moved_up;
	u64 moved_down;
	u64 tried_up;
	u64 passed_up;
	u64 low[MMT_NR_HEAT];
	u64 up[MMT_NR_HEAT];
	u64 up_idle;
	u64 hot;
	unsigned long share;
	unsigned long share_low;
	unsigned long share_target;
};

/**
 * struct mmt_pair_ctl - a tier pair's controller state across periods.
 * @pi:		law on the distance to the (raised) demotion goal
 * @pp:		ping-pong detector
 * @bo:		back-off
 * @bo_heat:	the promotion threshold when the back-off began
 * @young_bp:	the share of the bytes promotion walked that were young, as
 *		last measured (mmt_young_share()), in basis points
 */
struct mmt_pair_ctl {
	struct mmt_pi pi;
	struct mmt_pingpong pp;
	struct mmt_backoff bo;
	unsigned int bo_heat;
	unsigned long young_bp;
};

/**
 * struct mmt_step - one period's decision for a tier pair.
 * @goal:	free goal of the upper node, bytes: the effective goal, or
 *		the floor where that is higher
 * @target:	demotion goal: @goal raised by @want, bytes
 * @goal_bp:	@target in basis points of the upper node
 * @want:	the young share (@young_bp) of the hot bytes waiting, as
 *		far as it fits this period's budget and, when promotion
 *		left room unused, its flow (mmt_want_cap())
 * @young_bp:	the young share @want was scaled by
 * @err:	@target minus free, bytes
 * @demote:	bytes the upper node may demote this period
 * @demote_rate: bytes a period that its demotion quota runs at: @demote,
 *		or the whole budget while promotion waits for room (the
 *		raised goal, checked every quota interval, stops it at
 *		@target)
 * @promote:	bytes its lower nodes may promote (mmt_promote_budget();
 *		bandwidth mode: move up)
 * @push:	bandwidth mode: bytes to move down to the lower node
 * @heat:	promotion threshold (heat bucket); 1 in bandwidth mode
 * @cold_below:	demote only regions of heat buckets below this (0: any
 *		region not accessed)
 * @level:	ping-pong damping level
 * @backoff:	migration and monitoring cut down
 */
struct mmt_step {
	u64 goal;
	u64 target;
	unsigned long goal_bp;
	u64 want;
	unsigned long young_bp;
	s64 err;
	u64 demote;
	u64 demote_rate;
	u64 promote;
	u64 push;
	unsigned int heat;
	unsigned int cold_below;
	unsigned int level;
	bool backoff;
};

void mmt_pair_ctl_init(struct mmt_pair_ctl *c, u64 integ_max);
void mmt_decide(struct mmt_pair_ctl *c, const struct mmt_obs *o,
		struct mmt_step *st);
void mmt_bw_move(const struct mmt_obs *o, u64 budget, u64 *promote,
		 u64 *push);
void mmt_decide_bw(struct mmt_pair_ctl *c, const struct mmt_obs *o,
		   struct mmt_step *st);

#endif /* _MMT_CTL_H */

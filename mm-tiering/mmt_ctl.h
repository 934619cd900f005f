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
 */
struct mmt_pi {
	s64 kp_milli;
	s64 ki_milli;
	s64 integ_max;
	s64 integ;
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
unsigned int mmt_pick_heat(const u64 *low, const u64 *up, u64 room,
			   unsigned int gap);
u64 mmt_heat_sum(const u64 *heat, unsigned int from, unsigned int to);

#endif /* _MMT_CTL_H */

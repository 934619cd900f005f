// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mm_tiering's controller laws (mm-tiering/mmt_ctl.c):
 * step response, saturation, windup, steady-state offset, ping-pong
 * detector windows (volume and churn) and hysteresis, static back-off, heat
 * buckets across sampling intervals and the promotion threshold; the whole
 * step of a tier pair (mmt_decide(), mmt_decide_bw()) on the worked
 * examples and on the cases the QEMU scenarios found.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "mmt_ctl.h"

#define MiB (1LL << 20)

static struct mmt_pi demote_pi(void)
{
	return (struct mmt_pi){ .kp_milli = 1000, .ki_milli = 100,
				.integ_max = 1024 * MiB };
}

/* The worked example of mmt_ctl.c: 20, 20, 20, then 0; no overshoot. */
static void mmt_pi_step_response_test(struct kunit *test)
{
	static const s64 want[] = { 20 * MiB, 20 * MiB, 20 * MiB, 0, 0 };
	struct mmt_pi pi = demote_pi();
	s64 free = 0, goal = 60 * MiB, u;
	int t;

	for (t = 0; t < ARRAY_SIZE(want); t++) {
		u = mmt_pi_step(&pi, goal - free, 0, 20 * MiB);
		KUNIT_EXPECT_EQ_MSG(test, u, want[t], "period %d", t);
		free += u;
		KUNIT_EXPECT_LE(test, free, goal);
	}
	KUNIT_EXPECT_EQ(test, free, goal);
}

/* Far from the goal the output is the budget, never more, never less. */
static void mmt_pi_saturation_test(struct kunit *test)
{
	struct mmt_pi pi = demote_pi();

	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 1LL << 50, 0, 20 * MiB),
			20 * MiB);
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, -(1LL << 50), 0, 20 * MiB),
			0LL);
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, S64_MAX, 0, 20 * MiB),
			20 * MiB);
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, S64_MIN, 0, 20 * MiB), 0LL);
	KUNIT_EXPECT_EQ(test, pi.integ, 0LL);
}

/* A long saturated start leaves no integral behind. */
static void mmt_pi_windup_test(struct kunit *test)
{
	struct mmt_pi pi = demote_pi();
	int t;

	for (t = 0; t < 900; t++)	/* 15 minutes of an unmet goal */
		KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 500 * MiB, 0, 20 * MiB),
				20 * MiB);
	KUNIT_EXPECT_EQ(test, pi.integ, 0LL);
	/* the goal is met: the very next output is zero */
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 0, 0, 20 * MiB), 0LL);
	/* free memory far above the goal does not bank negative integral */
	for (t = 0; t < 100; t++)
		KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, -500 * MiB, 0, 20 * MiB),
				0LL);
	KUNIT_EXPECT_EQ(test, pi.integ, 0LL);
	/*
	 * so a new shortfall is acted on at once: 5 MiB, plus the integral's
	 * tenth of it, 0.5 MiB
	 */
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 5 * MiB, 0, 20 * MiB),
			5767168LL);
}

/*
 * A fill banks integral (its errors are large, the output not saturated);
 * free memory then far above the goal unwinds it, where holding it kept
 * 20 MiB more demoted at every later shortfall (perturb's exchanges).
 */
static void mmt_pi_unwind_test(struct kunit *test)
{
	/* what is left of 200 MiB after each period 36 MiB above the goal */
	static const s64 left_mib[] = { 164, 128, 92, 56, 20 };
	struct mmt_pi pi = demote_pi();
	unsigned int t;

	pi.integ_max = 200 * MiB;
	for (t = 0; t < 3; t++)
		mmt_pi_step(&pi, 100 * MiB, 0, 200 * MiB);
	KUNIT_EXPECT_EQ(test, pi.integ, 200 * MiB);
	/* 36 MiB above the goal: saturated at 0, the integral shrinks */
	for (t = 0; t < ARRAY_SIZE(left_mib); t++) {
		KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, -36 * MiB, 0, 200 * MiB),
				0LL);
		KUNIT_EXPECT_EQ(test, pi.integ, left_mib[t] * MiB);
	}
	/* down to zero, never below */
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, -36 * MiB, 0, 200 * MiB), 0LL);
	KUNIT_EXPECT_EQ(test, pi.integ, 0LL);
	/* the next 18 MiB shortfall: 18 plus 1.8 MiB, not 18 plus 20 */
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 18 * MiB, 0, 200 * MiB),
			20761804LL);
	/* a transient error (shrink_only) shrinks it and never grows it */
	pi.shrink_only = true;
	mmt_pi_step(&pi, 100 * MiB, 0, 200 * MiB);
	KUNIT_EXPECT_EQ(test, pi.integ, 18 * MiB);
	mmt_pi_step(&pi, -10 * MiB, 0, 200 * MiB);
	KUNIT_EXPECT_EQ(test, pi.integ, 8 * MiB);
	mmt_pi_step(&pi, -10 * MiB, 0, 200 * MiB);
	KUNIT_EXPECT_EQ(test, pi.integ, 0LL);
	pi.shrink_only = false;
	/* saturated high, a negative integral shrinks towards zero too */
	pi.integ = -50 * MiB;
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 300 * MiB, 0, 200 * MiB),
			200 * MiB);
	KUNIT_EXPECT_EQ(test, pi.integ, 0LL);
}

/* Something else takes 3 MiB each period: the integral removes the offset. */
static void mmt_pi_offset_test(struct kunit *test)
{
	struct mmt_pi pi = demote_pi();
	s64 free = 60 * MiB, goal = 60 * MiB, u = 0, err = 0;
	int t;

	for (t = 0; t < 200; t++) {
		free -= 3 * MiB;
		err = goal - free;	/* what the controller sees */
		u = mmt_pi_step(&pi, err, 0, 20 * MiB);
		free += u;
	}
	/* a P-only law would settle 3 MiB short */
	KUNIT_EXPECT_LE(test, abs(err), 64 * 1024LL);
	KUNIT_EXPECT_LE(test, abs(u - 3 * MiB), 4096LL);
	/* |integral| stays within its bound */
	pi.integ_max = 10 * MiB;
	for (t = 0; t < 50; t++)
		mmt_pi_step(&pi, 15 * MiB, 0, 20 * MiB);
	KUNIT_EXPECT_LE(test, pi.integ, 10 * MiB);
}

/* An upper node of 100 MiB. */
static const struct mmt_pp_cfg pp_cfg = {
	.capacity = 100 * MiB,
	.min_bytes = MiB,
	.relax_periods = 5,
};

/* Exchanging more than the node both ways within a window trips. */
static void mmt_pp_sustained_test(struct kunit *test)
{
	struct mmt_pingpong pp = {};
	int t, lvl = 0;

	/* 10 periods of 10 MiB each way: a full node, still legitimate */
	for (t = 1; t <= 10; t++)
		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg,
				10 * MiB, 10 * MiB), 0U);
	/* the 11th: 110 MiB each way, 10 MiB of it moved twice */
	KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg, 10 * MiB,
						  10 * MiB), 1U);
	for (t = 0; t < 11 * 10; t++)
		lvl = mmt_pingpong_update(&pp, &pp_cfg, 10 * MiB, 10 * MiB);
	KUNIT_EXPECT_EQ(test, lvl, MMT_PP_MAX_LEVEL);
}

/* Phase shifts, each exchanging less than the node, are not ping-pong. */
static void mmt_pp_transient_test(struct kunit *test)
{
	struct mmt_pingpong pp = {};
	int t;

	for (t = 0; t < 200; t++) {
		/* 80 MiB each way at the start of every 40 periods */
		bool shift = t % 40 < 4;

		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg,
				shift ? 20 * MiB : 0, shift ? 20 * MiB : 0),
				0U);
	}
}

/* One-way or lopsided movement is not ping-pong. */
static void mmt_pp_one_way_test(struct kunit *test)
{
	struct mmt_pingpong a = {}, b = {};
	int t;

	for (t = 0; t < 32; t++) {
		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&a, &pp_cfg,
				20 * MiB, 0), 0U);
		/* 2 MiB down for 20 up: 64 MiB down per window, under 100 */
		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&b, &pp_cfg,
				20 * MiB, 2 * MiB), 0U);
	}
}

/* Hysteresis: relax_periods quiet periods per level; movement resets. */
static void mmt_pp_relax_test(struct kunit *test)
{
	struct mmt_pingpong pp = {};
	int t;

	for (t = 0; t < 22; t++)
		mmt_pingpong_update(&pp, &pp_cfg, 10 * MiB, 10 * MiB);
	KUNIT_ASSERT_EQ(test, pp.level, 2U);
	for (t = 0; t < 4; t++)
		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg, 0, 0),
				2U);
	/* one two-way period restarts the quiet count */
	mmt_pingpong_update(&pp, &pp_cfg, 10 * MiB, 10 * MiB);
	for (t = 0; t < 4; t++)
		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg, 0, 0),
				2U);
	KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg, 0, 0), 1U);
	for (t = 0; t < 4; t++)
		mmt_pingpong_update(&pp, &pp_cfg, 0, 0);
	KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg, 0, 0), 0U);
	KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&pp, &pp_cfg, 0, 0), 0U);
}

static void mmt_pp_budget_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_pp_budget(200, 0), 200ULL);
	KUNIT_EXPECT_EQ(test, mmt_pp_budget(200, 1), 100ULL);
	KUNIT_EXPECT_EQ(test, mmt_pp_budget(200, MMT_PP_MAX_LEVEL), 12ULL);
	KUNIT_EXPECT_EQ(test, mmt_pp_budget(U64_MAX, 64), 0ULL);
}

static const struct mmt_bo_cfg bo_cfg = {
	.idle_bytes = MiB,
	.idle_periods = 10,
	.wake_bytes = 4 * MiB,
};

static void mmt_backoff_test(struct kunit *test)
{
	struct mmt_backoff bo = {};
	int t;

	/* converging: movement keeps it active */
	for (t = 0; t < 20; t++)
		KUNIT_EXPECT_FALSE(test, mmt_backoff_update(&bo, &bo_cfg,
				   8 * MiB, MiB));
	/* converged: backs off on the 10th idle period, not before */
	for (t = 1; t < 10; t++)
		KUNIT_EXPECT_FALSE(test, mmt_backoff_update(&bo, &bo_cfg, 0,
				   MiB));
	KUNIT_EXPECT_TRUE(test, mmt_backoff_update(&bo, &bo_cfg, 0, MiB));
	/* stays backed off while demand is low, whatever moves */
	for (t = 0; t < 50; t++)
		KUNIT_EXPECT_TRUE(test, mmt_backoff_update(&bo, &bo_cfg,
				  2 * MiB, 3 * MiB));
	/* the pattern changes: resumes in the same period */
	KUNIT_EXPECT_FALSE(test, mmt_backoff_update(&bo, &bo_cfg, 0, 4 * MiB));
	KUNIT_EXPECT_EQ(test, bo.idle, 0U);
	/* an idle count interrupted by movement starts over */
	for (t = 0; t < 9; t++)
		mmt_backoff_update(&bo, &bo_cfg, 0, 0);
	mmt_backoff_update(&bo, &bo_cfg, 2 * MiB, 0);
	KUNIT_EXPECT_FALSE(test, mmt_backoff_update(&bo, &bo_cfg, 0, 0));
}

/* Churn: a full window of two-way periods trips, a burst does not. */
static void mmt_pp_churn_test(struct kunit *test)
{
	const struct mmt_pp_cfg cfg = {
		.capacity = 1024 * MiB,	/* the volume bound never trips here */
		.min_bytes = MiB,
		.relax_periods = 5,
		.busy_periods = 28,
	};
	struct mmt_pingpong a = {}, b = {};
	int t;

	/* 2 MiB each way every period: 64 MiB per window, far under 1 GiB */
	for (t = 1; t < MMT_PP_WINDOW; t++)
		KUNIT_EXPECT_EQ_MSG(test, mmt_pingpong_update(&a, &cfg,
				    2 * MiB, 2 * MiB), 0U, "period %d", t);
	KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&a, &cfg, 2 * MiB, 2 * MiB),
			1U);
	/* judged again on a fresh window */
	KUNIT_EXPECT_EQ(test, a.filled, 0U);

	/* a 20-period exchange after a shift, then quiet: never trips */
	for (t = 0; t < 4 * MMT_PP_WINDOW; t++) {
		u64 v = t % 40 < 20 ? 10 * MiB : 0;

		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&b, &cfg, v, v), 0U);
	}
	/* 27 busy periods of 32 stay under the bar */
	memset(&b, 0, sizeof(b));
	for (t = 0; t < MMT_PP_WINDOW; t++) {
		u64 v = t < 27 ? 2 * MiB : 0;

		KUNIT_EXPECT_EQ(test, mmt_pingpong_update(&b, &cfg, v, v), 0U);
	}
}

/* Accessed samples per second, comparable across sampling intervals. */
static void mmt_heat_bucket_test(struct kunit *test)
{
	/* a busy node: 5 ms samples, 100 ms aggregations (20 samples) */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(0, 20, 100000), 0U);
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(1, 20, 100000), 4U); /* 10/s */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(2, 20, 100000), 5U); /* 20/s */
	/* 19 of 20: 3800/s by the p / (1 - p) estimate */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(19, 20, 100000),
			MMT_NR_HEAT - 1);
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(10, 20, 100000), 8U); /* 200/s */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(20, 20, 100000),
			MMT_NR_HEAT - 1);
	/* an idle node: 1 s samples, 20 s aggregations */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(1, 20, 20000000), 1U);
	/* 19 of 20 one-second samples: about 19/s, not 1/s */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(19, 20, 20000000), 5U);
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(10, 20, 20000000), 1U); /* 1/s */
	/* seen in every sample: hottest, however slowly it samples */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(20, 20, 20000000),
			MMT_NR_HEAT - 1);
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(5, 20, 0), 0U);
	/* a rate of 10^6 per second stays in the last bucket */
	KUNIT_EXPECT_EQ(test, mmt_heat_bucket(1000, 2000, 1000),
			MMT_NR_HEAT - 1);
}

/* min_accesses(b) is exactly the least nr_accesses of bucket b or above. */
static void mmt_heat_min_accesses_test(struct kunit *test)
{
	static const unsigned long aggrs[] = { 100000, 2000000, 20000000 };
	unsigned int b, nr, i;

	for (i = 0; i < ARRAY_SIZE(aggrs); i++) {
		for (b = 1; b < MMT_NR_HEAT; b++) {
			unsigned int m = mmt_heat_min_accesses(b, 20, aggrs[i]);

			for (nr = 1; nr <= 20; nr++)
				KUNIT_EXPECT_EQ_MSG(test,
					mmt_heat_bucket(nr, 20, aggrs[i]) >= b,
					nr >= m, "aggr %lu bucket %u nr %u",
					aggrs[i], b, nr);
		}
	}
	KUNIT_EXPECT_EQ(test, mmt_heat_min_accesses(0, 20, 100000), 1U);
	KUNIT_EXPECT_EQ(test, mmt_heat_min_accesses(5, 20, 100000), 2U);
	KUNIT_EXPECT_EQ(test, mmt_heat_min_accesses(MMT_NR_HEAT, 20, 100000),
			UINT_MAX);
}

/* The promotion threshold: only what displaces colder pages. */
static void mmt_pick_heat_test(struct kunit *test)
{
	u64 low[MMT_NR_HEAT] = {}, up[MMT_NR_HEAT] = {};

	low[1] = 50 * MiB;	/* lukewarm tail on the lower node */
	low[4] = 100 * MiB;	/* the hot set */
	up[0] = 300 * MiB;	/* never seen accessed on the upper node */
	up[8] = 700 * MiB;
	/* room for everything: promote all that was seen accessed */
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 200 * MiB, 1), 1U);
	/* no room: the hot set displaces the idle pages, the tail stays */
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 0, 1), 2U);
	KUNIT_EXPECT_EQ(test, mmt_heat_sum(low, 2, MMT_NR_HEAT), 100 * MiB);
	/* a wider gap (damping) asks for more heat */
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 0, 3), 4U);
	/* too little colder to displace: above all the lower node holds */
	up[0] = 10 * MiB;
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 0, 1), 5U);
	/* the upper node is all hotter: nothing either */
	memset(up, 0, sizeof(up));
	up[MMT_NR_HEAT - 1] = 1000 * MiB;
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 0, 1), 5U);
	/* the lower node's hottest bucket, nowhere to go: the end */
	low[MMT_NR_HEAT - 1] = MiB;
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 0, 1), MMT_NR_HEAT);
	KUNIT_EXPECT_EQ(test, mmt_heat_sum(up, 0, MMT_NR_HEAT + 5),
			1000 * MiB);
}

/*
 * Idle upper regions: a database's buffer pool on the lower node, 150 MiB
 * seen accessed now and then (bucket 1), its hot buffers scattered in it;
 * the upper node full of a filler touched once, 900 MiB at bucket 0, and 10
 * MiB of room.  Bucket 1 does not displace bucket 0 by the margin: nothing
 * comes up.  Once the filler has not been seen accessed for MMT_IDLE_US it
 * is idle, and the pool may displace it.
 */
static void mmt_pick_heat_idle_test(struct kunit *test)
{
	u64 low[MMT_NR_HEAT] = {}, up[MMT_NR_HEAT] = {};

	low[1] = 150 * MiB;
	up[0] = 900 * MiB;
	up[6] = 100 * MiB;
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 0, 10 * MiB, 1), 2U);
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 900 * MiB, 10 * MiB, 1),
			1U);
	/* 140 MiB idle and the room: just enough */
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 140 * MiB, 10 * MiB, 1),
			1U);
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 139 * MiB, 10 * MiB, 1),
			2U);
	/* under damping too: idle pages are colder than any margin */
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 900 * MiB, 0, 4), 1U);
	/*
	 * idle counts once, inside bucket 0, at higher thresholds: 950 MiB
	 * at bucket 3 do not fit in the 900 MiB of bucket 0 (1800 if it
	 * counted twice), and T = 4 asks for nothing
	 */
	low[1] = 0;
	low[3] = 950 * MiB;
	KUNIT_EXPECT_EQ(test, mmt_pick_heat(low, up, 900 * MiB, 0, 1), 4U);
}

/* Idle: not seen accessed for MMT_IDLE_US, by the region's age. */
static void mmt_region_idle_test(struct kunit *test)
{
	/* 20 aggregations of 500 ms: 10 s */
	KUNIT_EXPECT_TRUE(test, mmt_region_idle(0, 20, 500000));
	KUNIT_EXPECT_FALSE(test, mmt_region_idle(0, 19, 500000));
	/* a backed-off node aggregates every 20 s: one aggregation */
	KUNIT_EXPECT_TRUE(test, mmt_region_idle(0, 1, 20000000));
	KUNIT_EXPECT_FALSE(test, mmt_region_idle(0, 0, 20000000));
	/* seen accessed: never idle, however old */
	KUNIT_EXPECT_FALSE(test, mmt_region_idle(1, 1000, 20000000));
	/* no overflow: 2^32 - 1 aggregations of 10 s */
	KUNIT_EXPECT_TRUE(test, mmt_region_idle(0, UINT_MAX, 10000000));
}


/* A pair of a 1000 MiB upper node with a 60 MiB free goal, 20 MiB/period. */
static struct mmt_obs pair_obs(u64 free)
{
	return (struct mmt_obs){ .budget = 20 * MiB, .managed = 1000 * MiB,
				 .free = free, .free_goal_bp = 600 };
}

/*
 * The same pair at 200 MiB a period, its upper node holding @idle bytes never
 * seen accessed and @busy at heat 8, and @hot bytes at heat 4 on the lower
 * node.
 */
static struct mmt_obs hot_pair_obs(u64 free, u64 hot, u64 idle, u64 busy)
{
	struct mmt_obs o = pair_obs(free);

	o.budget = 200 * MiB;
	o.low[4] = hot;
	o.up[0] = idle;
	o.up[8] = busy;
	return o;
}

/* The worked example of mmt_ctl.c through the whole step. */
static void mmt_decide_room_test(struct kunit *test)
{
	static const u64 want[] = { 20 * MiB, 20 * MiB, 20 * MiB, 0, 0 };
	struct mmt_pair_ctl c;
	struct mmt_obs o = pair_obs(0);
	struct mmt_step st;
	int t;

	mmt_pair_ctl_init(&c, 20 * MiB);
	for (t = 0; t < ARRAY_SIZE(want); t++) {
		mmt_decide(&c, &o, &st);
		KUNIT_EXPECT_EQ_MSG(test, st.demote, want[t], "period %d", t);
		/* nothing waiting: the quota runs at what the law asks */
		KUNIT_EXPECT_EQ(test, st.demote_rate, st.demote);
		KUNIT_EXPECT_EQ(test, st.goal, 60 * MiB);
		/* nothing waiting: the goal is not raised */
		KUNIT_EXPECT_EQ(test, st.target, 60 * MiB);
		KUNIT_EXPECT_EQ(test, st.heat, 1U);
		KUNIT_EXPECT_FALSE(test, st.backoff);
		o.free += st.demote;
		o.moved_down = st.demote;
	}
	KUNIT_EXPECT_EQ(test, o.free, 60 * MiB);
}

/*
 * A full upper node: the hot set waiting on the lower node raises the
 * demotion goal by its size, the lukewarm tail stays where it is (the
 * worked example of the threshold, scaled).
 */
static void mmt_decide_want_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = pair_obs(60 * MiB);
	struct mmt_step st;

	o.low[1] = 50 * MiB;
	o.low[4] = 10 * MiB;
	o.up[0] = 300 * MiB;
	o.up[8] = 640 * MiB;
	mmt_pair_ctl_init(&c, 20 * MiB);
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.heat, 2U);
	KUNIT_EXPECT_EQ(test, st.cold_below, 1U);
	KUNIT_EXPECT_EQ(test, st.want, 10 * MiB);
	KUNIT_EXPECT_EQ(test, st.target, 70 * MiB);
	KUNIT_EXPECT_EQ(test, st.goal_bp, 700UL);
	/* kp 1.0 on 10 MiB; a raised goal is not integrated */
	KUNIT_EXPECT_EQ(test, st.demote, 10 * MiB);
	/* hot bytes wait: at the budget's rate, the raised goal stops it */
	KUNIT_EXPECT_EQ(test, st.demote_rate, 20 * MiB);
	KUNIT_EXPECT_EQ(test, c.pi.integ, 0LL);
	KUNIT_EXPECT_EQ(test, st.promote, 20 * MiB);
}

/*
 * The same full node, where 80 MiB of its free memory is below its zones'
 * floors (the floor, with the headroom, above the 60 MiB goal): the goal is
 * the floor, and the hot bytes raise it from there.  At 60 MiB free the
 * percent goal would be met and promotion, admitted only above the floor,
 * would wait for room that demotion never made.
 */
static void mmt_decide_floor_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = pair_obs(60 * MiB);
	struct mmt_step st;

	o.floor = 90 * MiB;
	o.low[4] = 10 * MiB;
	o.up[0] = 300 * MiB;
	o.up[8] = 640 * MiB;
	mmt_pair_ctl_init(&c, 20 * MiB);
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.goal, 90 * MiB);
	KUNIT_EXPECT_EQ(test, st.want, 10 * MiB);
	KUNIT_EXPECT_EQ(test, st.target, 100 * MiB);
	KUNIT_EXPECT_EQ(test, st.goal_bp, 1000UL);
	/* 40 MiB short, at most the period's budget */
	KUNIT_EXPECT_EQ(test, st.err, (s64)(40 * MiB));
	KUNIT_EXPECT_EQ(test, st.demote, 20 * MiB);
	/* a floor below the percent goal changes nothing */
	o.floor = 30 * MiB;
	mmt_pair_ctl_init(&c, 20 * MiB);
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.goal, 60 * MiB);
	KUNIT_EXPECT_EQ(test, st.target, 70 * MiB);
}

/*
 * Promotion that left room unused (more than 1/16 of the budget beyond what
 * it moved): the raise is at most twice its flow; room used up: no cap.
 */
static void mmt_want_cap_test(struct kunit *test)
{
	/* perturb: 20 MiB of room, 2 MiB came up */
	KUNIT_EXPECT_EQ(test, mmt_want_cap(2 * MiB, 20 * MiB, 200 * MiB),
			4ULL * MiB);
	/* nothing came up with room to spare: nothing to make room for */
	KUNIT_EXPECT_EQ(test, mmt_want_cap(0, 20 * MiB, 200 * MiB), 0ULL);
	/* within the slack: room as good as used */
	KUNIT_EXPECT_EQ(test, mmt_want_cap(2 * MiB, 14 * MiB, 200 * MiB),
			U64_MAX);
	/* tail: a full node, promotion held back by room */
	KUNIT_EXPECT_EQ(test, mmt_want_cap(0, 0, 200 * MiB), U64_MAX);
	KUNIT_EXPECT_EQ(test, mmt_want_cap(20 * MiB, 2 * MiB, 200 * MiB),
			U64_MAX);
	KUNIT_EXPECT_EQ(test, mmt_want_cap(U64_MAX, U64_MAX, 0), U64_MAX);
}

/* promotion's budget follows the young share of its walks */
static void mmt_promote_budget_test(struct kunit *test)
{
	/* a quarter young or more: the whole budget (zipf: 28-50 %) */
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(200 * MiB, 10000), 200 * MiB);
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(200 * MiB, 2500), 200 * MiB);
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(200 * MiB, 2800), 200 * MiB);
	/* 10 % young: 40 % of the budget */
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(200 * MiB, 1000), 80 * MiB);
	/* nothing young (pgbench's buffers): a 32nd, never nothing */
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(200 * MiB, 0), (200 * MiB) >> 5);
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(200 * MiB, 10), (200 * MiB) >> 5);
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, mmt_promote_budget(U64_MAX, 10000), U64_MAX);
}

/*
 * perturb after an exchange, as traced: 70 MiB of lower-node regions at the
 * threshold hold 5 MiB of hot pages, and promotion moved 2 MiB last period
 * with 20 MiB of room: the goal is raised by 4 MiB, under the room, and
 * nothing is demoted (55 MiB, uncapped).  A hot set that does come up and
 * uses the room (40 MiB last period) raises it by all 70.
 */
static void mmt_decide_flow_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = hot_pair_obs(80 * MiB, 70 * MiB, 500 * MiB,
					420 * MiB);
	struct mmt_step st;

	o.moved_up = 2 * MiB;
	mmt_pair_ctl_init(&c, 200 * MiB);
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.heat, 2U);
	KUNIT_EXPECT_EQ(test, st.want, 4 * MiB);
	KUNIT_EXPECT_EQ(test, st.target, 64 * MiB);
	KUNIT_EXPECT_EQ(test, st.demote, 0ULL);
	/* bytes wait, but the room is there: nothing to demote at any rate */
	KUNIT_EXPECT_EQ(test, st.demote_rate, 0ULL);
	KUNIT_EXPECT_EQ(test, st.promote, 200 * MiB);

	o.moved_up = 40 * MiB;
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.want, 70 * MiB);
	KUNIT_EXPECT_EQ(test, st.demote, 50 * MiB);
	KUNIT_EXPECT_EQ(test, st.demote_rate, 200 * MiB);
	/* the fill banked nothing: with nothing waiting, nothing demoted */
	KUNIT_EXPECT_EQ(test, c.pi.integ, 0LL);
	memset(o.low, 0, sizeof(o.low));
	o.moved_up = 0;
	o.free = 70 * MiB;
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.want, 0ULL);
	KUNIT_EXPECT_EQ(test, st.demote, 0ULL);
	KUNIT_EXPECT_EQ(test, st.demote_rate, 0ULL);
}

/* The young share of promotion's walk; a walk under 1 MiB keeps the last. */
static void mmt_young_share_test(struct kunit *test)
{
	/* 183 MiB of regions walked, 41 MiB of them young */
	KUNIT_EXPECT_EQ(test, mmt_young_share(41 * MiB, 183 * MiB, 10000),
			2240UL);
	KUNIT_EXPECT_EQ(test, mmt_young_share(0, 50 * MiB, 10000), 0UL);
	KUNIT_EXPECT_EQ(test, mmt_young_share(8 * MiB, 8 * MiB, 100), 10000UL);
	/* more passed than tried (counters read apart): all of it */
	KUNIT_EXPECT_EQ(test, mmt_young_share(9 * MiB, 8 * MiB, 100), 10000UL);
	/* nothing walked, or too little to tell */
	KUNIT_EXPECT_EQ(test, mmt_young_share(0, 0, 2240), 2240UL);
	KUNIT_EXPECT_EQ(test, mmt_young_share(0, MiB - 4096, 2240), 2240UL);
	KUNIT_EXPECT_EQ(test, mmt_young_share(MiB / 2, MiB, 2240), 5000UL);
}

/*
 * A full upper node and 80 MiB of regions waiting, of which promotion's
 * last walk found a quarter young: the goal is raised by 20 MiB, not 80.
 * Periods that walk nothing keep the share; a walk all young raises it by
 * all of them.
 */
static void mmt_decide_young_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = hot_pair_obs(60 * MiB, 80 * MiB, 300 * MiB,
					640 * MiB);
	struct mmt_step st;

	mmt_pair_ctl_init(&c, 200 * MiB);
	/* before any walk: all of it */
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.young_bp, 10000UL);
	KUNIT_EXPECT_EQ(test, st.want, 80 * MiB);

	o.tried_up = 160 * MiB;
	o.passed_up = 40 * MiB;
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.young_bp, 2500UL);
	KUNIT_EXPECT_EQ(test, st.want, 20 * MiB);
	KUNIT_EXPECT_EQ(test, st.target, 80 * MiB);
	KUNIT_EXPECT_EQ(test, st.demote, 20 * MiB);
	KUNIT_EXPECT_EQ(test, st.demote_rate, 200 * MiB);

	o.tried_up = 0;
	o.passed_up = 0;
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.want, 20 * MiB);

	o.tried_up = 30 * MiB;
	o.passed_up = 30 * MiB;
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.young_bp, 10000UL);
	KUNIT_EXPECT_EQ(test, st.want, 80 * MiB);
}

/*
 * Back-off after ten idle periods; DAMON's noise does not wake it; a hot
 * set that moved to the lower node does, although the upper node, all hot
 * in its stale view, leaves it nothing to displace (phase's second slice).
 */
static void mmt_decide_backoff_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = pair_obs(100 * MiB);
	struct mmt_step st;
	int t;

	mmt_pair_ctl_init(&c, 20 * MiB);
	for (t = 1; t <= 10; t++) {
		mmt_decide(&c, &o, &st);
		KUNIT_EXPECT_EQ_MSG(test, st.backoff, t == 10, "period %d", t);
	}
	KUNIT_EXPECT_EQ(test, st.demote, 0ULL);
	KUNIT_EXPECT_EQ(test, st.promote, 0ULL);

	o.up[MMT_NR_HEAT - 1] = 900 * MiB;
	o.low[3] = MiB;		/* under 1/16 of the budget */
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_TRUE(test, st.backoff);
	o.low[3] = 50 * MiB;	/* the new hot set */
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.want, 0ULL);
	KUNIT_EXPECT_FALSE(test, st.backoff);
	KUNIT_EXPECT_EQ(test, st.promote, 20 * MiB);
}

/* Both ways past the node's capacity within a window: damped, half budget. */
static void mmt_decide_pingpong_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = pair_obs(60 * MiB);
	struct mmt_step st;

	o.managed = 100 * MiB;
	o.moved_up = 60 * MiB;
	o.moved_down = 60 * MiB;
	mmt_pair_ctl_init(&c, 20 * MiB);
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.level, 0U);
	KUNIT_EXPECT_EQ(test, st.promote, 20 * MiB);
	mmt_decide(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.level, 1U);
	KUNIT_EXPECT_EQ(test, st.promote, 10 * MiB);
	KUNIT_EXPECT_LE(test, st.demote, 10 * MiB);
}

/* Bandwidth mode: deadband, blind readings, direction and size. */
static void mmt_decide_bw_test(struct kunit *test)
{
	struct mmt_pair_ctl c;
	struct mmt_obs o = pair_obs(100 * MiB);
	struct mmt_step st;

	mmt_pair_ctl_init(&c, 20 * MiB);
	o.hot = 400 * MiB;
	o.share_target = 7347;
	/* within 150 bp: nothing moves */
	o.share = 7300;
	o.share_low = 2700;
	mmt_decide_bw(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.promote, 0ULL);
	KUNIT_EXPECT_EQ(test, st.push, 0ULL);
	/* no region matched at DAMOS's last evaluation: hold */
	o.share = 0;
	o.share_low = 0;
	mmt_decide_bw(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.promote, 0ULL);
	KUNIT_EXPECT_EQ(test, st.push, 0ULL);
	/* far below: the whole budget up */
	o.share = 6000;
	o.share_low = 4000;
	mmt_decide_bw(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.promote, 20 * MiB);
	KUNIT_EXPECT_EQ(test, st.push, 0ULL);
	/* far above: the whole budget down */
	o.share = 9000;
	o.share_low = 1000;
	mmt_decide_bw(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.promote, 0ULL);
	KUNIT_EXPECT_EQ(test, st.push, 20 * MiB);
	/* near: 0.4 of the 3.47 % of 100 MiB still to move, rounded down */
	o.hot = 100 * MiB;
	o.share = 7000;
	o.share_low = 3000;
	mmt_decide_bw(&c, &o, &st);
	KUNIT_EXPECT_EQ(test, st.promote, 1455423ULL);
	KUNIT_EXPECT_EQ(test, st.push, 0ULL);
	/* room: the upper node's free memory is above its goal */
	KUNIT_EXPECT_EQ(test, st.demote, 0ULL);
	KUNIT_EXPECT_EQ(test, st.goal_bp, 0UL);
}

/*
 * Bandwidth mode, several lower nodes behind one upper node: each lower
 * node's context moves on its own shares within its part of the budget.
 */
static void mmt_bw_move_test(struct kunit *test)
{
	struct mmt_obs o = { .hot = 100 * MiB, .share_target = 7000 };
	u64 up, down;

	/* the upper node holds all of this pair's hot memory: 0.4 x 30 % down */
	o.share = 10000;
	o.share_low = 0;
	mmt_bw_move(&o, 20 * MiB, &up, &down);
	KUNIT_EXPECT_EQ(test, up, 0ULL);
	KUNIT_EXPECT_EQ(test, down, 12 * MiB);
	/* a third of a 30 MiB budget caps it */
	mmt_bw_move(&o, 10 * MiB, &up, &down);
	KUNIT_EXPECT_EQ(test, down, 10 * MiB);
	/* the lower node holds it all: up, capped the same way */
	o.share = 0;
	o.share_low = 10000;
	mmt_bw_move(&o, 10 * MiB, &up, &down);
	KUNIT_EXPECT_EQ(test, up, 10 * MiB);
	KUNIT_EXPECT_EQ(test, down, 0ULL);
	/* not measured yet (both 0): hold */
	o.share_low = 0;
	mmt_bw_move(&o, 10 * MiB, &up, &down);
	KUNIT_EXPECT_EQ(test, up + down, 0ULL);
}

static struct kunit_case mmt_ctl_cases[] = {
	KUNIT_CASE(mmt_pi_step_response_test),
	KUNIT_CASE(mmt_pi_saturation_test),
	KUNIT_CASE(mmt_pi_windup_test),
	KUNIT_CASE(mmt_pi_unwind_test),
	KUNIT_CASE(mmt_pi_offset_test),
	KUNIT_CASE(mmt_pp_sustained_test),
	KUNIT_CASE(mmt_pp_transient_test),
	KUNIT_CASE(mmt_pp_one_way_test),
	KUNIT_CASE(mmt_pp_relax_test),
	KUNIT_CASE(mmt_pp_budget_test),
	KUNIT_CASE(mmt_backoff_test),
	KUNIT_CASE(mmt_pp_churn_test),
	KUNIT_CASE(mmt_heat_bucket_test),
	KUNIT_CASE(mmt_heat_min_accesses_test),
	KUNIT_CASE(mmt_pick_heat_test),
	KUNIT_CASE(mmt_pick_heat_idle_test),
	KUNIT_CASE(mmt_region_idle_test),
	KUNIT_CASE(mmt_decide_room_test),
	KUNIT_CASE(mmt_decide_want_test),
	KUNIT_CASE(mmt_decide_floor_test),
	KUNIT_CASE(mmt_want_cap_test),
	KUNIT_CASE(mmt_promote_budget_test),
	KUNIT_CASE(mmt_young_share_test),
	KUNIT_CASE(mmt_decide_young_test),
	KUNIT_CASE(mmt_decide_flow_test),
	KUNIT_CASE(mmt_decide_backoff_test),
	KUNIT_CASE(mmt_decide_pingpong_test),
	KUNIT_CASE(mmt_decide_bw_test),
	KUNIT_CASE(mmt_bw_move_test),
	{}
};

static struct kunit_suite mmt_ctl_suite = {
	.name = "mm_tiering_controller",
	.test_cases = mmt_ctl_cases,
};

kunit_test_suite(mmt_ctl_suite);

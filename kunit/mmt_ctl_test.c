// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mm_tiering's controller laws (mm-tiering/mmt_ctl.c):
 * step response, saturation, windup, steady-state offset, ping-pong
 * detector windows and hysteresis, static back-off.
 */
#include <kunit/test.h>

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
	/* so a new shortfall is acted on at once */
	KUNIT_EXPECT_EQ(test, mmt_pi_step(&pi, 5 * MiB, 0, 20 * MiB),
			5 * MiB + 5 * MiB / 10);
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

static struct kunit_case mmt_ctl_cases[] = {
	KUNIT_CASE(mmt_pi_step_response_test),
	KUNIT_CASE(mmt_pi_saturation_test),
	KUNIT_CASE(mmt_pi_windup_test),
	KUNIT_CASE(mmt_pi_offset_test),
	KUNIT_CASE(mmt_pp_sustained_test),
	KUNIT_CASE(mmt_pp_transient_test),
	KUNIT_CASE(mmt_pp_one_way_test),
	KUNIT_CASE(mmt_pp_relax_test),
	KUNIT_CASE(mmt_pp_budget_test),
	KUNIT_CASE(mmt_backoff_test),
	{}
};

static struct kunit_suite mmt_ctl_suite = {
	.name = "mm_tiering_controller",
	.test_cases = mmt_ctl_cases,
};

kunit_test_suite(mmt_ctl_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mm_tiering's pure logic (mm-tiering/mmt_logic.c).
 *
 * Built into a UML kernel by scripts/kunit.sh; see Documentation/testing.rst.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "mmt_logic.h"

#define MiB (1ULL << 20)

/* ---- basis-point arithmetic ---- */

struct bp_of_case {
	const char *desc;
	u64 part, total;
	int err;
	unsigned long bp;
};

static const struct bp_of_case bp_of_cases[] = {
	{ "zero part", 0, 100, 0, 0 },
	{ "half", 50, 100, 0, 5000 },
	{ "third rounds down", 1, 3, 0, 3333 },
	{ "whole", 100, 100, 0, 10000 },
	{ "double", 200, 100, 0, 20000 },
	{ "zero total is an error", 5, 0, -EINVAL, 0 },
	{ "zero over zero is an error", 0, 0, -EINVAL, 0 },
	{ "u64 max over itself", U64_MAX, U64_MAX, 0, 10000 },
	{ "half of u64 max", U64_MAX / 2, U64_MAX, 0, 4999 },
	{ "one byte of u64 max", 1, U64_MAX, 0, 0 },
	{ "saturates", U64_MAX, 1, 0, ULONG_MAX },
	{ "1 GiB of 1 TiB", 1ULL << 30, 1ULL << 40, 0, 9 },
	{ "remainder needs 128 bits", (1ULL << 62) + 7, 1ULL << 63, 0, 5000 },
};

KUNIT_ARRAY_PARAM_DESC(bp_of, bp_of_cases, desc);

static void mmt_bp_of_test(struct kunit *test)
{
	const struct bp_of_case *c = test->param_value;
	unsigned long bp = 12345;

	KUNIT_EXPECT_EQ(test, mmt_bp_of(c->part, c->total, &bp), c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, bp, c->bp);
	else
		KUNIT_EXPECT_EQ(test, bp, 12345UL);
}

struct bp_apply_case {
	const char *desc;
	u64 total;
	unsigned long bp;
	u64 want;
};

static const struct bp_apply_case bp_apply_cases[] = {
	{ "recipe free goal of 10000", 10000, 50, 50 },
	{ "99.7 % of 1 GiB", 1ULL << 30, 9970, 1070520598 },
	{ "all of u64 max", U64_MAX, 10000, U64_MAX },
	{ "half of u64 max", U64_MAX, 5000, U64_MAX / 2 },
	{ "above 10000 clamps", 1000, 20000, 1000 },
	{ "zero bp", 1ULL << 40, 0, 0 },
	{ "small total rounds down", 3, 3333, 0 },
};

KUNIT_ARRAY_PARAM_DESC(bp_apply, bp_apply_cases, desc);

static void mmt_bp_apply_test(struct kunit *test)
{
	const struct bp_apply_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, mmt_bp_apply(c->total, c->bp), c->want);
}

struct quota_case {
	const char *desc;
	unsigned long mb, ms;
	u64 want;
};

static const struct quota_case quota_cases[] = {
	{ "200 MiB/s per 100 ms", 200, 100, 20971520 },
	{ "200 MiB/s per second", 200, 1000, 209715200 },
	{ "tiny budget is one page", 1, 1, 4096 },
	{ "zero budget", 0, 100, 0 },
	{ "zero interval", 200, 0, 0 },
	{ "largest budget per second", MMT_QUOTA_MB_MAX, 1000, 1ULL << 40 },
	{ "overflow saturates", ULONG_MAX, ULONG_MAX, ULONG_MAX },
	{ "shift overflow saturates", ULONG_MAX >> 10, 1, ULONG_MAX },
};

KUNIT_ARRAY_PARAM_DESC(quota, quota_cases, desc);

static void mmt_quota_bytes_test(struct kunit *test)
{
	const struct quota_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, mmt_quota_bytes(c->mb, c->ms), c->want);
}

static void mmt_goal_score_test(struct kunit *test)
{
	unsigned long score;

	KUNIT_EXPECT_EQ(test, mmt_goal_score(50, 50, &score), 0);
	KUNIT_EXPECT_EQ(test, score, 10000UL);
	KUNIT_EXPECT_EQ(test, mmt_goal_score(25, 50, &score), 0);
	KUNIT_EXPECT_EQ(test, score, 5000UL);
	KUNIT_EXPECT_EQ(test, mmt_goal_score(9970, 9970, &score), 0);
	KUNIT_EXPECT_EQ(test, score, 10000UL);
	KUNIT_EXPECT_EQ(test, mmt_goal_score(10000, 50, &score), 0);
	KUNIT_EXPECT_EQ(test, score, 2000000UL);
	KUNIT_EXPECT_EQ(test, mmt_goal_score(1, 0, &score), -EINVAL);
}

/*
 * DAMON's interval tuning, reproduced for kernels without it: 100 bytes
 * sampled 20 times aiming at 4 % make 80 access events the goal.
 */
static void mmt_tune_sample_us_test(struct kunit *test)
{
	static const struct {
		unsigned long now, events, max_events, want;
	} c[] = {
		{ 5000, 0, 2000, 10000 },	/* nothing seen: twice as long */
		{ 20000, 80, 2000, 20000 },	/* on the goal: unchanged */
		{ 20000, 40, 2000, 30000 },	/* half the goal: 1.5 times */
		{ 20000, 120, 2000, 15000 },	/* 1.5x the goal: rescaled 0.75 */
		{ 20000, 160, 2000, 10000 },	/* twice or more: half ... */
		{ 20000, 2000, 2000, 10000 },	/* ... never less */
		{ 5000, 2000, 2000, 5000 },	/* the floor holds */
		{ 8000000, 0, 2000, 10000000 },	/* the ceiling holds */
		{ 5000, 0, 0, 10000 },		/* empty: no division by zero */
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		KUNIT_EXPECT_EQ_MSG(test, mmt_tune_sample_us(c[i].now,
				    c[i].events, c[i].max_events, 400, 5000,
				    10000000), c[i].want, "case %d", i);
}

/* ---- parameter validation ---- */

static void mmt_check_bp_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_check_bp(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_bp(1), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_bp(50), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_bp(10000), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_bp(10001), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_bp(ULONG_MAX), -EINVAL);
}

static void mmt_check_quota_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_check_quota_mb(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_quota_mb(1), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_quota_mb(200), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_quota_mb(MMT_QUOTA_MB_MAX), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_quota_mb(MMT_QUOTA_MB_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_quota_mb(ULONG_MAX), -EINVAL);
}

static void mmt_check_period_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_check_period_ms(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_period_ms(99), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_period_ms(100), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_period_ms(1000), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_period_ms(60000), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_period_ms(60001), -EINVAL);
}

static void mmt_check_share_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(0), 0);	/* from HMAT */
	/*
	 * each scheme's goal is its node's share less the 150 bp deadband:
	 * 150 would give the upper scheme a goal of 0 (refused by DAMON)
	 */
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(150), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(151), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(7347), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(9849), 0);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(9850), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(9999), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(10000), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_check_share_bp(ULONG_MAX), -EINVAL);
}

/* ---- effective goals ---- */

struct goals_case {
	const char *desc;
	unsigned long used, free;
	u64 total, high;
	int err;
	unsigned long want_free, want_used;
	bool raised;
};

static const struct goals_case goals_cases[] = {
	{ "recipe on a 1000-page node, 48-page watermark", 9970, 50, 1000, 48,
	  0, 580, 9440, true },
	{ "recipe on a node with a tiny watermark", 9970, 200, 1000000, 10,
	  0, 200, 9970, false },
	{ "goal exactly at the floor is kept", 9970, 150, 10000, 50,
	  0, 150, 9970, false },
	{ "user gap is kept", 9000, 50, 1000, 48, 0, 580, 8470, true },
	{ "watermark above the node clamps", 9970, 50, 100, 200, 0, 10000, 20,
	  true },
	{ "used never below 1", 100, 50, 100, 200, 0, 10000, 1, true },
	{ "zero total", 9970, 50, 0, 0, -EINVAL, 0, 0, false },
	{ "zero used goal", 0, 50, 1000, 10, -EINVAL, 0, 0, false },
	{ "free goal above 10000", 9970, 10001, 1000, 10, -EINVAL, 0, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(goals, goals_cases, desc);

static void mmt_effective_goals_test(struct kunit *test)
{
	const struct goals_case *c = test->param_value;
	struct mmt_goals g;

	KUNIT_ASSERT_EQ(test, mmt_effective_goals(c->used, c->free, c->total,
						  c->high, &g), c->err);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, g.free_bp, c->want_free);
	KUNIT_EXPECT_EQ(test, g.used_bp, c->want_used);
	KUNIT_EXPECT_EQ(test, g.raised, c->raised);
}

/* ---- admission of promotion ---- */

static void mmt_zone_unusable_test(struct kunit *test)
{
	/* the example: ZONE_DMA, high 40, 957 reserved against MOVABLE */
	KUNIT_EXPECT_EQ(test, mmt_zone_unusable(2095, 40, 957), 997ULL);
	/* at or below its floors a zone gives nothing */
	KUNIT_EXPECT_EQ(test, mmt_zone_unusable(900, 1449, 0), 900ULL);
	KUNIT_EXPECT_EQ(test, mmt_zone_unusable(997, 40, 957), 997ULL);
	KUNIT_EXPECT_EQ(test, mmt_zone_unusable(0, 40, 957), 0ULL);
	/* no reserve: the high watermark */
	KUNIT_EXPECT_EQ(test, mmt_zone_unusable(10000, 1449, 0), 1449ULL);
	/* a sum that overflows keeps every free page */
	KUNIT_EXPECT_EQ(test, mmt_zone_unusable(10, U64_MAX, 5), 10ULL);
}

static void mmt_free_floor_test(struct kunit *test)
{
	/* the example: 1 GiB of pages, 3500 unusable, 1 % headroom */
	KUNIT_EXPECT_EQ(test, mmt_free_floor(3500, 262144), 6121ULL);
	KUNIT_EXPECT_EQ(test, mmt_free_floor(0, 262144), 2621ULL);
	/* never above the node */
	KUNIT_EXPECT_EQ(test, mmt_free_floor(262000, 262144), 262144ULL);
	KUNIT_EXPECT_EQ(test, mmt_free_floor(0, 0), 0ULL);
}

static void mmt_admit_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_admit_bytes(100 * MiB, 60 * MiB), 40ULL * MiB);
	KUNIT_EXPECT_EQ(test, mmt_admit_bytes(60 * MiB, 60 * MiB), 0ULL);
	KUNIT_EXPECT_EQ(test, mmt_admit_bytes(50 * MiB, 60 * MiB), 0ULL);
	/* the quota is capped at what is admitted ... */
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(20 * MiB, 5 * MiB, 4096),
			5UL * MiB);
	/* ... a quota of no limit too ... */
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(0, 5 * MiB, 4096), 5UL * MiB);
	/* ... room beyond the quota leaves it as it is ... */
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(MiB, 5 * MiB, 4096), 1UL * MiB);
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(0, U64_MAX, 4096), ULONG_MAX);
	/* ... and nothing admitted is one page, never 0 (no limit) */
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(20 * MiB, 0, 4096), 4096UL);
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(20 * MiB, 100, 4096), 4096UL);
	KUNIT_EXPECT_EQ(test, mmt_admit_quota(0, 0, 4096), 4096UL);
}

/* A scheme recreated by a commit counts from zero again: no wrap. */
static void mmt_counter_delta_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmt_counter_delta(300 * MiB, 200 * MiB),
			100ULL * MiB);
	KUNIT_EXPECT_EQ(test, mmt_counter_delta(200 * MiB, 200 * MiB), 0ULL);
	/* restarted: 4 MiB since, not 2^64 - 196 MiB */
	KUNIT_EXPECT_EQ(test, mmt_counter_delta(4 * MiB, 200 * MiB),
			4ULL * MiB);
	KUNIT_EXPECT_EQ(test, mmt_counter_delta(0, U64_MAX), 0ULL);
	KUNIT_EXPECT_EQ(test, mmt_counter_delta(U64_MAX, 0), U64_MAX);
}

/* ---- bandwidth shares ---- */

static void mmt_bw_shares_test(struct kunit *test)
{
	u64 dram_cxl[] = { 72000, 26000 };
	u64 three[] = { 1, 1, 1 };
	u64 unknown[] = { 72000, 0 };
	u64 huge[] = { U64_MAX, 1 };
	u64 one[] = { 5 };
	unsigned long s[3];

	KUNIT_EXPECT_EQ(test, mmt_bw_shares(dram_cxl, 2, s), 0);
	KUNIT_EXPECT_EQ(test, s[0], 7347UL);
	KUNIT_EXPECT_EQ(test, s[1], 2653UL);
	KUNIT_EXPECT_EQ(test, mmt_bw_shares(three, 3, s), 0);
	KUNIT_EXPECT_EQ(test, s[0], 3334UL);
	KUNIT_EXPECT_EQ(test, s[1], 3333UL);
	KUNIT_EXPECT_EQ(test, s[2], 3333UL);
	KUNIT_EXPECT_EQ(test, mmt_bw_shares(one, 1, s), 0);
	KUNIT_EXPECT_EQ(test, s[0], 10000UL);
	KUNIT_EXPECT_EQ(test, mmt_bw_shares(unknown, 2, s), -ENODATA);
	KUNIT_EXPECT_EQ(test, mmt_bw_shares(huge, 2, s), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_bw_shares(one, 0, s), -EINVAL);
}

/* Bandwidth mode with several lower nodes: each context's split. */
static void mmt_bw_pair_share_test(struct kunit *test)
{
	unsigned long s;

	/* 6000 bp up, two equal lower nodes of 2000: 6000 / 8000 */
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(6000, 1, 2, &s), 0);
	KUNIT_EXPECT_EQ(test, s, 7500UL);
	/* one lower node: the upper node's share itself */
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(7000, 5, 5, &s), 0);
	KUNIT_EXPECT_EQ(test, s, 7000UL);
	/*
	 * 72 GB/s behind 36, 24 and 18 (the nodes8 bench's socket): 4800 bp
	 * up; the 36 GB/s node's context 4800 * 78 / (4800 * 78 + 5200 * 36)
	 * = 2/3, the two-node split of 72 and 36 (mmt_bw_shares: 6667)
	 */
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(4800, 36, 78, &s), 0);
	KUNIT_EXPECT_EQ(test, s, 6666UL);
	/* 4800 * 78 / (4800 * 78 + 5200 * 18) = 0.8 */
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(4800, 18, 78, &s), 0);
	KUNIT_EXPECT_EQ(test, s, 8000UL);
	/* 9849 over two: 9923, clamped to the deadband's limit */
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(9849, 1, 2, &s), 0);
	KUNIT_EXPECT_EQ(test, s, MMT_SHARE_MAX_BP);
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(100, 1, 1, &s), 0);
	KUNIT_EXPECT_EQ(test, s, MMT_SHARE_MIN_BP);
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(0, 1, 1, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(10000, 1, 1, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(5000, 0, 1, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(5000, 2, 1, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmt_bw_pair_share(5000, 1, 1ULL << 41, &s),
			-EINVAL);
}

/* ---- tier planning ---- */

struct topo_case {
	const char *desc;
	int nr;				/* nodes 0..nr-1 of the case */
	const char *cpus;		/* per node: 'c' CPUs, 'm' memory only, '-' none */
	const int *ids;			/* node ids, NULL: 0..nr-1 */
	const u8 (*dist)[8];		/* distances, NULL: 10 local, 20 remote */
	const int *adist;		/* abstract distances, NULL: unknown */
	int err;
	const int *want_target;		/* per node */
	const char *want_tier;		/* per node: 'u' upper, 'l' lower, '-' */
	int nr_upper, nr_lower;
	bool by_adist;
	const char *picks;		/* per node: 'a', 'u', 'l', 's'; NULL: auto */
};

static const u8 two_socket[8][8] = {
	/* nodes 0,1: sockets; 2: CXL on socket 0; 3: CXL on socket 1 */
	{ 10, 21, 14, 24 },
	{ 21, 10, 24, 14 },
	{ 14, 24, 10, 26 },
	{ 24, 14, 26, 10 },
};

static const u8 eight[8][8] = {
	{ 10, 12, 20, 20, 30, 31, 32, 30 },
	{ 12, 10, 20, 20, 31, 30, 30, 32 },
	{ 20, 20, 10, 12, 32, 30, 31, 30 },
	{ 20, 20, 12, 10, 30, 32, 30, 31 },
	{ 30, 31, 32, 30, 10, 40, 40, 40 },
	{ 31, 30, 30, 32, 40, 10, 40, 40 },
	{ 32, 30, 31, 30, 40, 40, 10, 40 },
	{ 30, 32, 30, 31, 40, 40, 40, 10 },
};

static const int t_two[] = { 1, 0 };
static const int t_none[] = { -1, -1 };
static const int t_two_socket[] = { 2, 3, 0, 1 };
static const int t_one_cpu[] = { 1, 0, 0, 0 };
static const int t_eight[] = { 4, 5, 5, 4, 0, 1, 1, 0 };
static const int t_sparse[] = { 5, -1, -1, -1, -1, 0 };
static const int t_tie[] = { 2, 2, 0 };

/* node0 DRAM (tier 4), node1 CXL (tier 38): as QEMU's HMAT bench */
static const int a_hmat[] = { 576, 4900 };
/* a CPU-less node as fast as DRAM sits in the top tier */
static const int a_fast_cxl[] = { 576, 600, 4900 };
static const int t_fast_cxl[] = { 2, 2, 0 };
/* one node unknown: fall back to CPUs */
static const int a_partial[] = { 576, 0 };
/* ids beyond any fixed table: Debian's MAX_NUMNODES is 1024 */
static const int i_high[] = { 0, 70, 1023 };
static const int t_high[] = { 70, 0, 0 };
static const int t_skip[] = { 1, 0, -1 };

static const struct topo_case topo_cases[] = {
	{ "DRAM + CXL", 2, "cm", NULL, NULL, NULL, 0,
	  t_two, "ul", 1, 1, false },
	{ "no lower tier", 2, "cc", NULL, NULL, NULL, 0,
	  t_none, "uu", 2, 0, false },
	{ "no CPU node", 2, "mm", NULL, NULL, NULL, -EINVAL,
	  NULL, NULL, 0, 2, false },
	{ "two sockets, one CXL each", 4, "ccmm", NULL, two_socket, NULL, 0,
	  t_two_socket, "uull", 2, 2, false },
	{ "all CPU-less but one", 4, "cmmm", NULL, NULL, NULL, 0,
	  t_one_cpu, "ulll", 1, 3, false },
	{ "eight nodes", 8, "ccccmmmm", NULL, eight, NULL, 0,
	  t_eight, "uuuullll", 4, 4, false },
	{ "sparse ids 0 and 5", 6, "c----m", NULL, NULL, NULL, 0,
	  t_sparse, "u----l", 1, 1, false },
	{ "equal distances tie to lowest id", 3, "ccm", NULL, NULL, NULL, 0,
	  t_tie, "uul", 2, 1, false },
	{ "HMAT tiers agree with CPUs", 2, "cm", NULL, NULL, a_hmat, 0,
	  t_two, "ul", 1, 1, true },
	{ "DRAM-fast CPU-less node is upper", 3, "cmm", NULL, NULL, a_fast_cxl,
	  0, t_fast_cxl, "uul", 2, 1, true },
	{ "partly unknown tiers fall back to CPUs", 2, "cm", NULL, NULL,
	  a_partial, 0, t_two, "ul", 1, 1, false },
	{ "node ids 0, 70 and 1023", 3, "cmm", i_high, NULL, NULL, 0,
	  t_high, "ull", 1, 2, false },
	{ "named upper: a CPU-less HBM node", 3, "cmm", NULL, NULL, NULL, 0,
	  t_fast_cxl, "uul", 2, 1, false, "uul" },
	{ "a CXL node left alone", 3, "cmm", NULL, NULL, NULL, 0,
	  t_skip, "uln", 1, 1, false, "aas" },
	{ "every node named lower", 2, "cm", NULL, NULL, NULL, -EINVAL,
	  NULL, NULL, 0, 2, false, "ll" },
	{ "named tiers over HMAT's", 2, "cm", NULL, NULL, a_hmat, 0,
	  t_two, "lu", 1, 1, true, "lu" },
	{ "only CPU-less nodes left: nothing to promote into", 2, "cm", NULL,
	  NULL, NULL, -EINVAL, NULL, NULL, 0, 1, false, "sa" },
};

KUNIT_ARRAY_PARAM_DESC(topo, topo_cases, desc);

static void mmt_plan_tiers_test(struct kunit *test)
{
	const struct topo_case *c = test->param_value;
	struct mmt_topo *topo;
	struct mmt_plan *plan;
	int a, b, slot[8];

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	plan = kunit_kzalloc(test, sizeof(*plan), GFP_KERNEL);
	if (!topo || !plan)
		kunit_skip(test, "out of memory");
	/* the planner sees the memory nodes only, by slot */
	for (a = 0; a < c->nr; a++) {
		slot[a] = -1;
		if (c->cpus[a] == '-')
			continue;
		slot[a] = topo->nr++;
		topo->nid[slot[a]] = c->ids ? c->ids[a] : a;
		topo->has_cpu[slot[a]] = c->cpus[a] == 'c';
		topo->adist[slot[a]] = c->adist ? c->adist[a] : 0;
		topo->pick[slot[a]] = !c->picks ? MMT_PICK_AUTO :
			c->picks[a] == 'u' ? MMT_PICK_UPPER :
			c->picks[a] == 'l' ? MMT_PICK_LOWER :
			c->picks[a] == 's' ? MMT_PICK_SKIP : MMT_PICK_AUTO;
	}
	for (a = 0; a < c->nr; a++)
		for (b = 0; b < c->nr; b++)
			if (slot[a] >= 0 && slot[b] >= 0)
				topo->dist[slot[a]][slot[b]] =
					c->dist ? c->dist[a][b] :
					a == b ? 10 : 20;
	KUNIT_ASSERT_EQ(test, mmt_plan_tiers(topo, plan), c->err);
	KUNIT_EXPECT_EQ(test, plan->nr_upper, c->nr_upper);
	KUNIT_EXPECT_EQ(test, plan->nr_lower, c->nr_lower);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, plan->by_adist, c->by_adist);
	KUNIT_EXPECT_EQ(test, plan->nr, topo->nr);
	for (a = 0; a < c->nr; a++) {
		int nid = c->ids ? c->ids[a] : a;
		int i = mmt_plan_slot(plan, nid);

		KUNIT_EXPECT_EQ_MSG(test, i, slot[a], "node %d", nid);
		if (i < 0)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, plan->target[i], c->want_target[a],
				    "node %d", nid);
		KUNIT_EXPECT_EQ_MSG(test, plan->tier[i],
				    c->want_tier[a] == 'u' ? MMT_TIER_UPPER :
				    c->want_tier[a] == 'l' ? MMT_TIER_LOWER :
				    MMT_TIER_NONE, "node %d", nid);
	}
}

/* the admin's lists, node by node: a list that names nodes is its tier */
static void mmt_pick_of_test(struct kunit *test)
{
	/* no list: the machine decides */
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, false, false, false, false),
			MMT_PICK_AUTO);
	/* skip_nodes alone leaves the others to the machine */
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, false, true, false, false),
			MMT_PICK_SKIP);
	/* upper_nodes=0: node 0 upper, every other memory node lower */
	KUNIT_EXPECT_EQ(test, mmt_pick_of(true, false, false, true, false),
			MMT_PICK_UPPER);
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, false, false, true, false),
			MMT_PICK_LOWER);
	/* lower_nodes=2: node 2 lower, the others upper */
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, true, false, false, true),
			MMT_PICK_LOWER);
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, false, false, false, true),
			MMT_PICK_UPPER);
	/* both lists: a node in neither is left alone */
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, false, false, true, true),
			MMT_PICK_SKIP);
	/* skip_nodes wins over the rule of the other lists */
	KUNIT_EXPECT_EQ(test, mmt_pick_of(false, false, true, true, false),
			MMT_PICK_SKIP);
}

/* more memory nodes than the planner takes, or none: refused */
static void mmt_plan_tiers_bounds_test(struct kunit *test)
{
	struct mmt_topo *topo;
	struct mmt_plan *plan;

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	plan = kunit_kzalloc(test, sizeof(*plan), GFP_KERNEL);
	if (!topo || !plan)
		kunit_skip(test, "out of memory");
	KUNIT_EXPECT_EQ(test, mmt_plan_tiers(topo, plan), -EINVAL);
	topo->nr = MMT_MAX_NODES + 1;
	KUNIT_EXPECT_EQ(test, mmt_plan_tiers(topo, plan), -EINVAL);
	KUNIT_EXPECT_EQ(test, plan->nr, 0);
	KUNIT_EXPECT_EQ(test, mmt_plan_slot(plan, 0), -1);
}

static struct kunit_case mmt_math_cases[] = {
	KUNIT_CASE_PARAM(mmt_bp_of_test, bp_of_gen_params),
	KUNIT_CASE_PARAM(mmt_bp_apply_test, bp_apply_gen_params),
	KUNIT_CASE_PARAM(mmt_quota_bytes_test, quota_gen_params),
	KUNIT_CASE(mmt_goal_score_test),
	KUNIT_CASE(mmt_counter_delta_test),
	KUNIT_CASE(mmt_tune_sample_us_test),
	KUNIT_CASE(mmt_bw_shares_test),
	KUNIT_CASE(mmt_bw_pair_share_test),
	{}
};

static struct kunit_suite mmt_math_suite = {
	.name = "mm_tiering_math",
	.test_cases = mmt_math_cases,
};

static struct kunit_case mmt_params_cases[] = {
	KUNIT_CASE(mmt_check_bp_test),
	KUNIT_CASE(mmt_check_quota_test),
	KUNIT_CASE(mmt_check_period_test),
	KUNIT_CASE(mmt_check_share_test),
	KUNIT_CASE_PARAM(mmt_effective_goals_test, goals_gen_params),
	KUNIT_CASE(mmt_zone_unusable_test),
	KUNIT_CASE(mmt_free_floor_test),
	KUNIT_CASE(mmt_admit_test),
	{}
};

static struct kunit_suite mmt_params_suite = {
	.name = "mm_tiering_goals",
	.test_cases = mmt_params_cases,
};

static struct kunit_case mmt_topo_cases[] = {
	KUNIT_CASE_PARAM(mmt_plan_tiers_test, topo_gen_params),
	KUNIT_CASE(mmt_plan_tiers_bounds_test),
	KUNIT_CASE(mmt_pick_of_test),
	{}
};

static struct kunit_suite mmt_topo_suite = {
	.name = "mm_tiering_topology",
	.test_cases = mmt_topo_cases,
};

kunit_test_suites(&mmt_math_suite, &mmt_params_suite, &mmt_topo_suite);

MODULE_DESCRIPTION("KUnit tests of mm_tiering's pure logic");
MODULE_LICENSE("GPL");

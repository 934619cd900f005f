// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mm_tiering's per-cgroup classes (mm-tiering/mmt_class.c):
 * the class list's grammar and its refusals, and the share arithmetic.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "mmt_class.h"
#include "mmt_logic.h"

struct parse_case {
	const char *desc;
	const char *val;
	int nr;			/* -1: refused */
	const char *path0;
	unsigned long share0;
};

static const struct parse_case parse_cases[] = {
	{ "empty is no class", "", 0, NULL, 0 },
	{ "a newline alone is no class", "\n", 0, NULL, 0 },
	{ "one service", "/system.slice/postgresql.service:6000", 1,
	  "/system.slice/postgresql.service", 6000 },
	{ "two, echo's newline", "/a.slice:6000,/b.slice:1000\n", 2,
	  "/a.slice", 6000 },
	{ "the whole node", "/a:10000", 1, "/a", 10000 },
	{ "a colon in a name: the last one splits", "/x:y:5", 1, "/x:y", 5 },
	{ "shares add up to 10000", "/a:5000,/b:5000", 2, "/a", 5000 },
	{ "a prefix is not a parent", "/a:1000,/ab:1000", 2, "/a", 1000 },
	{ "siblings", "/s/a:1000,/s/b:1000", 2, "/s/a", 1000 },
	{ "leading zeros", "/a:0100", 1, "/a", 100 },
	{ "no share", "/a", -1 },
	{ "empty share", "/a:", -1 },
	{ "zero share", "/a:0", -1 },
	{ "share above 10000", "/a:10001", -1 },
	{ "share too long", "/a:000001", -1 },
	{ "signed share", "/a:+5", -1 },
	{ "negative share", "/a:-5", -1 },
	{ "hex share", "/a:0x10", -1 },
	{ "relative path", "a.slice:100", -1 },
	{ "the root", "/:100", -1 },
	{ "empty path", ":100", -1 },
	{ "double slash", "/a//b:100", -1 },
	{ "trailing slash", "/a/:100", -1 },
	{ "dot", "/a/./b:100", -1 },
	{ "dot dot", "/a/../b:100", -1 },
	{ "dots in a name are fine", "/a..b:100", 1, "/a..b", 100 },
	{ "trailing comma", "/a:100,", -1 },
	{ "leading comma", ",/a:100", -1 },
	{ "space", "/a:100, /b:100", -1 },
	{ "over-committed", "/a:6000,/b:4001", -1 },
	{ "the same cgroup twice", "/a:100,/a:200", -1 },
	{ "a parent and its child", "/a:100,/a/b:200", -1 },
	{ "a child and its parent", "/a/b:100,/a:200", -1 },
	{ "eight classes", "/1:1,/2:1,/3:1,/4:1,/5:1,/6:1,/7:1,/8:1", 8,
	  "/1", 1 },
	{ "nine classes", "/1:1,/2:1,/3:1,/4:1,/5:1,/6:1,/7:1,/8:1,/9:1", -1 },
};

KUNIT_ARRAY_PARAM_DESC(parse, parse_cases, desc);

static void mmt_classes_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct mmt_classes *cls = kunit_kzalloc(test, sizeof(*cls), GFP_KERNEL);
	const char *why = "unset";
	int err;

	KUNIT_ASSERT_NOT_NULL(test, cls);
	cls->nr = 5;
	err = mmt_classes_parse(c->val, cls, &why);
	if (c->nr < 0) {
		KUNIT_EXPECT_EQ(test, err, -EINVAL);
		KUNIT_EXPECT_NOT_NULL(test, why);
		/* all or nothing: a refused list leaves no class behind */
		KUNIT_EXPECT_EQ(test, cls->nr, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_NULL(test, why);
	KUNIT_EXPECT_EQ(test, cls->nr, c->nr);
	if (c->nr) {
		KUNIT_EXPECT_STREQ(test, cls->path[0], c->path0);
		KUNIT_EXPECT_EQ(test, cls->share_bp[0], c->share0);
	}
}

/* The longest path fits, one more character is refused. */
static void mmt_classes_path_max_test(struct kunit *test)
{
	size_t sz = MMT_CLASS_PATH_MAX + 8;
	struct mmt_classes *cls = kunit_kzalloc(test, sizeof(*cls), GFP_KERNEL);
	char *val = kunit_kzalloc(test, sz, GFP_KERNEL);
	const char *why;

	KUNIT_ASSERT_NOT_NULL(test, cls);
	KUNIT_ASSERT_NOT_NULL(test, val);
	memset(val, 'a', MMT_CLASS_PATH_MAX - 1);
	val[0] = '/';
	memcpy(val + MMT_CLASS_PATH_MAX - 1, ":100", 5);
	KUNIT_EXPECT_EQ(test, mmt_classes_parse(val, cls, &why), 0);
	KUNIT_EXPECT_EQ(test, strlen(cls->path[0]),
			(size_t)MMT_CLASS_PATH_MAX - 1);
	memset(val, 'a', MMT_CLASS_PATH_MAX);
	val[0] = '/';
	memcpy(val + MMT_CLASS_PATH_MAX, ":100", 5);
	KUNIT_EXPECT_EQ(test, mmt_classes_parse(val, cls, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, cls->nr, 0);
}

static void mmt_classes_equal_test(struct kunit *test)
{
	struct mmt_classes *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct mmt_classes *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	const char *why;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	mmt_classes_parse("/a:100,/b:200", a, &why);
	mmt_classes_parse("/a:100,/b:200\n", b, &why);
	KUNIT_EXPECT_TRUE(test, mmt_classes_equal(a, b));
	mmt_classes_parse("/a:100,/b:201", b, &why);
	KUNIT_EXPECT_FALSE(test, mmt_classes_equal(a, b));
	mmt_classes_parse("/b:200,/a:100", b, &why);
	KUNIT_EXPECT_FALSE(test, mmt_classes_equal(a, b));
	mmt_classes_parse("/a:100", b, &why);
	KUNIT_EXPECT_FALSE(test, mmt_classes_equal(a, b));
}

struct goals_case {
	const char *desc;
	unsigned long share[3];
	int nr;
	unsigned long used_goal;
	unsigned long goal[3];
};

static const struct goals_case goals_cases[] = {
	{ "under the used goal: the shares", { 6000, 1000 }, 2, 9000,
	  { 6000, 1000 } },
	{ "exactly the used goal", { 6000, 3000 }, 2, 9000, { 6000, 3000 } },
	{ "over it: scaled in proportion", { 7000, 3000 }, 2, 9000,
	  { 6300, 2700 } },
	{ "one class of the whole node", { 10000 }, 1, 9970, { 9970 } },
	{ "rounded down, never above", { 3333, 3333, 3334 }, 3, 9000,
	  { 2999, 2999, 3000 } },
	{ "a node filled to nothing", { 5000 }, 1, 0, { 0 } },
	{ "no class", { 0 }, 0, 9000, { 0 } },
};

KUNIT_ARRAY_PARAM_DESC(goals, goals_cases, desc);

static void mmt_class_goals_test(struct kunit *test)
{
	const struct goals_case *c = test->param_value;
	unsigned long goal[3] = { 1, 1, 1 }, sum = 0;
	int i;

	mmt_class_goals(c->share, c->nr, c->used_goal, goal);
	for (i = 0; i < c->nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, goal[i], c->goal[i], "class %d", i);
		KUNIT_EXPECT_LE(test, goal[i], c->share[i]);
		sum += goal[i];
	}
	KUNIT_EXPECT_LE(test, sum, c->used_goal);
	/* nothing past the classes is written */
	for (; i < 3; i++)
		KUNIT_EXPECT_EQ(test, goal[i], 1UL);
}

/*
 * A class's own demotion runs above its goal and the band, its promotion
 * below its goal: between them neither runs, whatever the goal.
 */
static void mmt_class_band_test(struct kunit *test)
{
	unsigned long goal;

	KUNIT_EXPECT_EQ(test, mmt_class_demote_free_bp(6000), 3800UL);
	KUNIT_EXPECT_EQ(test, mmt_class_demote_free_bp(0),
			MMT_BP_MAX - MMT_CLASS_BAND_BP);
	KUNIT_EXPECT_EQ(test, mmt_class_demote_free_bp(9900), 0UL);
	KUNIT_EXPECT_EQ(test, mmt_class_demote_free_bp(MMT_BP_MAX), 0UL);
	for (goal = 0; goal <= MMT_BP_MAX; goal += 100) {
		unsigned long used_demoted = MMT_BP_MAX -
					     mmt_class_demote_free_bp(goal);

		KUNIT_EXPECT_GE(test, used_demoted, goal);
		KUNIT_EXPECT_LE(test, used_demoted, goal + MMT_CLASS_BAND_BP);
	}
}

/*
 * The classes' schemes end a context: on an upper node with the priming
 * walk, [own, prime, demote c0, room c0, demote c1, room c1]; on a lower
 * node [own, prime, promote c0, promote c1].
 */
static void mmt_class_role_test(struct kunit *test)
{
	static const enum mmt_class_role up[] = {
		MMT_ROLE_NODE, MMT_ROLE_NODE, MMT_ROLE_DEMOTE, MMT_ROLE_ROOM,
		MMT_ROLE_DEMOTE, MMT_ROLE_ROOM,
	};
	static const int up_class[] = { -1, -1, 0, 0, 1, 1 };
	int i, c;

	for (i = 0; i < ARRAY_SIZE(up); i++) {
		c = -1;
		KUNIT_EXPECT_EQ_MSG(test, mmt_class_role(i, 6, 2, false, &c),
				    up[i], "upper, scheme %d", i);
		KUNIT_EXPECT_EQ_MSG(test, c, up_class[i], "upper, scheme %d", i);
	}
	for (i = 0; i < 4; i++) {
		c = -1;
		KUNIT_EXPECT_EQ_MSG(test, mmt_class_role(i, 4, 2, true, &c),
				    i < 2 ? MMT_ROLE_NODE : MMT_ROLE_PROMOTE,
				    "lower, scheme %d", i);
		KUNIT_EXPECT_EQ(test, c, i < 2 ? -1 : i - 2);
	}
	/* without the priming walk (6.12 has none; classes or not) */
	KUNIT_EXPECT_EQ(test, mmt_class_role(1, 2, 1, true, &c),
			MMT_ROLE_PROMOTE);
	KUNIT_EXPECT_EQ(test, mmt_class_role(0, 2, 1, true, &c),
			MMT_ROLE_NODE);
	/* no class, or fewer schemes than the classes need: the node's own */
	c = -1;
	KUNIT_EXPECT_EQ(test, mmt_class_role(1, 2, 0, true, &c), MMT_ROLE_NODE);
	KUNIT_EXPECT_EQ(test, mmt_class_role(1, 2, 1, false, &c),
			MMT_ROLE_NODE);
	KUNIT_EXPECT_EQ(test, mmt_class_role(0, 1, 1, true, &c), MMT_ROLE_NODE);
	KUNIT_EXPECT_EQ(test, mmt_class_role(6, 6, 2, false, &c),
			MMT_ROLE_NODE);
	KUNIT_EXPECT_EQ(test, c, -1);
}

/* A class waits only while below its goal and its promotion moves pages. */
static void mmt_class_waits_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mmt_class_waits(2900, 7000, 4096, 0));
	/* nothing moved since the last look: nothing young left */
	KUNIT_EXPECT_FALSE(test, mmt_class_waits(2900, 7000, 4096, 4096));
	/* at or above its goal it takes no more room */
	KUNIT_EXPECT_FALSE(test, mmt_class_waits(7000, 7000, 8192, 4096));
	KUNIT_EXPECT_FALSE(test, mmt_class_waits(7100, 7000, 8192, 4096));
	/* counters that restarted (a commit) still count as moved */
	KUNIT_EXPECT_TRUE(test, mmt_class_waits(0, 1000, 0, 4096));
}

static struct kunit_case mmt_class_cases[] = {
	KUNIT_CASE_PARAM(mmt_classes_parse_test, parse_gen_params),
	KUNIT_CASE(mmt_classes_path_max_test),
	KUNIT_CASE(mmt_classes_equal_test),
	KUNIT_CASE_PARAM(mmt_class_goals_test, goals_gen_params),
	KUNIT_CASE(mmt_class_band_test),
	KUNIT_CASE(mmt_class_role_test),
	KUNIT_CASE(mmt_class_waits_test),
	{}
};

static struct kunit_suite mmt_class_suite = {
	.name = "mm_tiering_classes",
	.test_cases = mmt_class_cases,
};

kunit_test_suite(mmt_class_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering per-cgroup classes: the grammar of a class list and the share
 * arithmetic.  Pure functions of their arguments (KUnit: kunit/).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "mmt_class.h"
#include "mmt_logic.h"

/* Digits of a share at most: "10000". */
#define MMT_SHARE_DIGITS	5

/*
 * Path [@p, @p + @len) is a cgroup below the root: "/" then names, none
 * empty, "." or "..".  Return: NULL, or why not.
 */
static const char *mmt_class_path_bad(const char *p, size_t len)
{
	size_t i = 1, start;

	if (!len || p[0] != '/')
		return "a class's path starts with / (as under /sys/fs/cgroup)";
	if (len == 1)
		return "the root cgroup holds everyone: it cannot be a class";
	if (len >= MMT_CLASS_PATH_MAX)
		return "a class's path is 255 characters at most";
	while (i <= len) {
		start = i;
		while (i < len && p[i] != '/')
			i++;
		if (i == start)
			return "a class's path has an empty name (// or a trailing /)";
		if ((i - start == 1 && p[start] == '.') ||
		    (i - start == 2 && p[start] == '.' && p[start + 1] == '.'))
			return "a class's path has a . or .. name";
		i++;
	}
	return NULL;
}

/* Share [@p, @p + @len): decimal 1..10000.  Return: 0 or -EINVAL. */
static int mmt_class_share(const char *p, size_t len, unsigned long *bp)
{
	char buf[MMT_SHARE_DIGITS + 1];

	if (!len || len > MMT_SHARE_DIGITS || p[0] == '+')
		return -EINVAL;
	memcpy(buf, p, len);
	buf[len] = '\0';
	if (kstrtoul(buf, 10, bp) || !*bp || *bp > MMT_BP_MAX)
		return -EINVAL;
	return 0;
}

/* @a is @b, or a cgroup above it: they would share pages. */
static bool mmt_class_overlap(const char *a, const char *b)
{
	size_t la = strlen(a);

	return !strncmp(a, b, la) && (b[la] == '\0' || b[la] == '/');
}

/* One entry [@p, @p + @len) into class @i of @cls.  Return: NULL or why. */
static const char *mmt_class_entry(const char *p, size_t len,
				   struct mmt_classes *cls, int i)
{
	const char *colon = NULL, *why;
	size_t k;

	for (k = 0; k < len; k++)
		if (p[k] == ':')
			colon = p + k;
	if (!colon)
		return "each class is PATH:SHARE_BP";
	why = mmt_class_path_bad(p, colon - p);
	if (why)
		return why;
	if (mmt_class_share(colon + 1, p + len - colon - 1, &cls->share_bp[i]))
		return "a class's share is 1..10000 basis points";
	memcpy(cls->path[i], p, colon - p);
	cls->path[i][colon - p] = '\0';
	return NULL;
}

/* Return: NULL, or why the parsed classes of @cls cannot go together. */
static const char *mmt_classes_conflict(const struct mmt_classes *cls)
{
	unsigned long sum = 0;
	int i, j;

	for (i = 0; i < cls->nr; i++) {
		sum += cls->share_bp[i];
		for (j = 0; j < cls->nr; j++)
			if (i != j && mmt_class_overlap(cls->path[i],
							cls->path[j]))
				return "two classes overlap (the same cgroup, or one inside the other)";
	}
	if (sum > MMT_BP_MAX)
		return "the shares add up to more than 10000 basis points";
	return NULL;
}

/**
 * mmt_classes_parse() - a class list, "PATH:SHARE_BP[,PATH:SHARE_BP]...".
 * @val:	the text; a trailing newline is ignored, an empty text is no
 *		class
 * @cls:	the classes, all or (on error) none
 * @why:	on error, why the text was refused, for the log
 *
 * Each PATH is a cgroup v2 path as under /sys/fs/cgroup ("/" then names,
 * none empty, "." or ".."; not the root), each SHARE_BP 1..10000; at most
 * MMT_MAX_CLASSES classes, no two of them the same cgroup or one inside the
 * other, the shares adding up to 10000 at most.  Whether the cgroups exist
 * is the caller's question.
 *
 * Return: 0, or -EINVAL.
 */
int mmt_classes_parse(const char *val, struct mmt_classes *cls,
		      const char **why)
{
	size_t len = strlen(val), start = 0, end;

	memset(cls, 0, sizeof(*cls));
	*why = NULL;
	if (len && val[len - 1] == '\n')
		len--;
	while (len && start <= len) {
		end = start;
		while (end < len && val[end] != ',')
			end++;
		if (cls->nr == MMT_MAX_CLASSES)
			*why = "more than 8 classes";
		else
			*why = mmt_class_entry(val + start, end - start, cls,
					       cls->nr++);
		if (*why)
			break;
		start = end + 1;
	}
	if (!*why)
		*why = mmt_classes_conflict(cls);
	if (*why) {
		memset(cls, 0, sizeof(*cls));
		return -EINVAL;
	}
	return 0;
}

/* The same classes in the same order. */
bool mmt_classes_equal(const struct mmt_classes *a,
		       const struct mmt_classes *b)
{
	int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (a->share_bp[i] != b->share_bp[i] ||
		    strcmp(a->path[i], b->path[i]))
			return false;
	return true;
}

/**
 * mmt_class_goals() - each class's goal on one upper node, in basis points
 * of the node's memory (DAMON's node_memcg_used_bp).
 * @share_bp:	the classes' shares (validated: 1..10000 each, 10000 in all)
 * @nr:		how many
 * @used_goal_bp: what tiering fills the node to (its effective used goal,
 *		mmt_effective_goals())
 * @goal_bp:	out, one per class
 *
 * A share is of the node's memory, but the node is never filled above its
 * used goal: the free memory the demotion goal keeps is nobody's.  While
 * the shares together fit under the used goal each goal is its share;
 * above it every share is scaled down in proportion, rounded down, so that
 * the goals together never pass the used goal.
 */
void mmt_class_goals(const unsigned long *share_bp, int nr,
		     unsigned long used_goal_bp, unsigned long *goal_bp)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < nr; i++)
		sum += share_bp[i];
	for (i = 0; i < nr; i++)
		goal_bp[i] = sum <= used_goal_bp ? share_bp[i] :
			     mult_frac(share_bp[i], used_goal_bp, sum);
}

/**
 * mmt_class_demote_free_bp() - the node_memcg_free_bp goal of a class's
 * own demotion on an upper node whose class goal is @goal_bp: DAMON's
 * tuner runs it while the metric is below the goal, that is while the class
 * holds more than @goal_bp + MMT_CLASS_BAND_BP of the node.
 */
unsigned long mmt_class_demote_free_bp(unsigned long goal_bp)
{
	unsigned long over = min(goal_bp + MMT_CLASS_BAND_BP, MMT_BP_MAX);

	return MMT_BP_MAX - over;
}

/**
 * mmt_class_role() - what scheme @idx of a context's @nr schemes does, when
 * its last are @nr_classes classes' (mmt_class.h), on a @lower node or an
 * upper one.
 * @class:	the class, for a class's scheme
 *
 * Return: its role; MMT_ROLE_NODE also for a context with fewer schemes
 * than its classes need (a commit that changed them not yet applied).
 */
enum mmt_class_role mmt_class_role(int idx, int nr, int nr_classes,
				   bool lower, int *class)
{
	int per = lower ? 1 : 2, base = nr - nr_classes * per;

	if (nr_classes <= 0 || base < 1 || idx < base || idx >= nr)
		return MMT_ROLE_NODE;
	*class = (idx - base) / per;
	if (lower)
		return MMT_ROLE_PROMOTE;
	return (idx - base) % per ? MMT_ROLE_ROOM : MMT_ROLE_DEMOTE;
}

/**
 * mmt_class_waits() - whether a class waits for room on its target: below
 * its goal there (@used_bp < @goal_bp, DAMON's node_memcg_used_bp) and its
 * promotion moved pages since the last look (@applied, a cumulative
 * counter, against @last_applied).  A class with nothing young left to
 * promote, or at its goal, does not hold the others' promotion.
 */
bool mmt_class_waits(unsigned long used_bp, unsigned long goal_bp,
		     u64 applied, u64 last_applied)
{
	return used_bp < goal_bp && applied != last_applied;
}

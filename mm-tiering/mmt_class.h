/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering per-cgroup classes: the grammar of a class list and the share
 * arithmetic (mmt_class.c).  Pure, as mmt_logic.h: the same source is
 * compiled into the module and into the KUnit tests.
 *
 * A class is a cgroup v2 path, as under /sys/fs/cgroup, and the share of
 * each upper node's memory it is entitled to, in basis points:
 * "/system.slice/postgresql.service:6000,/batch.slice/job.service:1000".
 * Its hot pages are promoted while it holds less than its goal on the upper
 * node (mmt_class_goals()); its own pages are demoted only while it holds
 * more than its goal and MMT_CLASS_BAND_BP; the memory of no class is
 * tiered as without classes.
 */
#ifndef _MMT_CLASS_H
#define _MMT_CLASS_H

#include <linux/types.h>

/* Classes in one list: each costs a scheme on every node it is tiered on. */
#define MMT_MAX_CLASSES		8
/* Longest path, with its terminating NUL (cgroup names are short). */
#define MMT_CLASS_PATH_MAX	256
/*
 * Between its goal and this much above it, a class is neither promoted nor
 * demoted for its share: a class whose hot set moves across the goal does
 * not turn promotion and demotion of its own pages on and off.
 */
#define MMT_CLASS_BAND_BP	200UL

/**
 * struct mmt_classes - a validated class list (mmt_classes_parse()).
 * @nr:		classes, 0 for none
 * @path:	each class's cgroup path, NUL-terminated
 * @share_bp:	each class's share of an upper node's memory, 1..10000
 */
struct mmt_classes {
	int nr;
	char path[MMT_MAX_CLASSES][MMT_CLASS_PATH_MAX];
	unsigned long share_bp[MMT_MAX_CLASSES];
};

/*
 * The schemes of a class in a context: the last of the context's schemes,
 * one per class on a lower node (its promotion), two on an upper node (its
 * own demotion, then the room scheme that demotes memory of no class).
 */
enum mmt_class_role {
	MMT_ROLE_NODE,		/* the node's own, not a class's */
	MMT_ROLE_PROMOTE,
	MMT_ROLE_DEMOTE,
	MMT_ROLE_ROOM,
};

int mmt_classes_parse(const char *val, struct mmt_classes *cls,
		      const char **why);
bool mmt_classes_equal(const struct mmt_classes *a,
		       const struct mmt_classes *b);
void mmt_class_goals(const unsigned long *share_bp, int nr,
		     unsigned long used_goal_bp, unsigned long *goal_bp);
unsigned long mmt_class_demote_free_bp(unsigned long goal_bp);
enum mmt_class_role mmt_class_role(int idx, int nr, int nr_classes,
				   bool lower, int *class);
bool mmt_class_waits(unsigned long used_bp, unsigned long goal_bp,
		     u64 applied, u64 last_applied);

#endif /* _MMT_CLASS_H */

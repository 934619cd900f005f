/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the input parameters (mmt_params.c).
 */
#ifndef _MMT_PARAMS_H
#define _MMT_PARAMS_H

#include <linux/nodemask.h>
#include <linux/types.h>

#include "mmt_class.h"

/* The tunable inputs, as validated by the parameter setters. */
struct mmt_cfg {
	unsigned long promote_target_used_bp;
	unsigned long demote_target_free_bp;
	unsigned long quota_mb_per_s;
	bool controller;
	unsigned long period_ms;
	bool bandwidth;			/* mode=bandwidth */
	unsigned long upper_share_bp;	/* 0: from HMAT */
	/* the admin's tiers (mmt_pick_of()); empty: the machine decides */
	nodemask_t upper_nodes;
	nodemask_t lower_nodes;
	nodemask_t skip_nodes;
	/*
	 * the classes (mmt_class.h), as the list was when read: each one's
	 * cgroup id (0: no such cgroup now, the class is idle) and share
	 */
	int nr_classes;
	u64 class_id[MMT_MAX_CLASSES];
	unsigned long class_share_bp[MMT_MAX_CLASSES];
};

void mmt_inputs(struct mmt_cfg *cfg);
int mmt_check_node_lists(const struct mmt_cfg *cfg, const char *who);
bool mmt_node_lists_equal(const struct mmt_cfg *a, const struct mmt_cfg *b);
int mmt_len(const char *val);
int mmt_check_classes(const struct mmt_cfg *cfg, const char *who);
void mmt_classes_applied(void);
const char *mmt_class_path(int i);

#endif /* _MMT_PARAMS_H */

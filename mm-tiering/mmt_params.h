/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the input parameters (mmt_params.c).
 */
#ifndef _MMT_PARAMS_H
#define _MMT_PARAMS_H

#include <linux/nodemask.h>
#include <linux/types.h>

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
};

void mmt_inputs(struct mmt_cfg *cfg);
int mmt_check_node_lists(const struct mmt_cfg *cfg, const char *who);
bool mmt_node_lists_equal(const struct mmt_cfg *a, const struct mmt_cfg *b);
int mmt_len(const char *val);

#endif /* _MMT_PARAMS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: building DAMON contexts for one memory node.
 */
#ifndef _MMT_CTX_H
#define _MMT_CTX_H

#include "mmt_logic.h"

struct damon_ctx;

/* The tunable inputs, as validated by the parameter setters. */
struct mmt_cfg {
	unsigned long promote_target_used_bp;
	unsigned long demote_target_free_bp;
	unsigned long quota_mb_per_s;
	bool controller;
	unsigned long period_ms;
};

/* Quota and apply period of every scheme, in milliseconds. */
#define MMT_QUOTA_INTERVAL_MS	100

int mmt_node_goals(int nid, const struct mmt_cfg *cfg,
		   struct mmt_goals *goals);
struct damon_ctx *mmt_build_ctx(int nid, enum mmt_tier tier, int target,
				 const struct mmt_cfg *cfg);

#endif /* _MMT_CTX_H */

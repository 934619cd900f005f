/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the tiers the inputs give on this machine (mmt_plan.c).
 */
#ifndef _MMT_PLAN_H
#define _MMT_PLAN_H

#include <linux/types.h>

struct mmt_cfg;
struct mmt_plan;

int mmt_read_plan(struct mmt_plan *plan, const struct mmt_cfg *cfg,
		  bool quiet);
int mmt_plan_check(const struct mmt_cfg *cfg, const char *who);

#endif /* _MMT_PLAN_H */

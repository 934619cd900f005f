/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the module's life and its nodes (mmt_main.c); all with
 * mmt_lock held.
 */
#ifndef _MMT_MAIN_H
#define _MMT_MAIN_H

#include <linux/types.h>

struct mmt_cfg;
struct mmt_node;

bool mmt_running(void);
void mmt_node_stopped(struct mmt_node *n, const char *why, int err);
void mmt_log_ranges(const struct mmt_node *n, const char *pre,
		    const char *what);
int mmt_plan_check(const struct mmt_cfg *cfg, const char *who);
int mmt_replan(void);
/* memory hotplug: takes mmt_lock itself */
void mmt_topology_changed(void);
/* mmt_commit.c */
int mmt_commit_topology(void);

#endif /* _MMT_MAIN_H */

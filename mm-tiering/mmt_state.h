/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the module's shared run-time state (see mmt_main.c).
 */
#ifndef _MMT_STATE_H
#define _MMT_STATE_H

#include <linux/damon.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "mmt_ctx.h"
#include "mmt_logic.h"

/* Per tiered node: its context and what its kdamond last reported. */
struct mmt_node {
	int nid;
	enum mmt_tier tier;
	int target;
	struct damon_ctx *ctx;
	struct damon_call_control report;
	/* written by the kdamond, read by getters and the loop; stat lock */
	struct damos_stat stat;
	unsigned long esz;
	unsigned long goal_current;
	unsigned long goal_target;
	unsigned long sample_us;
	unsigned long aggr_us;
	unsigned int nr_regions;
	/* controller outputs, applied by the kdamond; stat lock */
	bool knob_set;
	unsigned long knob_sz;
	unsigned int knob_min_accesses;
	unsigned int knob_min_age;
};

/* Serializes enable, disable, commit and the control loop. */
extern struct mutex mmt_lock;
/* Protects the kdamond-published fields and the knobs of struct mmt_node. */
extern spinlock_t mmt_stat_lock;
extern struct mmt_node *mmt_nodes;
extern int mmt_nr_nodes;
extern struct mmt_cfg mmt_running_cfg;

/* mmt_loop.c: the feedback controller; all with mmt_lock held */
int mmt_loop_start(void);
void mmt_loop_stop(void);
int mmt_loop_show(char *buf, int len, int size);

#endif /* _MMT_STATE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the node table, the module's run-time state (mmt_nodes.c).
 */
#ifndef _MMT_NODES_H
#define _MMT_NODES_H

#include <linux/completion.h>
#include <linux/damon.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "mmt_compat.h"
#include "mmt_ctl.h"
#include "mmt_ctx.h"
#include "mmt_hook.h"
#include "mmt_logic.h"
#include "mmt_params.h"

/*
 * Schemes per context: one, but two in a lower node's context in bandwidth
 * mode (index 0 promotes, 1 pushes down).
 */
#define MMT_NR_SCHEMES	2

/* What a kdamond last reported of one scheme, and the quota set for it. */
struct mmt_scheme_state {
	struct damos_stat stat;
	unsigned long goal_current;
	unsigned long goal_target;
	/* controller output: quota size, applied by the kdamond */
	unsigned long knob_sz;
	/* promotion held while memory goes offline: the quota size it had */
	bool held;
	unsigned long held_sz;
	/*
	 * admission (mmt_kdamond.c), kdamond only: the quota size a promoting
	 * scheme had before admission capped it, the goal target an upper
	 * node's free goal had before its floor raised it
	 */
	bool capped;
	unsigned long uncapped_sz;
	bool raised;
	unsigned long unraised_goal;
};

/* Per tiered node: its context and what its kdamond last reported. */
struct mmt_node {
	int nid;
	enum mmt_tier tier;
	int target;
	/* lower nodes promoting into @target, this one among them; unlocked */
	unsigned int promoters;
	struct damon_ctx *ctx;
	struct mmt_hook report;
	/* the node's memory its context was built on (mmt_lock) */
	struct mmt_ranges ranges;
	/* written by the kdamond, read by getters and the loop; stat lock */
	struct mmt_scheme_state sch[MMT_NR_SCHEMES];
	/* bandwidth mode (a lower node's context with two schemes) */
	bool bw;
	unsigned long esz;
	unsigned long sample_us;
	unsigned long aggr_us;
	unsigned int nr_regions;
	/* the priming walk (mmt_ctx.c): "none", "walking" or "done" */
	const char *prime;
	/* bytes of regions the scheme's access pattern matches */
	unsigned long eligible;
	/* bytes of regions per heat bucket (mmt_heat_bucket()) */
	u64 heat[MMT_NR_HEAT];
	/* of heat[0], the bytes of idle regions (mmt_region_idle()) */
	u64 idle;
	/* controller outputs, applied by the kdamond; stat lock */
	bool knob_set;
	/* promoters: least heat bucket; demoters: buckets below this */
	unsigned int knob_heat;
	unsigned int knob_min_age;
	unsigned long knob_goal;	/* goal target value, 0: keep */
	unsigned long knob_min_sample_us;
	unsigned long knob_max_sample_us;
	/* bandwidth mode: the loop's last moves up and down, per period */
	u64 bw_up, bw_down;
	/*
	 * the module's own time in the kdamond (mmt_report_fn(), every
	 * sample), in ns: written by the kdamond alone, read unlocked
	 */
	u64 hook_ns;
	/* aggregations since the module last tuned the intervals; kdamond */
	unsigned int tune_aggrs;
	/*
	 * a commit handed to the kdamond, whether the kdamond is applying it
	 * (then only the kdamond clears commit_src), and its result; stat
	 * lock
	 */
	struct damon_ctx *commit_src;
	bool commit_busy;
	bool commit_bw;
	int commit_err;
	struct completion commit_done;
	/* why the kdamond stopped (one word), NULL while it runs; mmt_lock */
	const char *stopped;
	int stop_err;
};

/* Serializes enable, disable, commit and the control loop. */
extern struct mutex mmt_lock;
/* Protects the kdamond-published fields and the knobs of struct mmt_node. */
extern spinlock_t mmt_stat_lock;
/*
 * The running nodes, mmt_nr_nodes of them; each its own allocation, which
 * never moves while its kdamond runs (its report call points at it): a
 * node that joins or leaves (mmt_retier()) changes only this array.
 */
extern struct mmt_node **mmt_nodes;
extern int mmt_nr_nodes;
extern struct mmt_cfg mmt_running_cfg;

/* All with mmt_lock held. */
int mmt_nodes_alloc(void);
void mmt_nodes_free(void);
bool mmt_running(void);
void mmt_node_stopped(struct mmt_node *n, const char *why, int err);
void mmt_lowers_of(int target, nodemask_t *lowers);
int mmt_keep_planned(const struct mmt_plan *plan, const char *why);
int mmt_build_nodes(const struct mmt_plan *plan, const struct mmt_cfg *cfg,
		    int (*report)(void *data, bool change),
		    struct damon_ctx **ctxs, int *nr);
int mmt_start_nodes(struct damon_ctx **ctxs, int nr, int first);
void mmt_drop_nodes(int first);
bool mmt_ranges_update(void);
void mmt_log_ranges(const struct mmt_node *n, const char *pre,
		    const char *what);

#endif /* _MMT_NODES_H */

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

/*
 * A node's state in parts by who writes it and under which rule; a field
 * is read or written only as its part says.
 */

/* One scheme as its kdamond last published it. */
struct mmt_scheme_seen {
	struct damos_stat stat;
	unsigned long goal_current;
	unsigned long goal_target;
};

/*
 * What a node's kdamond publishes after every sample, for the control loop
 * and the status: written by the kdamond, read by others; mmt_stat_lock.
 */
struct mmt_seen {
	struct mmt_scheme_seen sch[MMT_NR_SCHEMES];
	/* the first scheme's effective quota, bytes */
	unsigned long esz;
	unsigned long sample_us;
	unsigned long aggr_us;
	unsigned int nr_regions;
	/* the priming walk (mmt_ctx.c): "none", "walking" or "done" */
	const char *prime;
	/* bytes of regions the first scheme's access pattern matches */
	unsigned long eligible;
	/* bytes of regions per heat bucket (mmt_heat_bucket()) */
	u64 heat[MMT_NR_HEAT];
	/* of heat[0], the bytes of idle regions (mmt_region_idle()) */
	u64 idle;
	/*
	 * each class's schemes (mmt_ctx.h: on a lower node its promotion, on
	 * an upper node its demotion and the room scheme)
	 */
	struct mmt_scheme_seen cls[MMT_MAX_CLASSES][2];
};

/*
 * The control loop's outputs for a node, applied whole by its kdamond after
 * the next sample: written by the loop, read by the kdamond; mmt_stat_lock.
 */
struct mmt_knobs {
	bool set;
	/* quota sizes, bytes per quota interval, by scheme */
	unsigned long sz[MMT_NR_SCHEMES];
	/* promoters: least heat bucket; demoters: buckets below this */
	unsigned int heat;
	unsigned int min_age;
	unsigned long goal;	/* goal target value, 0: keep */
	unsigned long min_sample_us;
	unsigned long max_sample_us;
};

/*
 * What the kdamond changed in one of its schemes and gives back: the quota
 * size a promotion hold (while memory goes offline) or admission replaced,
 * the goal target an upper node's floor raised (mmt_kdamond.c).
 */
struct mmt_scheme_own {
	bool held;
	unsigned long held_sz;
	bool capped;
	unsigned long uncapped_sz;
	bool raised;
	unsigned long unraised_goal;
};

/* The kdamond's own: no other thread writes these. */
struct mmt_kdamond_own {
	struct mmt_scheme_own sch[MMT_NR_SCHEMES];
	/* a lower node's class promotion: admission, and its bytes applied */
	struct mmt_scheme_own cls[MMT_MAX_CLASSES];
	unsigned long cls_applied[MMT_MAX_CLASSES];
	/* until when a class waits for room on the target (jiffies) */
	unsigned long cls_wait;
	/* aggregations since the module last tuned the intervals */
	unsigned int tune_aggrs;
	/*
	 * the module's own time in the kdamond (mmt_report_fn(), every
	 * sample), ns; read unlocked (READ_ONCE) by the loop
	 */
	u64 hook_ns;
};

/*
 * A commit handed to the kdamond (mmt_commit.c), whether the kdamond is
 * applying it (then only the kdamond clears @src), and its result;
 * mmt_stat_lock.
 */
struct mmt_commit_slot {
	struct damon_ctx *src;
	bool busy;
	bool bw;
	int nr_classes;
	int err;
	struct completion done;
};

/* Per tiered node: its context and its state, in the parts above. */
struct mmt_node {
	/* set when the node is built, fixed while its kdamond runs */
	int nid;
	enum mmt_tier tier;
	int target;
	struct damon_ctx *ctx;
	struct mmt_hook report;
	/* lower nodes promoting into @target, this one among them; READ_ONCE */
	unsigned int promoters;
	/*
	 * bandwidth mode (a lower node's context with two schemes): set when
	 * built, switched by the kdamond at a commit; mmt_stat_lock
	 */
	bool bw;
	/* the classes, as bw: their schemes end the context (mmt_ctx.h) */
	int nr_classes;
	/* mmt_lock: the node's memory its context was built on */
	struct mmt_ranges ranges;
	/* mmt_lock: why the kdamond stopped (one word), NULL while it runs */
	const char *stopped;
	int stop_err;
	/* the loop's own (mmt_lock): bandwidth mode's last moves per period */
	u64 bw_up, bw_down;
	struct mmt_seen seen;
	struct mmt_knobs knob;
	struct mmt_commit_slot commit;
	struct mmt_kdamond_own own;
};

/* Serializes enable, disable, commit and the control loop. */
extern struct mutex mmt_lock;
/* Protects each node's seen, knob, commit and bw. */
extern spinlock_t mmt_stat_lock;
/*
 * The running nodes, mmt_nr_nodes of them; each its own allocation, which
 * never moves while its kdamond runs (its report call points at it): a
 * node that joins or leaves (mmt_retier()) changes only this array.
 */
extern struct mmt_node **mmt_nodes;
extern int mmt_nr_nodes;
extern struct mmt_cfg mmt_running_cfg;
/*
 * Per node and class (nid * MMT_MAX_CLASSES + class): until when (jiffies)
 * the class has young pages waiting on a lower node for room on that upper
 * node.  Written by the lower nodes' kdamonds, read by the upper node's
 * (READ_ONCE); lives from a start to the matching stop.
 */
extern unsigned long *mmt_class_wait;

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

// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the node table.
 *
 * One struct mmt_node per tiered memory node, with its DAMON context: this
 * file owns the table and its two locks, builds nodes and their contexts,
 * starts, keeps and drops them.  It decides nothing about when: that is
 * mmt_engine.c's, which holds mmt_lock around every call here.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "mmt_compat.h"
#include "mmt_ctx.h"
#include "mmt_damon.h"
#include "mmt_hook.h"
#include "mmt_logic.h"
#include "mmt_nodes.h"

DEFINE_MUTEX(mmt_lock);
DEFINE_SPINLOCK(mmt_stat_lock);
struct mmt_node **mmt_nodes;
int mmt_nr_nodes;
struct mmt_cfg mmt_running_cfg;
unsigned long *mmt_class_wait;

/* An empty table, with room for every node: a node joining later is appended. */
int mmt_nodes_alloc(void)
{
	mmt_nodes = kcalloc(MMT_MAX_NODES, sizeof(*mmt_nodes), GFP_KERNEL);
	mmt_class_wait = kcalloc(nr_node_ids * MMT_MAX_CLASSES,
				 sizeof(*mmt_class_wait), GFP_KERNEL);
	mmt_nr_nodes = 0;
	if (mmt_nodes && mmt_class_wait)
		return 0;
	kfree(mmt_class_wait);
	kfree(mmt_nodes);
	mmt_class_wait = NULL;
	mmt_nodes = NULL;
	return -ENOMEM;
}

/* Stop every context and free the table; the loop stopped. */
void mmt_nodes_free(void)
{
	mmt_drop_nodes(0);
	kfree(mmt_nodes);
	mmt_nodes = NULL;
	kfree(mmt_class_wait);
	mmt_class_wait = NULL;
}

/* Record, once, that @n's kdamond stopped and why. */
void mmt_node_stopped(struct mmt_node *n, const char *why, int err)
{
	if (n->stopped)
		return;
	n->stopped = why;
	n->stop_err = err;
	pr_warn("node %d: kdamond stopped (%s, %d); enabled reads N until enabled=Y restarts every node\n",
		n->nid, why, err);
}

/*
 * True when every context runs; a kdamond that stopped by itself is not
 * (and is recorded as stopped).
 */
bool mmt_running(void)
{
	bool all = mmt_nr_nodes > 0;
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (mmt_damon_is_running(n->ctx))
			continue;
		mmt_node_stopped(n, "kdamond_exited", 0);
		all = false;
	}
	return all;
}

/* Free a node whose context, if it has one, is stopped. */
static void mmt_free_node(struct mmt_node *n)
{
	if (n->ctx)
		mmt_call(damon_destroy_ctx)(n->ctx);
	mmt_ranges_free(&n->ranges);
	kfree(n);
}

static void mmt_stop_node(struct mmt_node *n)
{
	if (n->ctx)
		mmt_call(damon_stop)(&n->ctx, 1);
}

/*
 * Stop the contexts of mmt_nodes[@first..] and free those nodes; the loop
 * stopped.  Each node is its own allocation, so the kdamonds of the nodes
 * before @first, whose report calls point at their nodes, keep running.
 */
void mmt_drop_nodes(int first)
{
	int i;

	for (i = first; i < mmt_nr_nodes; i++)
		mmt_stop_node(mmt_nodes[i]);
	for (i = first; i < mmt_nr_nodes; i++) {
		mmt_free_node(mmt_nodes[i]);
		mmt_nodes[i] = NULL;
	}
	mmt_nr_nodes = first;
}

/*
 * Keep at the front of mmt_nodes the nodes whose tier and target in @plan
 * are the ones they run with; stop and free the others.  The loop stopped.
 * Return: how many are kept.
 */
int mmt_keep_planned(const struct mmt_plan *plan, const char *why)
{
	int i, kept = 0;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		int slot = mmt_plan_slot(plan, n->nid);

		if (slot >= 0 && plan->target[slot] == n->target &&
		    plan->tier[slot] == n->tier) {
			mmt_nodes[kept++] = n;
			continue;
		}
		pr_info("%s: node %d stops (it ran as %s tier to node %d)\n",
			why, n->nid,
			n->tier == MMT_TIER_UPPER ? "upper" : "lower",
			n->target);
		mmt_stop_node(n);
		mmt_free_node(n);
	}
	for (i = kept; i < mmt_nr_nodes; i++)
		mmt_nodes[i] = NULL;
	mmt_nr_nodes = kept;
	return kept;
}

/* The running node of id @nid, or NULL. */
static struct mmt_node *mmt_find_node(int nid)
{
	int i;

	for (i = 0; i < mmt_nr_nodes; i++)
		if (mmt_nodes[i]->nid == nid)
			return mmt_nodes[i];
	return NULL;
}

/* The lower nodes of the table that promote into node @target. */
void mmt_lowers_of(int target, nodemask_t *lowers)
{
	int i;

	nodes_clear(*lowers);
	for (i = 0; i < mmt_nr_nodes; i++)
		if (mmt_nodes[i]->tier == MMT_TIER_LOWER &&
		    mmt_nodes[i]->target == target)
			node_set(mmt_nodes[i]->nid, *lowers);
}

/*
 * Each lower node's count of the lower nodes that promote into its target,
 * itself among them: they share the target's admitted room (mmt_kdamond.c).
 * A node that leaves later leaves the counts high, never low.
 */
static void mmt_count_promoters(void)
{
	nodemask_t lowers;
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER)
			continue;
		mmt_lowers_of(n->target, &lowers);
		WRITE_ONCE(n->promoters, nodes_weight(lowers));
	}
}

static void mmt_explain_goals(struct mmt_node *n, const struct mmt_cfg *cfg)
{
	struct mmt_goals g;

	if (n->tier != MMT_TIER_UPPER || mmt_node_goals(n->nid, cfg, &g) ||
	    !g.raised)
		return;
	pr_info("node %d: demote_target_free_bp=%lu is below the node's high watermark + %lu bp; using free %lu bp and used %lu bp\n",
		n->nid, cfg->demote_target_free_bp, MMT_WMARK_HEADROOM_BP,
		g.free_bp, g.used_bp);
}

/*
 * "@pre node N: @what [start, end) ..." in the kernel log, as many ranges
 * as fit in one line, then how many there are.
 */
void mmt_log_ranges(const struct mmt_node *n, const char *pre,
		    const char *what)
{
	char buf[640];
	struct seq_buf s;
	int i;

	seq_buf_init(&s, buf, sizeof(buf));
	for (i = 0; i < n->ranges.nr; i++) {
		/* room for one more range and the count */
		if (sizeof(buf) - seq_buf_used(&s) < 80) {
			seq_buf_printf(&s, " ... (%d ranges)", n->ranges.nr);
			break;
		}
		seq_buf_printf(&s, " [%#lx, %#lx)", n->ranges.r[i].start,
			       n->ranges.r[i].end);
	}
	pr_info("%snode %d: %s%s\n", pre, n->nid, what, seq_buf_str(&s));
}

/* Build @n's context under @cfg, its kdamond to call @report with @n. */
static int mmt_build_node(struct mmt_node *n, const struct mmt_cfg *cfg,
			  int (*report)(void *data, bool change))
{
	nodemask_t lowers;

	mmt_lowers_of(n->target, &lowers);
	n->bw = cfg->bandwidth && n->tier == MMT_TIER_LOWER;
	n->nr_classes = cfg->nr_classes;
	n->ctx = mmt_build_ctx(n->nid, n->tier, n->target, &lowers, cfg);
	if (IS_ERR(n->ctx)) {
		int err = PTR_ERR(n->ctx);

		n->ctx = NULL;
		return err;
	}
	mmt_hook_prepare(n->ctx, &n->report, report, n);
	/* what the context was built on; none: the next event looks */
	mmt_node_ranges(n->nid, &n->ranges);
	mmt_explain_goals(n, cfg);
	mmt_log_ranges(n, "", "monitoring");
	return 0;
}

/*
 * A node for each tiered node of @plan that has none yet, appended to
 * mmt_nodes, then the context of each under @cfg (a lower node's context
 * names its siblings), appended to @ctxs (*@nr of them); each kdamond is
 * to call @report with its node.  Return: 0 or the first error; the
 * caller drops what was built (mmt_drop_nodes()).
 */
int mmt_build_nodes(const struct mmt_plan *plan, const struct mmt_cfg *cfg,
		    int (*report)(void *data, bool change),
		    struct damon_ctx **ctxs, int *nr)
{
	int i, first = mmt_nr_nodes, err;

	*nr = 0;
	for (i = 0; i < plan->nr; i++) {
		struct mmt_node *n;

		if (plan->target[i] < 0 || mmt_find_node(plan->nid[i]))
			continue;
		n = kzalloc_obj(*n);
		if (!n)
			return -ENOMEM;
		n->nid = plan->nid[i];
		n->tier = plan->tier[i];
		n->target = plan->target[i];
		mmt_nodes[mmt_nr_nodes++] = n;
	}
	for (i = first; i < mmt_nr_nodes; i++) {
		err = mmt_build_node(mmt_nodes[i], cfg, report);
		if (err)
			return err;
		ctxs[(*nr)++] = mmt_nodes[i]->ctx;
	}
	mmt_count_promoters();
	return 0;
}

/*
 * Start the @nr built contexts @ctxs, those of mmt_nodes[@first..], and
 * each kdamond's report call.
 */
int mmt_start_nodes(struct damon_ctx **ctxs, int nr, int first)
{
	int i, err;

	err = mmt_call(damon_start)(ctxs, nr, false);
	if (err == -EBUSY)
		pr_err("DAMON is running exclusively for another user: DAMON_STAT (Debian 7.x starts it at boot), DAMON_RECLAIM or DAMON_LRU_SORT; stop it first: echo N > /sys/module/damon_stat/parameters/enabled (or boot with damon_stat.enabled=N), echo N > /sys/module/damon_reclaim/parameters/enabled, echo N > /sys/module/damon_lru_sort/parameters/enabled\n");
	else if (err)
		pr_err("damon_start() failed: %d\n", err);
	if (err)
		return err;
	for (i = first; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		mmt_hook_start(n->ctx, &n->report);
		pr_info("node %d (%s tier): %s to node %d, kdamond %d\n",
			n->nid, n->tier == MMT_TIER_UPPER ? "upper" : "lower",
			n->tier == MMT_TIER_UPPER ? "demoting cold pages" :
			"promoting hot pages", n->target,
			mmt_damon_kdamond_pid(n->ctx));
	}
	return 0;
}

/*
 * Record the memory ranges of the nodes now; true if any differs from
 * what their contexts were built on.
 */
bool mmt_ranges_update(void)
{
	bool changed = false;
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		struct mmt_ranges now;

		/* no memory for the list: as if changed, the commit tells */
		if (!mmt_node_ranges(n->nid, &now) &&
		    mmt_ranges_equal(&now, &n->ranges)) {
			mmt_ranges_free(&now);
			continue;
		}
		changed = true;
		mmt_ranges_free(&n->ranges);
		n->ranges = now;
	}
	return changed;
}

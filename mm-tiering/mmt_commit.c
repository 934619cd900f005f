// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: committing inputs to the running contexts, all or nothing.
 *
 * Builds every node's context of the new inputs and of the running ones
 * (for the rollback) before the first commit, hands each to its kdamond
 * (taken in mmt_kdamond.c at the next sample), waits for all, and puts
 * every node back when one fails.  The callers (mmt_engine.c: commit_inputs
 * and memory hotplug) hold mmt_lock; the controller (mmt_loop.c) restarts
 * on the new inputs.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/completion.h>
#include <linux/damon.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "mmt_commit.h"
#include "mmt_ctx.h"
#include "mmt_damon.h"
#include "mmt_loop.h"
#include "mmt_nodes.h"
#include "mmt_params.h"

/* Scratch contexts of every node under one configuration. */
static void mmt_free_scratch(struct damon_ctx **src)
{
	int i;

	if (!src)
		return;
	for (i = 0; i < mmt_nr_nodes; i++)
		if (src[i])
			mmt_call(damon_destroy_ctx)(src[i]);
	kfree(src);
}

static struct damon_ctx **mmt_build_scratch(const struct mmt_cfg *cfg,
					    int *err)
{
	struct damon_ctx **src;
	nodemask_t lowers;
	int i;

	src = kcalloc(mmt_nr_nodes, sizeof(*src), GFP_KERNEL);
	if (!src) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		struct damon_ctx *c;

		mmt_lowers_of(n->target, &lowers);
		c = mmt_build_ctx(n->nid, n->tier, n->target, &lowers, cfg);
		if (IS_ERR(c)) {
			*err = PTR_ERR(c);
			mmt_free_scratch(src);
			return NULL;
		}
		src[i] = c;
	}
	return src;
}

/* Cut the kdamond's sleep short (a sample can take up to 10 s). */
static void mmt_wake_kdamond(struct damon_ctx *ctx)
{
	mutex_lock(&ctx->kdamond_lock);
	if (ctx->kdamond)
		wake_up_process(ctx->kdamond);
	mutex_unlock(&ctx->kdamond_lock);
}

/*
 * How long a commit may wait for a kdamond to start it: the kdamond is
 * woken every 100 ms, and even an unwoken sample lasts at most
 * MMT_MAX_SAMPLE_US (10 s); one that has not started by then is stuck, and
 * the writer, who holds mmt_lock and so every parameter, gets an error.
 */
#define MMT_COMMIT_TIMEOUT	(30 * HZ)

/*
 * Wait until node @n's kdamond applied its commit, or withdraw the commit
 * when the kdamond stopped or had not started it by @deadline (jiffies).
 * Return: the commit's result, -ECANCELED (stopped) or -ETIMEDOUT.
 */
static int mmt_wait_commit(struct mmt_node *n, unsigned long deadline)
{
	bool pending, running;

	while (!wait_for_completion_timeout(&n->commit.done, HZ / 10)) {
		running = mmt_damon_is_running(n->ctx);
		if (running && time_before(jiffies, deadline)) {
			/* it was busy when woken, and went to sleep since */
			mmt_wake_kdamond(n->ctx);
			continue;
		}
		/*
		 * stopped: its calls are over, it applied the commit or never
		 * will; or late: withdrawn unless it is applying it now
		 */
		spin_lock(&mmt_stat_lock);
		pending = n->commit.src && !n->commit.busy;
		if (pending)
			n->commit.src = NULL;
		spin_unlock(&mmt_stat_lock);
		if (pending) {
			if (running)
				pr_warn("commit_inputs: node %d: its kdamond took no commit in %u s\n",
					n->nid, MMT_COMMIT_TIMEOUT / HZ);
			return running ? -ETIMEDOUT : -ECANCELED;
		}
		if (!running)
			break;
		/* being applied: done within this sample */
	}
	return n->commit.err;
}

/*
 * Commit @src[i] to node i's running context, for i in [0, @nr), all at
 * once: each kdamond applies its own at its next sample (mmt_report_fn();
 * 6.12: at the end of its aggregation), woken now, so a commit waits one
 * sampling interval (6.12: aggregation), not one per node.
 * Return: 0, or the error of the first node that failed (its index in
 * @failed); mmt_lock held.
 */
static int mmt_commit_nodes(struct damon_ctx **src, const struct mmt_cfg *cfg,
			    int nr, int *failed)
{
	unsigned long deadline;
	int i, err, first = 0;

	for (i = 0; i < nr; i++) {
		struct mmt_node *n = mmt_nodes[i];

		/* a stopped kdamond takes nothing (the rollback's case) */
		if (n->stopped)
			continue;
		init_completion(&n->commit.done);
		spin_lock(&mmt_stat_lock);
		n->commit.src = src[i];
		n->commit.bw = cfg->bandwidth && n->tier == MMT_TIER_LOWER;
		n->commit.nr_classes = cfg->nr_classes;
		spin_unlock(&mmt_stat_lock);
		mmt_wake_kdamond(n->ctx);
	}
	deadline = jiffies + MMT_COMMIT_TIMEOUT;
	for (i = 0; i < nr; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (n->stopped)
			continue;
		err = mmt_wait_commit(n, deadline);
		/* a commit that failed half-way stops the kdamond */
		if (err && !mmt_damon_is_running(n->ctx))
			mmt_node_stopped(n, "commit_failed", err);
		if (err && !first) {
			first = err;
			*failed = i;
		}
	}
	return first;
}

/*
 * Commit @cfg to every context, all or none; mmt_lock held.  Every scratch
 * context, of the new inputs and of the running ones (for the rollback), is
 * built before the first commit, so an allocation failure changes nothing.
 * A commit that fails on any node puts every node back on the running
 * inputs (committing them again where they were kept is harmless); a node
 * whose kdamond stopped is recorded as stopped (enabled then reads N,
 * status says which and why).
 */
static int mmt_commit_all(const struct mmt_cfg *cfg)
{
	struct damon_ctx **src, **old;
	int k, err, failed;

	src = mmt_build_scratch(cfg, &err);
	if (!src)
		return err;
	old = mmt_build_scratch(&mmt_running_cfg, &err);
	if (!old) {
		mmt_free_scratch(src);
		return err;
	}
	err = mmt_commit_nodes(src, cfg, mmt_nr_nodes, &k);
	if (err) {
		pr_warn("commit_inputs: failed (%d) on node %d; putting the running configuration back\n",
			err, mmt_nodes[k]->nid);
		/* every node: the others may have taken the new inputs */
		if (mmt_commit_nodes(old, &mmt_running_cfg, mmt_nr_nodes,
				     &failed))
			pr_err("commit_inputs: rollback failed on node %d\n",
			       mmt_nodes[failed]->nid);
	}
	mmt_free_scratch(old);
	mmt_free_scratch(src);
	return err;
}

static void mmt_clear_knobs(void)
{
	int i;

	spin_lock(&mmt_stat_lock);
	for (i = 0; i < mmt_nr_nodes; i++)
		mmt_nodes[i]->knob.set = false;
	spin_unlock(&mmt_stat_lock);
}

/*
 * Commit @cfg to every context with the controller stopped (its knobs are
 * for the contexts it knew) and restarted after; mmt_lock held.
 */
int mmt_commit_cfg(const struct mmt_cfg *cfg)
{
	int err;

	mmt_loop_stop();
	mmt_clear_knobs();
	err = mmt_commit_all(cfg);
	if (!err)
		mmt_running_cfg = *cfg;
	if (mmt_running_cfg.controller && mmt_running() && mmt_loop_start())
		pr_err("cannot restart the controller\n");
	return err;
}

/*
 * A node's memory changed (mmt_topology_changed()): every context rebuilt
 * on the nodes' memory now, with the running inputs; mmt_lock held.
 */
int mmt_commit_topology(void)
{
	struct mmt_cfg cfg = mmt_running_cfg;
	int err, i;

	err = mmt_commit_cfg(&cfg);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (!err) {
			mmt_log_ranges(n, "memory hotplug: ", "now monitoring");
			continue;
		}
		/* not what runs: the next event tries again */
		mmt_ranges_free(&n->ranges);
	}
	if (err)
		pr_warn("memory hotplug: contexts unchanged (%d): each node monitors what it did\n",
			err);
	return err;
}

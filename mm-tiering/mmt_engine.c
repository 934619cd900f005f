// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: when tiering starts, stops and re-plans.
 *
 * The two writes that act (enabled, commit_inputs) and memory events
 * (mmt_hotplug.c calls mmt_topology_changed()) decide here what the node
 * table (mmt_nodes.c) does: read the plan (mmt_plan.c), keep, build, start
 * or drop nodes, commit new inputs (mmt_commit.c), and stop the controller
 * (mmt_loop.c) around it all.  Every path holds mmt_lock.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/slab.h>

#include "mmt_commit.h"
#include "mmt_compat.h"
#include "mmt_damon.h"
#include "mmt_engine.h"
#include "mmt_kdamond.h"
#include "mmt_logic.h"
#include "mmt_loop.h"
#include "mmt_nodes.h"
#include "mmt_params.h"
#include "mmt_plan.h"

/* the nodes with memory when the running contexts were started */
static nodemask_t mmt_mem_nodes;

/*
 * Where the module is in its life, under mmt_lock.  The parameter files
 * exist from before module_init() until after module_exit() (the kernel
 * removes them only when it frees the module): a write to enabled while
 * loading only records the wish, and one during or after module_exit()
 * (or after a failed module_init()) must not start kdamonds and work that
 * would run the module's freed text.
 */
enum mmt_life {
	MMT_LOADING,	/* parsing parameters: module_init() acts on them */
	MMT_LIVE,	/* module_init() is done or in progress */
	MMT_GONE,	/* module_exit() ran, or module_init() failed */
};
static enum mmt_life mmt_life;

static bool enabled __read_mostly;

/* Stop every context and free everything; mmt_lock held. */
static void mmt_teardown(void)
{
	mmt_loop_stop();
	mmt_nodes_free();
}

static void mmt_warn_neighbours(void)
{
	int mode = mmt_numa_balancing_mode();

	if (mode > 0)
		pr_warn("numa_balancing is %d: NUMA balancing also moves pages of CPU-less nodes and shares the accessed bits DAMON reads; set /proc/sys/kernel/numa_balancing to 0 for DAMON-only placement\n",
			mode);
}

/* Read the topology, build and start every node's context; mmt_lock held. */
static int mmt_start(void)
{
	struct damon_ctx **ctxs = NULL;
	struct mmt_plan *plan;
	struct mmt_cfg cfg;
	int err, nr;

	mmt_inputs(&cfg);
	err = mmt_check_node_lists(&cfg, "enabled") ?:
	      mmt_check_classes(&cfg, "enabled");
	if (err)
		return err;
	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_plan(plan, &cfg, false);
	if (err)
		goto out_plan;
	if (!plan->nr_lower) {
		if (nodes_empty(cfg.upper_nodes) && nodes_empty(cfg.lower_nodes) &&
		    nodes_empty(cfg.skip_nodes))
			pr_info("no CPU-less memory node: no lower tier, nothing started\n");
		else
			pr_info("the node lists leave no lower tier among the memory nodes: nothing started\n");
		err = -ENODEV;
		goto out_plan;
	}

	err = mmt_nodes_alloc();
	ctxs = kcalloc(MMT_MAX_NODES, sizeof(*ctxs), GFP_KERNEL);
	if (!err && !ctxs)
		err = -ENOMEM;
	if (err)
		goto out_free;
	err = mmt_build_nodes(plan, &cfg, mmt_report_fn, ctxs, &nr);
	if (err)
		goto out_free;
	mmt_warn_neighbours();
	err = mmt_start_nodes(ctxs, nr, 0);
	if (err)
		goto out_free;
	mmt_running_cfg = cfg;
	mmt_classes_applied();
	mmt_mem_nodes = node_states[N_MEMORY];
	if (cfg.controller) {
		err = mmt_loop_start();
		if (err)
			goto out_free;
	}
	kfree(ctxs);
	kfree(plan);
	return 0;

out_free:
	kfree(ctxs);
	if (mmt_nodes)
		mmt_teardown();
out_plan:
	kfree(plan);
	return err;
}

/* Start (@on) or stop tiering; mmt_lock held. */
static int mmt_turn(bool on)
{
	if (on && mmt_nodes && mmt_running())
		return 0;
	/* also reaps contexts whose kdamonds stopped by themselves */
	if (mmt_nodes)
		mmt_teardown();
	if (on)
		return mmt_start();
	pr_info("stopped\n");
	return 0;
}

/*
 * The set of memory nodes changed while running: the nodes whose place in
 * the new plan (tier and target) is the one they run with keep their
 * kdamonds; the others stop, and the nodes new to the plan start.  Then,
 * if a kept node's ranges changed or in bandwidth mode (a lower node's
 * share depends on its siblings), every context is committed on the nodes'
 * memory now (mmt_commit.c).
 * @why prefixes the log lines (memory hotplug, commit_inputs).
 * Return: 0, -ENODEV when no lower tier is left, or an error after which
 * the caller starts again from nothing.  mmt_lock held.
 */
static int mmt_retier(const char *why)
{
	struct damon_ctx **ctxs = NULL;
	int kept, nr = 0, err;
	struct mmt_plan *plan;

	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_plan(plan, &mmt_running_cfg, false);
	if (!err && !plan->nr_lower)
		err = -ENODEV;
	if (!err) {
		ctxs = kcalloc(MMT_MAX_NODES, sizeof(*ctxs), GFP_KERNEL);
		if (!ctxs)
			err = -ENOMEM;
	}
	if (err)
		goto out;
	mmt_loop_stop();
	kept = mmt_keep_planned(plan, why);
	err = mmt_build_nodes(plan, &mmt_running_cfg, mmt_report_fn, ctxs,
			      &nr);
	if (!err && nr)
		err = mmt_start_nodes(ctxs, nr, kept);
	if (err) {
		mmt_drop_nodes(kept);
		if (!kept)
			goto out;
		/*
		 * e.g. bandwidth mode and a node whose memory, and so its HMAT
		 * bandwidth, came after the load: the others go on, and the
		 * next memory event tries again (mmt_mem_nodes kept)
		 */
		pr_warn("%s: the new nodes not started (%d); %d node(s) keep running\n",
			why, err, kept);
		if (mmt_running_cfg.controller && mmt_loop_start())
			pr_err("cannot restart the controller\n");
		err = 0;
		goto out;
	}
	pr_info("%s: %d node(s) kept running, %d started\n", why, kept, nr);
	mmt_mem_nodes = node_states[N_MEMORY];
	/* the loop restarts in the commit, or here, over every node */
	if (mmt_ranges_update() || mmt_running_cfg.bandwidth)
		err = mmt_commit_topology();
	else if (mmt_running_cfg.controller && mmt_loop_start())
		pr_err("cannot restart the controller\n");
out:
	kfree(ctxs);
	kfree(plan);
	return err;
}

/*
 * commit_inputs changed the node lists, now in mmt_running_cfg: the nodes
 * whose place is unchanged keep running, the others stop or start
 * (mmt_retier()); on a failure every node starts again on the lists, as
 * after a memory event.  mmt_lock held.
 */
static int mmt_replan(void)
{
	int err = mmt_retier("commit_inputs");

	if (err) {
		pr_warn("commit_inputs: re-planning failed (%d): starting every node again\n",
			err);
		mmt_teardown();
		err = mmt_start();
	}
	return err;
}

/*
 * Memory was onlined or offlined (mmt_hotplug.c, after the fact).  Asked
 * to run (enabled=Y) but nothing started, for want of a CPU-less node with
 * memory: start.  A node's kdamond stopped by itself: every node starts
 * again.  Running, and the set of nodes with memory changed: the
 * nodes that joined or left, or whose target changed, start or stop; the
 * others keep running (mmt_retier()); with no lower tier left, everything
 * stops.  Running, and a node's memory ranges changed: every context
 * rebuilt on the new ranges and committed (mmt_commit.c), all or none; a
 * node left with no memory keeps its context until the set of memory nodes
 * says it is gone.
 */
void mmt_topology_changed(void)
{
	nodemask_t now = node_states[N_MEMORY];
	int err;

	mutex_lock(&mmt_lock);
	if (mmt_life != MMT_LIVE || !enabled)
		goto out;
	if (!mmt_nodes) {
		if (!mmt_start())
			pr_info("memory hotplug: memory nodes %*pbl: started\n",
				nodemask_pr_args(&now));
		goto out;
	}
	if (!mmt_running()) {
		/*
		 * a kdamond stopped by itself: the others would go on
		 * monitoring the memory they were built on; every node
		 * starts again on the memory there is now, as enabled=Y
		 * would, and a start that fails is forgotten as there
		 */
		pr_info("memory hotplug: memory nodes %*pbl; a kdamond had stopped: starting every node again\n",
			nodemask_pr_args(&now));
		err = mmt_turn(true);
		enabled = !err || err == -ENODEV;
		goto out;
	}
	if (!nodes_equal(now, mmt_mem_nodes)) {
		pr_info("memory hotplug: memory nodes %*pbl, were %*pbl\n",
			nodemask_pr_args(&now),
			nodemask_pr_args(&mmt_mem_nodes));
		err = mmt_retier("memory hotplug");
		if (err == -ENODEV) {
			pr_info("memory hotplug: no CPU-less memory node left: stopped\n");
			mmt_teardown();
		} else if (err) {
			pr_warn("memory hotplug: %d; starting again on the new topology\n",
				err);
			mmt_teardown();
			mmt_start();
		}
		goto out;
	}
	if (mmt_ranges_update())
		mmt_commit_topology();
out:
	mutex_unlock(&mmt_lock);
}

static int mmt_enabled_store(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err) {
		pr_warn("enabled: invalid value '%.*s': need Y or N\n",
			mmt_len(val), val);
		return err;
	}
	mutex_lock(&mmt_lock);
	switch (mmt_life) {
	case MMT_LOADING:
		/* module_init() acts on it */
		enabled = on;
		break;
	case MMT_LIVE:
		err = mmt_turn(on);
		/*
		 * remembered when it started, or to start when CPU-less memory
		 * comes (mmt_topology_changed()); a start that failed for
		 * another reason is not: a later memory event must not start
		 * what the admin was told had failed
		 */
		enabled = on && (!err || err == -ENODEV);
		break;
	case MMT_GONE:
		pr_warn_ratelimited("enabled: the module is being removed; nothing started\n");
		err = -ENODEV;
		break;
	}
	mutex_unlock(&mmt_lock);
	return err;
}

static int mmt_enabled_load(char *buffer, const struct kernel_param *kp)
{
	bool on;

	mutex_lock(&mmt_lock);
	on = mmt_running();
	mutex_unlock(&mmt_lock);
	return sprintf(buffer, "%c\n", on ? 'Y' : 'N');
}

static const struct kernel_param_ops mmt_enabled_ops = {
	.set = mmt_enabled_store,
	.get = mmt_enabled_load,
};

/*
 * Start (Y) or stop (N) tiering.  Reads whether any context really runs.
 */
module_param_cb(enabled, &mmt_enabled_ops, &enabled, 0600);
MODULE_PARM_DESC(enabled, "Enable or disable mm_tiering (default N)");

static int mmt_commit_inputs_store(const char *val,
				   const struct kernel_param *kp)
{
	struct mmt_cfg cfg;
	bool req = true, replan;
	int err;

	if (val && kstrtobool(val, &req)) {
		pr_warn("commit_inputs: invalid value '%.*s': need Y\n",
			mmt_len(val), val);
		return -EINVAL;
	}
	if (!req)
		return 0;

	mutex_lock(&mmt_lock);
	if (!mmt_nodes) {
		mutex_unlock(&mmt_lock);
		pr_info("commit_inputs: not running; inputs apply at the next enable\n");
		return 0;
	}
	if (!mmt_running()) {
		/* the others run: the inputs would not apply to every node */
		mutex_unlock(&mmt_lock);
		pr_warn("commit_inputs: a node's kdamond has stopped (status says which): nothing committed; enabled=Y starts every node again on the new inputs\n");
		return -ESRCH;
	}
	mmt_inputs(&cfg);
	replan = !mmt_node_lists_equal(&cfg, &mmt_running_cfg);
	err = mmt_check_classes(&cfg, "commit_inputs");
	/* new node lists: refused, nothing changed, unless they give tiers */
	if (!err && replan)
		err = mmt_plan_check(&cfg, "commit_inputs");
	if (err) {
		mutex_unlock(&mmt_lock);
		return err;
	}
	/* the loop restarts on the new inputs; its knobs go with it */
	err = mmt_commit_cfg(&cfg);
	/* then the nodes the lists move stop or start */
	if (!err && replan)
		err = mmt_replan();
	if (!err) {
		mmt_classes_applied();
		pr_info("commit_inputs: used_bp=%lu free_bp=%lu quota=%lu MiB/s controller=%c period=%lu ms mode=%s upper_share_bp=%lu upper_nodes=%*pbl lower_nodes=%*pbl skip_nodes=%*pbl classes=%d\n",
			cfg.promote_target_used_bp, cfg.demote_target_free_bp,
			cfg.quota_mb_per_s, cfg.controller ? 'Y' : 'N',
			cfg.period_ms, cfg.bandwidth ? "bandwidth" : "capacity",
			cfg.upper_share_bp, nodemask_pr_args(&cfg.upper_nodes),
			nodemask_pr_args(&cfg.lower_nodes),
			nodemask_pr_args(&cfg.skip_nodes), cfg.nr_classes);
	} else if (mmt_running()) {
		pr_warn("commit_inputs: the running configuration is unchanged\n");
	}
	mutex_unlock(&mmt_lock);
	return err;
}

static bool commit_inputs;

static const struct kernel_param_ops mmt_commit_ops = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = mmt_commit_inputs_store,
	.get = param_get_bool,
};

/*
 * Writing Y applies the current input parameters to the running contexts,
 * all of them or none; the error, if any, is returned to the writer.
 */
module_param_cb(commit_inputs, &mmt_commit_ops, &commit_inputs, 0600);
MODULE_PARM_DESC(commit_inputs, "Write Y to apply changed parameters online");

/**
 * mmt_engine_begin() - module_init() is done: act on enabled.
 *
 * Return: 0 (started, or no lower tier yet: said so, nothing started) or
 * the start's error, after which the module is gone.
 */
int mmt_engine_begin(void)
{
	int err = 0;

	mutex_lock(&mmt_lock);
	mmt_life = MMT_LIVE;
	if (enabled) {
		err = mmt_turn(true);
		if (err == -ENODEV)
			err = 0;
		if (err)
			mmt_life = MMT_GONE;
	}
	mutex_unlock(&mmt_lock);
	return err;
}

/* module_exit(), or a failed module_init(): stop everything, start nothing. */
void mmt_engine_end(void)
{
	mutex_lock(&mmt_lock);
	mmt_life = MMT_GONE;
	if (mmt_nodes)
		mmt_teardown();
	mutex_unlock(&mmt_lock);
}

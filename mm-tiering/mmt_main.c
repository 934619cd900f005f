// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: DAMON-based memory tiering for DRAM + CXL machines.
 *
 * On enable, the memory nodes are split into an upper tier (nodes with CPUs)
 * and a lower tier (CPU-less nodes, such as CXL expanders), and one DAMON
 * context per tiered node is started: upper nodes demote cold pages to their
 * nearest lower node, lower nodes promote hot pages to their nearest upper
 * node.  Module parameters are the control surface; changed inputs reach the
 * running contexts through commit_inputs, all or nothing.
 *
 * This file owns the module's life (load, enable, disable, unload) and the
 * topology read at enable.  The other jobs are in their own files, each
 * saying what it owns and may call: mmt_params.c (input parameters),
 * mmt_kdamond.c (what runs in the kdamonds), mmt_commit.c (commit_inputs),
 * mmt_status.c (outputs and status), mmt_loop.c (the controller's observe
 * and act), mmt_ctl.c and mmt_logic.c (pure laws and arithmetic),
 * mmt_ctx.c (building contexts), mmt_hmat.c (HMAT bandwidth), mmt_damon.c
 * (DAMON's unexported symbols), mmt_hotplug.c (the memory notifier; what
 * a change means is decided here, in mmt_topology_changed()), mmt_kernel.c
 * (the kernel the module was built for).
 *
 * Documentation/admin-guide.rst describes every parameter.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/memory-tiers.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include "mmt_compat.h"
#include "mmt_ctx.h"
#include "mmt_damon.h"
#include "mmt_hmat.h"
#include "mmt_hotplug.h"
#include "mmt_kdamond.h"
#include "mmt_kernel.h"
#include "mmt_logic.h"
#include "mmt_loop.h"
#include "mmt_main.h"
#include "mmt_params.h"
#include "mmt_state.h"
#include "mmt_status.h"

DEFINE_MUTEX(mmt_lock);
DEFINE_SPINLOCK(mmt_stat_lock);
struct mmt_node **mmt_nodes;
int mmt_nr_nodes;
struct mmt_cfg mmt_running_cfg;
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

/* Record, once, that @n's kdamond stopped and why; mmt_lock held. */
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
 * (and is recorded as stopped).  mmt_lock held.
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

/* Free a node whose context is stopped. */
static void mmt_free_node(struct mmt_node *n)
{
	mmt_call(damon_destroy_ctx)(n->ctx);
	mmt_ranges_free(&n->ranges);
	kfree(n);
}

/*
 * Stop the contexts of mmt_nodes[@first..] and free those nodes; mmt_lock
 * held, the loop stopped.  Each node is its own allocation, so the kdamonds
 * of the nodes before @first, whose report calls point at their nodes,
 * keep running.
 */
static void mmt_drop_nodes(int first)
{
	int i;

	for (i = first; i < mmt_nr_nodes; i++)
		mmt_call(damon_stop)(&mmt_nodes[i]->ctx, 1);
	for (i = first; i < mmt_nr_nodes; i++) {
		mmt_free_node(mmt_nodes[i]);
		mmt_nodes[i] = NULL;
	}
	mmt_nr_nodes = first;
}

/*
 * Keep at the front of mmt_nodes the nodes whose tier and target in @plan
 * are the ones they run with; stop and free the others.  mmt_lock held,
 * the loop stopped.  Return: how many are kept.
 */
static int mmt_keep_planned(const struct mmt_plan *plan, const char *why)
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
		mmt_call(damon_stop)(&n->ctx, 1);
		mmt_free_node(n);
	}
	for (i = kept; i < mmt_nr_nodes; i++)
		mmt_nodes[i] = NULL;
	mmt_nr_nodes = kept;
	return kept;
}

/* Stop every context and free everything; mmt_lock held. */
static void mmt_teardown(void)
{
	mmt_loop_stop();
	mmt_drop_nodes(0);
	kfree(mmt_nodes);
	mmt_nodes = NULL;
}

/* The node's abstract distance if a tiering algorithm (HMAT) knows it. */
static int mmt_node_adist(int nid)
{
	int adist = MEMTIER_ADISTANCE_DRAM;

	if (mt_calc_adistance(nid, &adist) != NOTIFY_STOP || adist <= 0)
		return 0;
	return adist;
}

/*
 * Whether node @nid has CPUs, online or not (cpu_to_node() keeps an offline
 * CPU's node): DRAM whose socket has all its CPUs offline is still the fast
 * memory next to them, not a lower tier (N_CPU follows CPU hotplug).
 */
static bool mmt_node_has_cpus(int nid)
{
	int cpu;

	for_each_present_cpu(cpu)
		if (cpu_to_node(cpu) == nid)
			return true;
	return false;
}

/*
 * The tiers of the memory nodes now, as @cfg's node lists name them
 * (mmt_pick_of()) and the machine says for the others.  @quiet: say
 * nothing in the log (the plan parameter).  Return: 0, -EINVAL (no upper
 * tier) or -ENOMEM.
 */
static int mmt_read_topology(struct mmt_plan *plan, const struct mmt_cfg *cfg,
			     bool quiet)
{
	bool any_up = !nodes_empty(cfg->upper_nodes);
	bool any_low = !nodes_empty(cfg->lower_nodes);
	struct mmt_topo *topo;
	int nid, i, j, err;

	topo = kzalloc_obj(*topo);
	if (!topo)
		return -ENOMEM;
	for_each_node_state(nid, N_MEMORY) {
		if (topo->nr == MMT_MAX_NODES) {
			if (!quiet)
				pr_warn("node %d not tiered: at most %d memory nodes are\n",
					nid, MMT_MAX_NODES);
			continue;
		}
		i = topo->nr++;
		topo->nid[i] = nid;
		topo->has_cpu[i] = mmt_node_has_cpus(nid);
		topo->adist[i] = mmt_node_adist(nid);
		topo->pick[i] = mmt_pick_of(node_isset(nid, cfg->upper_nodes),
					    node_isset(nid, cfg->lower_nodes),
					    node_isset(nid, cfg->skip_nodes),
					    any_up, any_low);
	}
	for (i = 0; i < topo->nr; i++)
		for (j = 0; j < topo->nr; j++)
			topo->dist[i][j] = node_distance(topo->nid[i],
							 topo->nid[j]);
	err = mmt_plan_tiers(topo, plan);
	kfree(topo);
	if (quiet)
		return err;
	if (err)
		pr_err("no upper tier: no memory node has CPUs, or the node lists name none: nothing to promote to\n");
	else
		pr_info("tiers from %s%s\n", plan->by_adist ?
			"memory tiering abstract distances (top tier is upper)" :
			"CPUs (nodes with CPUs are upper)",
			any_up || any_low || !nodes_empty(cfg->skip_nodes) ?
			", as upper_nodes, lower_nodes and skip_nodes name them" :
			"");
	return err;
}

static void mmt_warn_neighbours(void)
{
	int mode = mmt_numa_balancing_mode();

	if (mode > 0)
		pr_warn("numa_balancing is %d: NUMA balancing also moves pages of CPU-less nodes and shares the accessed bits DAMON reads; set /proc/sys/kernel/numa_balancing to 0 for DAMON-only placement\n",
			mode);
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
 * as fit in one line, then how many there are; mmt_lock held.
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

/* The running node of id @nid, or NULL; mmt_lock held. */
static struct mmt_node *mmt_find_node(int nid)
{
	int i;

	for (i = 0; i < mmt_nr_nodes; i++)
		if (mmt_nodes[i]->nid == nid)
			return mmt_nodes[i];
	return NULL;
}

/*
 * Each lower node's count of the lower nodes that promote into its target,
 * itself among them: they share the target's admitted room (mmt_kdamond.c).
 * A node that leaves later leaves the counts high, never low.
 */
static void mmt_count_promoters(void)
{
	int i, j;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		unsigned int nr = 0;

		if (n->tier != MMT_TIER_LOWER)
			continue;
		for (j = 0; j < mmt_nr_nodes; j++)
			nr += mmt_nodes[j]->tier == MMT_TIER_LOWER &&
			      mmt_nodes[j]->target == n->target;
		WRITE_ONCE(n->promoters, nr);
	}
}

/*
 * A node and its context for each tiered node of @plan under @cfg that has
 * none yet, appended to mmt_nodes and @ctxs (*@nr of them).  Return: 0 or
 * the first context's error; the caller drops what was built.
 */
static int mmt_build_nodes(const struct mmt_plan *plan,
			   const struct mmt_cfg *cfg, struct damon_ctx **ctxs,
			   int *nr)
{
	nodemask_t lowers;
	int i, nid, m;

	*nr = 0;
	for (i = 0; i < plan->nr; i++) {
		struct mmt_node *n;

		nid = plan->nid[i];
		if (plan->target[i] < 0 || mmt_find_node(nid))
			continue;
		n = kzalloc_obj(*n);
		if (!n)
			return -ENOMEM;
		n->nid = nid;
		n->tier = plan->tier[i];
		n->target = plan->target[i];
		n->bw = cfg->bandwidth && n->tier == MMT_TIER_LOWER;
		nodes_clear(lowers);
		for (m = 0; m < plan->nr; m++)
			if (plan->tier[m] == MMT_TIER_LOWER &&
			    plan->target[m] == n->target)
				node_set(plan->nid[m], lowers);
		n->ctx = mmt_build_ctx(nid, n->tier, n->target, &lowers, cfg);
		if (IS_ERR(n->ctx)) {
			int err = PTR_ERR(n->ctx);

			kfree(n);
			return err;
		}
		mmt_hook_prepare(n->ctx, &n->report, mmt_report_fn, n);
		/* what the context was built on; none: the next event looks */
		mmt_node_ranges(nid, &n->ranges);
		mmt_nodes[mmt_nr_nodes++] = n;
		ctxs[(*nr)++] = n->ctx;
		mmt_explain_goals(n, cfg);
		mmt_log_ranges(n, "", "monitoring");
	}
	mmt_count_promoters();
	return 0;
}

/*
 * Start the @nr built contexts @ctxs, those of mmt_nodes[@first..], and
 * each kdamond's report call; mmt_lock held.
 */
static int mmt_start_nodes(struct damon_ctx **ctxs, int nr, int first)
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

/* Read the topology, build and start every node's context; mmt_lock held. */
static int mmt_start(void)
{
	struct damon_ctx **ctxs = NULL;
	struct mmt_plan *plan;
	struct mmt_cfg cfg;
	int err, nr;

	mmt_inputs(&cfg);
	err = mmt_check_node_lists(&cfg, "enabled");
	if (err)
		return err;
	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_topology(plan, &cfg, false);
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

	err = -ENOMEM;
	/* room for every node: a node joining later is appended */
	mmt_nodes = kcalloc(MMT_MAX_NODES, sizeof(*mmt_nodes), GFP_KERNEL);
	ctxs = kcalloc(MMT_MAX_NODES, sizeof(*ctxs), GFP_KERNEL);
	if (!mmt_nodes || !ctxs)
		goto out_free;
	err = mmt_build_nodes(plan, &cfg, ctxs, &nr);
	if (err)
		goto out_free;
	mmt_warn_neighbours();
	err = mmt_start_nodes(ctxs, nr, 0);
	if (err)
		goto out_free;
	mmt_running_cfg = cfg;
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

static bool enabled __read_mostly;

/*
 * Record the memory ranges of the nodes now; true if any differs from
 * what their contexts were built on.  mmt_lock held.
 */
static bool mmt_ranges_update(void)
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
	err = mmt_read_topology(plan, &mmt_running_cfg, false);
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
	err = mmt_build_nodes(plan, &mmt_running_cfg, ctxs, &nr);
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

/**
 * mmt_plan_check() - whether @cfg's node lists give tiers on this machine.
 * @cfg:	the inputs about to apply
 * @who:	what asks, for the log
 *
 * Return: 0, or -EINVAL (the lists overlap, or leave no upper or no lower
 * tier among the memory nodes now), said in the log; -ENOMEM.
 */
int mmt_plan_check(const struct mmt_cfg *cfg, const char *who)
{
	struct mmt_plan *plan;
	int err;

	err = mmt_check_node_lists(cfg, who);
	if (err)
		return err;
	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_topology(plan, cfg, true);
	if (err != -ENOMEM && (err || !plan->nr_lower)) {
		pr_warn("%s: the node lists leave no %s tier among memory nodes %*pbl: refused\n",
			who, err ? "upper" : "lower",
			nodemask_pr_args(&node_states[N_MEMORY]));
		err = -EINVAL;
	}
	kfree(plan);
	return err;
}

/*
 * commit_inputs changed the node lists, now in mmt_running_cfg: the nodes
 * whose place is unchanged keep running, the others stop or start
 * (mmt_retier()); on a failure every node starts again on the lists, as
 * after a memory event.  mmt_lock held.
 */
int mmt_replan(void)
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
 * The plan parameter: the tiers the input parameters give on this machine
 * now, one line per memory node (what an enable or a commit would run).
 */
static int mmt_plan_show(char *buf, const struct kernel_param *kp)
{
	static const char * const tiers[] = {
		[MMT_TIER_NONE] = "none",
		[MMT_TIER_UPPER] = "upper",
		[MMT_TIER_LOWER] = "lower",
	};
	struct mmt_plan *plan;
	struct mmt_cfg cfg;
	int i, len, err;

	mmt_inputs(&cfg);
	if (mmt_check_node_lists(&cfg, NULL))
		return sysfs_emit(buf, "invalid: a node is in two of upper_nodes, lower_nodes and skip_nodes\n");
	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_topology(plan, &cfg, true);
	len = sysfs_emit(buf, "from=%s upper=%d lower=%d%s\n",
			 plan->by_adist ? "memory_tiers" : "cpus",
			 plan->nr_upper, plan->nr_lower,
			 err ? " invalid: no upper tier" :
			 !plan->nr_lower ? " idle: no lower tier" : "");
	for (i = 0; i < plan->nr; i++)
		len += sysfs_emit_at(buf, len, "node=%d tier=%s target=%d\n",
				     plan->nid[i], tiers[plan->tier[i]],
				     err ? -1 : plan->target[i]);
	kfree(plan);
	return len;
}

static const struct kernel_param_ops mmt_plan_ops = {
	.get = mmt_plan_show,
};

module_param_cb(plan, &mmt_plan_ops, NULL, 0400);
MODULE_PARM_DESC(plan,
	"The tiers the inputs give on this machine now (read-only)");

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

static int __init mm_tiering_init(void)
{
	int err;

	err = mmt_kernel_check();
	if (!err)
		err = mmt_damon_resolve();
	if (!err && !mmt_damon_initialized()) {
		pr_err("DAMON is not initialized\n");
		err = -ENOMEM;
	}
	if (!err)
		mmt_hmat_refresh();
	if (!err)
		mmt_status_debugfs_create();
	if (!err)
		err = mmt_hotplug_register();
	mutex_lock(&mmt_lock);
	mmt_life = err ? MMT_GONE : MMT_LIVE;
	if (!err && enabled) {
		err = mmt_turn(true);
		/* no lower tier: loaded, said so, nothing started */
		if (err == -ENODEV)
			err = 0;
		if (err)
			mmt_life = MMT_GONE;
	}
	mutex_unlock(&mmt_lock);
	/* a reader of the file may hold mmt_lock: removed without it */
	if (err) {
		mmt_hotplug_unregister();
		mmt_status_debugfs_remove();
	}
	return err;
}

static void __exit mm_tiering_exit(void)
{
	mmt_hotplug_unregister();
	mmt_status_debugfs_remove();
	mutex_lock(&mmt_lock);
	mmt_life = MMT_GONE;
	if (mmt_nodes)
		mmt_teardown();
	mutex_unlock(&mmt_lock);
}

module_init(mm_tiering_init);
module_exit(mm_tiering_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("mm-tiering developers");
MODULE_DESCRIPTION("DAMON-based memory tiering for DRAM + CXL machines");
MODULE_VERSION(MMT_VERSION);

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
 * Documentation/admin-guide.rst describes every parameter.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/completion.h>
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
#include <linux/topology.h>

#include "mmt_compat.h"
#include "mmt_ctx.h"
#include "mmt_damon.h"
#include "mmt_logic.h"
#include "mmt_state.h"

DEFINE_MUTEX(mmt_lock);
DEFINE_SPINLOCK(mmt_stat_lock);
struct mmt_node *mmt_nodes;
int mmt_nr_nodes;
struct mmt_cfg mmt_running_cfg;

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

/* Length of @val without its trailing newline, for messages. */
static int mmt_len(const char *val)
{
	int len = strlen(val);

	return len && val[len - 1] == '\n' ? len - 1 : len;
}

/* An unsigned long input parameter and its range rule. */
struct mmt_ulong_param {
	unsigned long *val;
	int (*check)(unsigned long v);
	const char *need;
};

static int mmt_set_ulong(const char *val, const struct kernel_param *kp)
{
	const struct mmt_ulong_param *p = kp->arg;
	unsigned long v;

	if (kstrtoul(val, 0, &v) || p->check(v)) {
		pr_warn("%s: invalid value '%.*s': need %s; kept %lu\n",
			kp->name, mmt_len(val), val, p->need, *p->val);
		return -EINVAL;
	}
	*p->val = v;
	return 0;
}

static int mmt_get_ulong(char *buf, const struct kernel_param *kp)
{
	const struct mmt_ulong_param *p = kp->arg;

	return sprintf(buf, "%lu\n", *p->val);
}

static const struct kernel_param_ops mmt_ulong_ops = {
	.set = mmt_set_ulong,
	.get = mmt_get_ulong,
};

#define MMT_ULONG_PARAM(name, check, need, desc)			\
	static struct mmt_ulong_param mmt_param_##name = {		\
		&name, check, need					\
	};								\
	module_param_cb(name, &mmt_ulong_ops, &mmt_param_##name, 0600); \
	MODULE_PARM_DESC(name, desc)

/*
 * Promotion goal: the used memory of a promotion target node, in basis
 * points.  Lower nodes promote hot pages while their target is below it.
 * 1..10000, default 9970 (99.7 %, the TPP-DAMON recipe).
 */
static unsigned long promote_target_used_bp __read_mostly = 9970;
MMT_ULONG_PARAM(promote_target_used_bp, mmt_check_bp, "basis points 1..10000",
	"Promote while the target node's used memory is below this, in bp (default 9970)");

/*
 * Demotion goal: the free memory of an upper node, in basis points.  Upper
 * nodes demote cold pages while their free memory is below it.  1..10000,
 * default 50 (0.5 %, the TPP-DAMON recipe).
 */
static unsigned long demote_target_free_bp __read_mostly = 50;
MMT_ULONG_PARAM(demote_target_free_bp, mmt_check_bp, "basis points 1..10000",
	"Demote while the node's free memory is below this, in bp (default 50)");

/*
 * Migration budget of each scheme, in MiB per second, charged per 100 ms.
 * 1..1048576, default 200.
 */
static unsigned long quota_mb_per_s __read_mostly = 200;
MMT_ULONG_PARAM(quota_mb_per_s, mmt_check_quota_mb, "MiB/s 1..1048576",
	"Migration budget of each scheme in MiB/s (default 200)");

/*
 * Control period of the feedback controller, in milliseconds.  100..60000,
 * default 1000.
 */
static unsigned long control_period_ms __read_mostly = 1000;
MMT_ULONG_PARAM(control_period_ms, mmt_check_period_ms, "milliseconds 100..60000",
	"Control period of the feedback controller in ms (default 1000)");

static int mmt_set_bool(const char *val, const struct kernel_param *kp)
{
	int err = param_set_bool(val, kp);

	if (err)
		pr_warn("%s: invalid value '%.*s': need Y or N; kept %c\n",
			kp->name, mmt_len(val), val,
			*(bool *)kp->arg ? 'Y' : 'N');
	return err;
}

static const struct kernel_param_ops mmt_bool_ops = {
	.set = mmt_set_bool,
	.get = param_get_bool,
};

/*
 * Y (default) runs the in-kernel feedback controller (mmt_loop.c): promotion
 * threshold, room made by demotion, ping-pong damping and back-off tuned
 * every control period.  N runs the static recipe: the DAMOS goals with a
 * fixed per-scheme budget and the thresholds as typed ("accessed at all" /
 * "not accessed").
 */
static bool controller __read_mostly = true;
module_param_cb(controller, &mmt_bool_ops, &controller, 0600);
MODULE_PARM_DESC(controller,
	"Y: feedback controller (default); N: static recipe");

/*
 * What the module distributes.  "capacity" (default): upper nodes hold as
 * much of the hot memory as their free-memory goal allows.  "bandwidth": hot
 * memory is split between each upper node and its lower node by target
 * shares (node_eligible_mem_bp quota goals; one context per lower node
 * monitors both nodes), so that both nodes' bandwidth serves it.
 */
static bool mode_bandwidth __read_mostly;

static int mmt_set_mode(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "capacity")) {
		mode_bandwidth = false;
	} else if (sysfs_streq(val, "bandwidth")) {
		mode_bandwidth = true;
	} else {
		pr_warn("mode: invalid value '%.*s': need capacity or bandwidth; kept %s\n",
			mmt_len(val), val,
			mode_bandwidth ? "bandwidth" : "capacity");
		return -EINVAL;
	}
	return 0;
}

static int mmt_get_mode(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%s\n", mode_bandwidth ? "bandwidth" : "capacity");
}

static const struct kernel_param_ops mmt_mode_ops = {
	.set = mmt_set_mode,
	.get = mmt_get_mode,
};

module_param_cb(mode, &mmt_mode_ops, NULL, 0600);
MODULE_PARM_DESC(mode,
	"capacity (default): fill upper nodes; bandwidth: split hot memory by shares");

/*
 * Bandwidth mode: the share of hot memory each upper node holds, in basis
 * points; 0 (default) takes it from HMAT read bandwidth (72:26 GB/s gives
 * 7347), MMT_SHARE_MIN_BP..MMT_SHARE_MAX_BP (151..9849) overrides it.
 */
static unsigned long upper_share_bp __read_mostly;
MMT_ULONG_PARAM(upper_share_bp, mmt_check_share_bp,
	"0 (from HMAT) or basis points 151..9849",
	"Bandwidth mode: upper node's share of hot memory in bp (0: HMAT)");

static void mmt_inputs(struct mmt_cfg *cfg)
{
	cfg->promote_target_used_bp = promote_target_used_bp;
	cfg->demote_target_free_bp = demote_target_free_bp;
	cfg->quota_mb_per_s = quota_mb_per_s;
	cfg->controller = controller;
	cfg->period_ms = control_period_ms;
	cfg->bandwidth = mode_bandwidth;
	cfg->upper_share_bp = upper_share_bp;
}

/*
 * Whether region @r matched @p at its last aggregation (DAMON resets
 * nr_accesses at each aggregation and keeps the count in last_nr_accesses).
 */
static bool mmt_region_matches(const struct damon_region *r,
			       const struct damos_access_pattern *p)
{
	unsigned long sz = r->ar.end - r->ar.start;

	return sz >= p->min_sz_region && sz <= p->max_sz_region &&
	       r->last_nr_accesses >= p->min_nr_accesses &&
	       r->last_nr_accesses <= p->max_nr_accesses &&
	       r->age >= p->min_age_region && r->age <= p->max_age_region;
}

/*
 * Accessed samples of region @r over the last aggregation interval, as a
 * moving sum updated every sample: the count of the aggregation in progress
 * plus the last aggregation's, weighted by the part of the window still to
 * come (DAMON's damon_nr_accesses_mvsum(), which it does not export).  A new
 * hot set shows within a few samples, not at the end of an aggregation.
 */
static unsigned int mmt_region_mvsum(struct damon_ctx *ctx,
				     struct damon_region *r,
				     unsigned int max_nr)
{
	unsigned long left = 0;

	if (!max_nr)
		return r->last_nr_accesses;
	if (ctx->next_aggregation_sis > ctx->passed_sample_intervals)
		left = min_t(unsigned long, ctx->next_aggregation_sis -
			     ctx->passed_sample_intervals, max_nr);
	return min_t(unsigned int, max_nr, r->nr_accesses +
		     r->last_nr_accesses * left / max_nr);
}

/*
 * The controller's sampling range, in the kdamond: DAMON's interval tuning
 * stays within it from its next step; a sampling interval outside it is
 * brought inside now (waking from back-off must not wait for three
 * aggregations of the slow interval, backing off must cut the cost now).
 */
static void mmt_apply_sampling(struct mmt_node *n, unsigned long min_us,
			       unsigned long max_us)
{
	struct damon_intervals_goal *g = &n->ctx->attrs.intervals_goal;
	struct damon_attrs attrs;

	unsigned long want;

	g->min_sample_us = min_us;
	g->max_sample_us = max(max_us, min_us);
	want = clamp(n->ctx->attrs.sample_interval, g->min_sample_us,
		     g->max_sample_us);
	if (want == n->ctx->attrs.sample_interval || !want)
		return;
	attrs = n->ctx->attrs;
	attrs.aggr_interval = div64_u64((u64)attrs.aggr_interval * want,
					attrs.sample_interval);
	attrs.sample_interval = want;
	mmt_call(damon_set_attrs)(n->ctx, &attrs);
}

/* The controller's step for scheme @idx of @n, applied whole in its kdamond. */
static void mmt_apply_knobs(struct mmt_node *n, struct damos *s, int idx,
			    unsigned int max_nr, unsigned long aggr_us)
{
	struct damos_quota_goal *g;

	if (n->bw) {
		/* bandwidth mode: the two distribution schemes' quotas only */
		s->quota.sz = idx ? n->knob_sz2 : n->knob_sz;
		return;
	}
	if (idx)
		return;
	s->quota.sz = n->knob_sz;
	if (n->tier == MMT_TIER_LOWER) {
		s->pattern.min_nr_accesses =
			mmt_heat_min_accesses(n->knob_heat, max_nr, aggr_us);
	} else {
		s->pattern.max_nr_accesses = n->knob_heat <= 1 ? 0 :
			mmt_heat_min_accesses(n->knob_heat, max_nr,
					      aggr_us) - 1;
		s->pattern.min_age_region = n->knob_min_age;
	}
	if (n->knob_goal)
		damos_for_each_quota_goal(g, &s->quota)
			g->target_value = n->knob_goal;
}

/*
 * In the kdamond: commit the context handed over by mmt_commit_nodes(),
 * keeping the auto-tuned intervals.  Return: the commit's error; after one,
 * DAMON stops the kdamond (the context may be half-committed).
 */
static int mmt_take_commit(struct mmt_node *n)
{
	struct damon_ctx *src;
	bool bw;
	int err;

	spin_lock(&mmt_stat_lock);
	src = n->commit_src;
	bw = n->commit_bw;
	spin_unlock(&mmt_stat_lock);
	if (!src)
		return 0;
	src->attrs.sample_interval = n->ctx->attrs.sample_interval;
	src->attrs.aggr_interval = n->ctx->attrs.aggr_interval;
	src->attrs.aggr_samples = 0;
	err = mmt_call(damon_commit_ctx)(n->ctx, src);
	spin_lock(&mmt_stat_lock);
	if (!err)
		n->bw = bw;
	n->commit_err = err;
	n->commit_src = NULL;
	spin_unlock(&mmt_stat_lock);
	complete(&n->commit_done);
	return err;
}

/*
 * Runs in each kdamond after every sample: apply a commit handed over, then
 * publish the schemes' state (the
 * first scheme's in stat and goal_*, a bandwidth-mode context's second in
 * stat2 and goal2_*), the heat histogram and the bytes the first scheme's
 * pattern matches; apply the controller's knobs.
 */
static int mmt_report_fn(void *data)
{
	struct mmt_node *n = data;
	struct damos_quota_goal *g;
	u64 heat[MMT_NR_HEAT] = { 0 };
	unsigned long eligible = 0;
	unsigned long aggr_us = n->ctx->attrs.aggr_interval;
	unsigned int max_nr = aggr_us / max(n->ctx->attrs.sample_interval, 1UL);
	struct damos *first = NULL, *s;
	struct damon_region *r;
	struct damon_target *t;
	unsigned long min_us = 0, max_us = 0;
	unsigned int nr = 0;
	bool knobs;
	int idx = 0;

	/* a failed commit: publish nothing of a half-committed context */
	if (mmt_take_commit(n))
		return 0;
	damon_for_each_scheme(s, n->ctx) {
		first = s;
		break;
	}
	if (!first)
		return 0;
	/* what the pattern matched at the last aggregation */
	damon_for_each_target(t, n->ctx) {
		nr += t->nr_regions;
		damon_for_each_region(r, t) {
			unsigned long sz = r->ar.end - r->ar.start;

			if (mmt_region_matches(r, &first->pattern))
				eligible += sz;
			heat[mmt_heat_bucket(mmt_region_mvsum(n->ctx, r,
							      max_nr),
					     max_nr, aggr_us)] += sz;
		}
	}
	spin_lock(&mmt_stat_lock);
	n->eligible = eligible;
	memcpy(n->heat, heat, sizeof(heat));
	n->sample_us = n->ctx->attrs.sample_interval;
	n->aggr_us = n->ctx->attrs.aggr_interval;
	n->nr_regions = nr;
	knobs = n->knob_set;
	min_us = n->knob_min_sample_us;
	max_us = n->knob_max_sample_us;
	damon_for_each_scheme(s, n->ctx) {
		if (idx > 1)
			break;
		if (idx) {
			n->stat2 = s->stat;
		} else {
			n->stat = s->stat;
			n->esz = s->quota.esz;
		}
		damos_for_each_quota_goal(g, &s->quota) {
			if (idx) {
				n->goal2_current = g->current_value;
				n->goal2_target = g->target_value;
			} else {
				n->goal_current = g->current_value;
				n->goal_target = g->target_value;
			}
		}
		if (knobs)
			mmt_apply_knobs(n, s, idx, max_nr, aggr_us);
		idx++;
	}
	spin_unlock(&mmt_stat_lock);
	if (knobs)
		mmt_apply_sampling(n, min_us, max_us);
	return 0;
}

/* Record, once, that @n's kdamond stopped and why; mmt_lock held. */
static void mmt_node_stopped(struct mmt_node *n, const char *why, int err)
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
static bool mmt_running(void)
{
	bool all = mmt_nr_nodes > 0;
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (mmt_call(damon_is_running)(n->ctx))
			continue;
		mmt_node_stopped(n, "kdamond_exited", 0);
		all = false;
	}
	return all;
}

/* Stop every context and free everything; mmt_lock held. */
static void mmt_teardown(void)
{
	int i;

	mmt_loop_stop();
	for (i = 0; i < mmt_nr_nodes; i++)
		mmt_call(damon_stop)(&mmt_nodes[i].ctx, 1);
	for (i = 0; i < mmt_nr_nodes; i++)
		mmt_call(damon_destroy_ctx)(mmt_nodes[i].ctx);
	kfree(mmt_nodes);
	mmt_nodes = NULL;
	mmt_nr_nodes = 0;
}

/* The node's abstract distance if a tiering algorithm (HMAT) knows it. */
static int mmt_node_adist(int nid)
{
	int adist = MEMTIER_ADISTANCE_DRAM;

	if (mt_calc_adistance(nid, &adist) != NOTIFY_STOP || adist <= 0)
		return 0;
	return adist;
}

static int mmt_read_topology(struct mmt_plan *plan)
{
	struct mmt_topo *topo;
	int nid, other, err;

	topo = kzalloc_obj(*topo);
	if (!topo)
		return -ENOMEM;
	for_each_node_state(nid, N_MEMORY) {
		if (nid >= MMT_MAX_NODES) {
			pr_warn("node %d ignored: ids from %d on are not supported\n",
				nid, MMT_MAX_NODES);
			continue;
		}
		topo->present[nid] = true;
		topo->has_cpu[nid] = node_state(nid, N_CPU);
		topo->adist[nid] = mmt_node_adist(nid);
		for_each_node_state(other, N_MEMORY)
			if (other < MMT_MAX_NODES)
				topo->dist[nid][other] = node_distance(nid,
								       other);
	}
	err = mmt_plan_tiers(topo, plan);
	kfree(topo);
	if (err)
		pr_err("no memory node has CPUs: nothing to promote to\n");
	else
		pr_info("tiers from %s\n", plan->by_adist ?
			"memory tiering abstract distances (top tier is upper)" :
			"CPUs (nodes with CPUs are upper)");
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
 * Bandwidth mode steers one lower node per upper node (the shares of a pair
 * are node_eligible_mem_bp goals of one context): refuse a topology where
 * an upper node is the promotion target of several.  mmt_lock held.
 */
static int mmt_check_bw_topology(const struct mmt_cfg *cfg)
{
	int i, j;

	if (!cfg->bandwidth)
		return 0;
	for (i = 0; i < mmt_nr_nodes; i++) {
		for (j = i + 1; j < mmt_nr_nodes; j++) {
			struct mmt_node *a = &mmt_nodes[i], *b = &mmt_nodes[j];

			if (a->tier != MMT_TIER_LOWER ||
			    b->tier != MMT_TIER_LOWER || a->target != b->target)
				continue;
			pr_err("mode=bandwidth: lower nodes %d and %d both promote to node %d; bandwidth mode splits hot memory between one upper and one lower node: use mode=capacity\n",
			       a->nid, b->nid, a->target);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

static int mmt_start(void)
{
	struct damon_ctx **ctxs;
	struct mmt_plan *plan;
	struct mmt_cfg cfg;
	int nid, i, err;

	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_topology(plan);
	if (err)
		goto out_plan;
	if (!plan->nr_lower) {
		pr_info("no CPU-less memory node: no lower tier, nothing started\n");
		err = -ENODEV;
		goto out_plan;
	}

	err = -ENOMEM;
	mmt_nodes = kcalloc(plan->nr_upper + plan->nr_lower,
			    sizeof(*mmt_nodes), GFP_KERNEL);
	ctxs = kcalloc(plan->nr_upper + plan->nr_lower, sizeof(*ctxs),
		       GFP_KERNEL);
	if (!mmt_nodes || !ctxs)
		goto out_free;

	mmt_inputs(&cfg);
	for (nid = 0; nid < MMT_MAX_NODES; nid++) {
		struct mmt_node *n;

		if (plan->target[nid] < 0)
			continue;
		n = &mmt_nodes[mmt_nr_nodes];
		n->nid = nid;
		n->tier = plan->tier[nid];
		n->target = plan->target[nid];
		n->bw = cfg.bandwidth && n->tier == MMT_TIER_LOWER;
		n->ctx = mmt_build_ctx(nid, n->tier, n->target, &cfg);
		if (IS_ERR(n->ctx)) {
			err = PTR_ERR(n->ctx);
			n->ctx = NULL;
			goto out_free;
		}
		ctxs[mmt_nr_nodes++] = n->ctx;
		mmt_explain_goals(n, &cfg);
	}

	err = mmt_check_bw_topology(&cfg);
	if (err)
		goto out_free;
	mmt_warn_neighbours();
	err = mmt_call(damon_start)(ctxs, mmt_nr_nodes, false);
	if (err == -EBUSY)
		pr_err("DAMON is running exclusively for another user (Debian starts DAMON_STAT at boot); stop it first: echo N > /sys/module/damon_stat/parameters/enabled (or boot with damon_stat.enabled=N)\n");
	else if (err)
		pr_err("damon_start() failed: %d\n", err);
	if (err)
		goto out_free;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		n->report.fn = mmt_report_fn;
		n->report.data = n;
		n->report.repeat = true;
		mmt_call(damon_call)(n->ctx, &n->report);
		pr_info("node %d (%s tier): %s to node %d, kdamond %d\n",
			n->nid, n->tier == MMT_TIER_UPPER ? "upper" : "lower",
			n->tier == MMT_TIER_UPPER ? "demoting cold pages" :
			"promoting hot pages", n->target,
			mmt_call(damon_kdamond_pid)(n->ctx));
	}
	mmt_running_cfg = cfg;
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
		enabled = on;
		err = mmt_turn(on);
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
	int i;

	src = kcalloc(mmt_nr_nodes, sizeof(*src), GFP_KERNEL);
	if (!src) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];
		struct damon_ctx *c = mmt_build_ctx(n->nid, n->tier, n->target,
						    cfg);

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

/* Wait until node @n's kdamond took its commit; Return: its result. */
static int mmt_wait_commit(struct mmt_node *n)
{
	bool pending;

	while (!wait_for_completion_timeout(&n->commit_done, HZ / 10)) {
		if (mmt_call(damon_is_running)(n->ctx)) {
			/* it was busy when woken, and went to sleep since */
			mmt_wake_kdamond(n->ctx);
			continue;
		}
		/* stopped: its calls are over, it took the commit or never will */
		spin_lock(&mmt_stat_lock);
		pending = n->commit_src;
		n->commit_src = NULL;
		spin_unlock(&mmt_stat_lock);
		if (pending)
			return -ECANCELED;
		break;
	}
	return n->commit_err;
}

/*
 * Commit @src[i] to node i's running context, for i in [0, @nr), all at
 * once: each kdamond applies its own at its next sample (mmt_report_fn()),
 * woken now, so a commit waits one sampling interval, not one per node.
 * Return: 0, or the error of the first node that failed (its index in
 * @failed); mmt_lock held.
 */
static int mmt_commit_nodes(struct damon_ctx **src, const struct mmt_cfg *cfg,
			    int nr, int *failed)
{
	int i, err, first = 0;

	for (i = 0; i < nr; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		/* a stopped kdamond takes nothing (the rollback's case) */
		if (n->stopped)
			continue;
		init_completion(&n->commit_done);
		spin_lock(&mmt_stat_lock);
		n->commit_src = src[i];
		n->commit_bw = cfg->bandwidth && n->tier == MMT_TIER_LOWER;
		spin_unlock(&mmt_stat_lock);
		mmt_wake_kdamond(n->ctx);
	}
	for (i = 0; i < nr; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (n->stopped)
			continue;
		err = mmt_wait_commit(n);
		/* a commit that failed half-way stops the kdamond */
		if (err && !mmt_call(damon_is_running)(n->ctx))
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

	err = mmt_check_bw_topology(cfg);
	if (err)
		return err;
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
			err, mmt_nodes[k].nid);
		/* every node: the others may have taken the new inputs */
		if (mmt_commit_nodes(old, &mmt_running_cfg, mmt_nr_nodes,
				     &failed))
			pr_err("commit_inputs: rollback failed on node %d\n",
			       mmt_nodes[failed].nid);
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
		mmt_nodes[i].knob_set = false;
	spin_unlock(&mmt_stat_lock);
}

static int mmt_commit_inputs_store(const char *val,
				   const struct kernel_param *kp)
{
	struct mmt_cfg cfg;
	bool req = true;
	int err;

	if (val && kstrtobool(val, &req)) {
		pr_warn("commit_inputs: invalid value '%.*s': need Y\n",
			mmt_len(val), val);
		return -EINVAL;
	}
	if (!req)
		return 0;

	mutex_lock(&mmt_lock);
	if (!mmt_nodes || !mmt_running()) {
		mutex_unlock(&mmt_lock);
		pr_info("commit_inputs: not running; inputs apply at the next enable\n");
		return 0;
	}
	mmt_inputs(&cfg);
	/* the loop restarts on the new inputs; its knobs go with it */
	mmt_loop_stop();
	mmt_clear_knobs();
	err = mmt_commit_all(&cfg);
	if (!err) {
		mmt_running_cfg = cfg;
		pr_info("commit_inputs: used_bp=%lu free_bp=%lu quota=%lu MiB/s controller=%c period=%lu ms mode=%s upper_share_bp=%lu\n",
			cfg.promote_target_used_bp, cfg.demote_target_free_bp,
			cfg.quota_mb_per_s, cfg.controller ? 'Y' : 'N',
			cfg.period_ms, cfg.bandwidth ? "bandwidth" : "capacity",
			cfg.upper_share_bp);
	} else if (mmt_running()) {
		pr_warn("commit_inputs: the running configuration is unchanged\n");
	}
	if (mmt_running_cfg.controller && mmt_running() && mmt_loop_start())
		pr_err("commit_inputs: cannot restart the controller\n");
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

/* Read-only outputs: one "nid:value" pair per tiered node. */
enum mmt_out {
	MMT_OUT_PIDS,
	MMT_OUT_PROMOTED,
	MMT_OUT_DEMOTED,
	MMT_OUT_TRIED,
	MMT_OUT_FAILED,
};

static long mmt_out_value(struct mmt_node *n, enum mmt_out what)
{
	switch (what) {
	case MMT_OUT_PIDS:
		return mmt_call(damon_kdamond_pid)(n->ctx);
	case MMT_OUT_PROMOTED:
		return n->tier == MMT_TIER_LOWER ? n->stat.sz_applied : 0;
	case MMT_OUT_DEMOTED:
		/* bandwidth mode: hot pages pushed down to a lower node */
		if (n->bw)
			return n->stat2.sz_applied;
		return n->tier == MMT_TIER_UPPER ? n->stat.sz_applied : 0;
	case MMT_OUT_TRIED:
		return n->stat.sz_tried;
	case MMT_OUT_FAILED:
		/* passed the filters but did not move */
		if (n->stat.sz_ops_filter_passed < n->stat.sz_applied)
			return 0;
		return n->stat.sz_ops_filter_passed - n->stat.sz_applied;
	}
	return 0;
}

static int mmt_out_get(char *buf, const struct kernel_param *kp)
{
	enum mmt_out what = (enum mmt_out)(unsigned long)kp->arg;
	int i, len = 0;

	mutex_lock(&mmt_lock);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];
		long v;

		if (what == MMT_OUT_PIDS) {
			v = mmt_out_value(n, what);
		} else {
			spin_lock(&mmt_stat_lock);
			v = mmt_out_value(n, what);
			spin_unlock(&mmt_stat_lock);
		}
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s%d:%ld",
				 i ? " " : "", n->nid, v);
	}
	mutex_unlock(&mmt_lock);
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops mmt_out_ops = {
	.get = mmt_out_get,
};

#define MMT_OUTPUT(name, what, desc)					\
	module_param_cb(name, &mmt_out_ops, (void *)(what), 0400);	\
	MODULE_PARM_DESC(name, desc)

MMT_OUTPUT(kdamond_pids, MMT_OUT_PIDS,
	   "nid:pid of each node's kdamond (-22 when not running)");
MMT_OUTPUT(bytes_promoted, MMT_OUT_PROMOTED,
	   "nid:bytes promoted out of each lower node since enable");
MMT_OUTPUT(bytes_demoted, MMT_OUT_DEMOTED,
	   "nid:bytes demoted out of each upper node (bandwidth mode: pushed down to each lower node) since enable");
MMT_OUTPUT(bytes_tried, MMT_OUT_TRIED,
	   "nid:bytes of regions each node's scheme tried since enable");
MMT_OUTPUT(bytes_failed, MMT_OUT_FAILED,
	   "nid:bytes that passed the filters but did not migrate");

/* The whole status: running configuration, nodes, pairs; mmt_lock held. */
static void mmt_status_write(struct seq_buf *sb)
{
	int i;

	seq_buf_printf(sb, "running=%d used_bp=%lu free_bp=%lu quota=%lu controller=%d period_ms=%lu mode=%s upper_share_bp=%lu\n",
		       mmt_running(), mmt_running_cfg.promote_target_used_bp,
		       mmt_running_cfg.demote_target_free_bp,
		       mmt_running_cfg.quota_mb_per_s,
		       mmt_running_cfg.controller, mmt_running_cfg.period_ms,
		       mmt_running_cfg.bandwidth ? "bandwidth" : "capacity",
		       mmt_running_cfg.upper_share_bp);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];
		unsigned long score;

		spin_lock(&mmt_stat_lock);
		/* DAMOS's convention: 10000 is on target; 0 before a sample */
		if (mmt_goal_score(n->goal_current, n->goal_target, &score))
			score = 0;
		seq_buf_printf(sb, "node=%d tier=%s action=%s target=%d goal=%s goal_target=%lu goal_current=%lu score=%lu esz=%lu sample_us=%lu aggr_us=%lu nr_regions=%u state=%s err=%d\n",
			       n->nid,
			       n->tier == MMT_TIER_UPPER ? "upper" : "lower",
			       n->tier == MMT_TIER_UPPER ? "demote" : "promote",
			       n->target,
			       n->tier == MMT_TIER_UPPER ? "free_bp" :
			       n->bw ? "eligible_bp" : "used_bp",
			       n->goal_target, n->goal_current,
			       score, n->esz, n->sample_us, n->aggr_us,
			       n->nr_regions, n->stopped ?: "running",
			       n->stop_err);
		/* bandwidth mode: the scheme moving hot pages down */
		if (n->bw)
			seq_buf_printf(sb, "node=%d scheme=push target=%d goal=eligible_bp goal_target=%lu goal_current=%lu pushed=%llu\n",
				       n->nid, n->nid, n->goal2_target,
				       n->goal2_current,
				       (u64)n->stat2.sz_applied);
		spin_unlock(&mmt_stat_lock);
	}
	mmt_loop_show(sb);
}

/* What the status parameter ends with when a page cannot hold it all. */
#define MMT_STATUS_CUT "truncated: one page holds this much; every node is in /sys/kernel/debug/mm_tiering/status\n"

/*
 * The status parameter: one page (the limit of a parameter's read).  Cut,
 * it ends at the last whole line, followed by MMT_STATUS_CUT: never
 * silently.
 */
static int mmt_status_get(char *buf, const struct kernel_param *kp)
{
	size_t room = PAGE_SIZE - sizeof(MMT_STATUS_CUT);
	struct seq_buf sb;
	char *end;

	seq_buf_init(&sb, buf, room);
	mutex_lock(&mmt_lock);
	mmt_status_write(&sb);
	mutex_unlock(&mmt_lock);
	if (!seq_buf_has_overflowed(&sb))
		return seq_buf_used(&sb);
	/* each line is one print: the last newline ends the last whole one */
	for (end = buf + room; end > buf && end[-1] != '\n'; end--)
		;
	memcpy(end, MMT_STATUS_CUT, sizeof(MMT_STATUS_CUT));
	return end - buf + sizeof(MMT_STATUS_CUT) - 1;
}

/* The debugfs copy of status: every line, however many nodes. */
static int mmt_status_show(struct seq_file *m, void *v)
{
	size_t size = PAGE_SIZE;
	struct seq_buf sb;
	char *buf;

	for (;;) {
		buf = kvmalloc(size, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		seq_buf_init(&sb, buf, size);
		mutex_lock(&mmt_lock);
		mmt_status_write(&sb);
		mutex_unlock(&mmt_lock);
		if (!seq_buf_has_overflowed(&sb))
			break;
		kvfree(buf);
		size *= 2;
	}
	seq_write(m, buf, seq_buf_used(&sb));
	kvfree(buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmt_status);

static struct dentry *mmt_debugfs;

static const struct kernel_param_ops mmt_status_ops = {
	.get = mmt_status_get,
};

/*
 * What runs, one line per node, with the goal values DAMON last measured.
 */
module_param_cb(status, &mmt_status_ops, NULL, 0400);
MODULE_PARM_DESC(status, "Running configuration and per-node state");

static int __init mm_tiering_init(void)
{
	int err;

	err = mmt_damon_resolve();
	if (!err && !mmt_call(damon_initialized)()) {
		pr_err("DAMON is not initialized\n");
		err = -ENOMEM;
	}
	if (!err)
		mmt_hmat_refresh();
	if (!err) {
		mmt_debugfs = debugfs_create_dir("mm_tiering", NULL);
		debugfs_create_file("status", 0400, mmt_debugfs, NULL,
				    &mmt_status_fops);
	}
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
	if (err)
		debugfs_remove_recursive(mmt_debugfs);
	return err;
}

static void __exit mm_tiering_exit(void)
{
	debugfs_remove_recursive(mmt_debugfs);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering control loop: observe, decide, act, once per control period.
 *
 * One tier pair per upper node U: U's own context demotes, the contexts of
 * the lower nodes whose promotion target is U promote.  The schemes keep
 * their DAMOS goals and TEMPORAL tuner (full speed while a goal is unmet,
 * stop once met: the fast start of the static recipe); the loop tunes what
 * the static recipe leaves as typed.  Each period:
 *
 * observe  U's free and managed memory (zone counters); the deltas of each
 *          scheme's DAMOS stats since the last period (bytes applied); the
 *          bytes of lower-node regions that the promotion pattern matches
 *          (hot bytes waiting), as published by the kdamonds through their
 *          repeated damon_call();
 * decide   mmt_decide() (mmt_decide_bw()) of mmt_ctl.c, pure, from a
 *          struct mmt_obs to a struct mmt_step:
 *          - room: the demotion goal is raised above U's free goal by the
 *            hot bytes waiting (at most one period's budget), so demotion
 *            makes room for what is hot and for nothing else -- not all of
 *            U's cold pages, not a fixed overshoot; a PI step on the
 *            distance to that raised goal caps demotion per period: the
 *            whole budget far from it, the shortfall near it;
 *          - ping-pong: the detector's level halves the budget per level,
 *            asks promoted regions for one more access per aggregation and
 *            demoted ones for MMT_AGE_PER_LEVEL more aggregations of age;
 *          - back-off: when nothing is waiting and nothing moved for
 *            MMT_BO_IDLE_PERIODS, migration is cut to a page per quota
 *            interval and DAMON's sampling floor and ceiling raised
 *            (monitoring cost); hot bytes waiting, or bytes grown hot on
 *            the lower nodes, resume at once (capacity mode only);
 * act      by setting per-node knobs that each kdamond applies to its own
 *          scheme and context (quota size, min accesses, min age, goal
 *          target, sampling floor) at its next sample, in its own context:
 *          scalar fields written by the only thread that reads them, under
 *          the stat lock, so a step is applied whole or not yet.
 *
 * The migration budget (quota_mb_per_s) is one for the whole module and is
 * split evenly among the pairs (in bandwidth mode, and among each pair's
 * lower nodes).  The act side's constants (sampling ranges,
 * age per damping level) are below; the laws' constants, model and worked
 * examples are in mmt_ctl.c.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "mmt_ctl.h"
#include "mmt_loop.h"
#include "mmt_nodes.h"

#define CREATE_TRACE_POINTS
#include "mmt_trace.h"

/* Per damping level: demoted regions must be 10 aggregations older. */
#define MMT_AGE_PER_LEVEL	10
/* Backed off, DAMON samples at most every 100 x 5 ms = 500 ms. */
#define MMT_BO_SAMPLE_MUL	100
/*
 * DAMON's interval tuning stretches the sampling of a node with few
 * accesses to seconds, and aggregations (20 samples) to tens of seconds:
 * a new hot set on an idle lower node, or an old one gone cold on the upper
 * node, would show only that much later, and heats compared across nodes
 * would be that stale.  Under the controller every node samples at least
 * every 100 ms (2 s aggregations) ...
 */
#define MMT_CTL_MAX_SAMPLE_US	(100 * USEC_PER_MSEC)
/*
 * ... and backed off, between the raised floor and 1 s (each sample costs an
 * rmap walk per region).  Heat is read from DAMON's moving sum of accesses,
 * updated every sample, so a new hot set shows within a few samples -- of
 * at most a second: with the static recipe's 10 s ceiling, a hot set that
 * moved after the back-off took minutes to show (phase's second slice
 * never reached 90 % in 40 s in about half the runs).
 */
#define MMT_BO_MAX_SAMPLE_US	USEC_PER_SEC
/*
 * Except on the lower nodes, which keep sampling every 100 ms: a hot set
 * that moves shows there first, and its heat must reach the back-off's
 * threshold to wake it.  At 500 ms samples that took about 10 samples, 5 s
 * (tail: 0 % of accesses from the upper node for 5.5 s after its shift).
 */
#define MMT_BO_LOW_SAMPLE_US	MMT_CTL_MAX_SAMPLE_US

struct mmt_pair {
	int upper;
	struct mmt_node *demoter;
	struct mmt_pair_ctl ctl;
	/* the last period's observation and decision, for status */
	struct mmt_obs obs;
	struct mmt_step st;
	/* last cumulative stats, for deltas */
	u64 last_prom, last_dem, last_push, last_tried, last_passed;
	/* the controller's own cost: the last step's time, all steps' */
	u64 step_ns, cost_ns;
	unsigned long steps;
};

static struct mmt_pair *mmt_pairs;
static int mmt_nr_pairs;
static struct delayed_work mmt_work;
static unsigned long mmt_period_ms;

static void mmt_node_mem(int nid, struct mmt_obs *o)
{
	struct mmt_pages pages;

	mmt_node_pages(nid, &pages);
	o->managed = pages.managed << PAGE_SHIFT;
	o->free = pages.free << PAGE_SHIFT;
	o->floor = mmt_node_floor(&pages) << PAGE_SHIFT;
}

/* Bytes per period into the quota size of one 100 ms quota interval. */
static unsigned long mmt_knob_sz(u64 per_period)
{
	u64 sz = div64_u64(per_period * MMT_QUOTA_INTERVAL_MS, mmt_period_ms);

	return clamp_t(u64, sz, PAGE_SIZE, ULONG_MAX);
}

static void mmt_set_knobs(struct mmt_node *n, u64 per_period,
			  unsigned int heat, unsigned int level,
			  unsigned long goal, bool backoff)
{
	spin_lock(&mmt_stat_lock);
	n->knob.sz[0] = mmt_knob_sz(per_period);
	n->knob.heat = heat;
	/* wider gap per level: older to demote */
	n->knob.min_age = MMT_AGE_PER_LEVEL * level;
	n->knob.goal = goal;
	if (backoff && n->tier == MMT_TIER_LOWER) {
		n->knob.min_sample_us = MMT_BO_LOW_SAMPLE_US;
		n->knob.max_sample_us = MMT_BO_LOW_SAMPLE_US;
	} else {
		n->knob.min_sample_us = MMT_MIN_SAMPLE_US *
					(backoff ? MMT_BO_SAMPLE_MUL : 1);
		n->knob.max_sample_us = backoff ? MMT_BO_MAX_SAMPLE_US :
					MMT_CTL_MAX_SAMPLE_US;
	}
	n->knob.set = true;
	spin_unlock(&mmt_stat_lock);
}

/* Bandwidth mode: the quotas of the two distribution schemes of @n. */
static void mmt_set_knobs_bw(struct mmt_node *n, u64 up, u64 down)
{
	spin_lock(&mmt_stat_lock);
	/* per quota reset of the distribution schemes (once a second) */
	n->knob.sz[0] = clamp_t(u64, div64_u64(up * MMT_BW_RESET_MS,
						   mmt_period_ms),
				    PAGE_SIZE, ULONG_MAX);
	n->knob.sz[1] = clamp_t(u64, div64_u64(down * MMT_BW_RESET_MS,
						   mmt_period_ms),
				    PAGE_SIZE, ULONG_MAX);
	/* no back-off: the lower context keeps sampling actively */
	n->knob.min_sample_us = MMT_MIN_SAMPLE_US;
	n->knob.max_sample_us = MMT_CTL_MAX_SAMPLE_US;
	n->knob.set = true;
	spin_unlock(&mmt_stat_lock);
}

/* Bandwidth mode: the shares lower node @n's context measured. */
static void mmt_bw_obs(const struct mmt_node *n, struct mmt_obs *o)
{
	o->hot = n->seen.eligible;
	o->share = n->seen.sch[0].goal_current;
	o->share_low = n->seen.sch[1].goal_current;
	o->share_target = n->seen.sch[0].goal_target + MMT_BW_DEADBAND_BP;
}

/*
 * Observe one pair: this period's bytes moved (deltas of the schemes'
 * cumulative stats), the upper node's memory and goal, the heat on both
 * sides and, in bandwidth mode, the shares DAMOS measured.  Return: false
 * when the upper node's goals cannot be computed (no memory): no step.
 */
static bool mmt_observe(struct mmt_pair *p, u64 budget, int *nr_prom)
{
	struct mmt_obs *o = &p->obs;
	u64 prom = 0, push = 0, tried = 0, passed = 0, dem;
	struct mmt_goals goals;
	int i, j;

	memset(o, 0, sizeof(*o));
	o->budget = budget;
	*nr_prom = 0;
	spin_lock(&mmt_stat_lock);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		prom += n->seen.sch[0].stat.sz_applied;
		push += n->seen.sch[1].stat.sz_applied;
		tried += n->seen.sch[0].stat.sz_tried;
		passed += mmt_stat_passed(&n->seen.sch[0].stat);
		for (j = 0; j < MMT_NR_HEAT; j++)
			o->low[j] += n->seen.heat[j];
		/* bandwidth mode: the first lower node's context */
		if (!(*nr_prom)++)
			mmt_bw_obs(n, o);
	}
	dem = p->demoter->seen.sch[0].stat.sz_applied;
	memcpy(o->up, p->demoter->seen.heat, sizeof(o->up));
	o->up_idle = p->demoter->seen.idle;
	spin_unlock(&mmt_stat_lock);
	o->moved_up = mmt_counter_delta(prom, p->last_prom);
	o->moved_down = mmt_counter_delta(push, p->last_push) +
			mmt_counter_delta(dem, p->last_dem);
	o->tried_up = mmt_counter_delta(tried, p->last_tried);
	o->passed_up = mmt_counter_delta(passed, p->last_passed);
	p->last_tried = tried;
	p->last_passed = passed;
	p->last_prom = prom;
	p->last_push = push;
	p->last_dem = dem;
	mmt_node_mem(p->upper, o);
	if (mmt_node_goals(p->upper, &mmt_running_cfg, &goals))
		return false;
	o->free_goal_bp = goals.free_bp;
	return true;
}

/* Act: the knobs of the pair's nodes, applied by their kdamonds. */
static void mmt_act(struct mmt_pair *p, int nr_prom)
{
	const struct mmt_step *st = &p->st;
	int i;

	mmt_set_knobs(p->demoter, st->demote_rate, st->cold_below, st->level,
		      st->goal_bp, st->backoff);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		if (mmt_running_cfg.bandwidth) {
			mmt_set_knobs_bw(n, n->bw_up, n->bw_down);
			continue;
		}
		mmt_set_knobs(n, div_u64(st->promote, nr_prom), st->heat,
			      st->level, 0, st->backoff);
	}
}

/*
 * Bandwidth mode: each lower node's context moves on its own shares
 * (mmt_bw_move()), with its part of the pair's budget and of the gain: the
 * contexts all move pages into and out of the one upper node, so each one's
 * moves shift the others' shares too, and at the full gain they overshoot
 * one another (measured, three lower nodes, 160 MiB hot set: 392 MB
 * promoted and 292 MB pushed down in 150 s; with the gain split, 198 and
 * 99 MB, the same split reached).  The step shows the sums.
 */
static void mmt_bw_lowers(struct mmt_pair *p, int nr_prom)
{
	u64 budget = div_u64(p->obs.budget, max(nr_prom, 1));
	struct mmt_obs o = p->obs;
	int i;

	p->st.promote = 0;
	p->st.push = 0;
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		spin_lock(&mmt_stat_lock);
		mmt_bw_obs(n, &o);
		spin_unlock(&mmt_stat_lock);
		/* the error in bytes, and so the P law's output, split */
		o.hot = div_u64(o.hot, max(nr_prom, 1));
		mmt_bw_move(&o, budget, &n->bw_up, &n->bw_down);
		p->st.promote += n->bw_up;
		p->st.push += n->bw_down;
	}
}

/*
 * One period of a pair.  Capacity mode: the laws of mmt_ctl.c, see
 * mmt_decide().  Bandwidth mode: the lower node's context holds two schemes
 * whose DAMOS goals start and stop them around the target share
 * (node_eligible_mem_bp, with a deadband); mmt_decide_bw() sizes their
 * quotas, and the upper node's own context keeps demoting cold pages on its
 * free-memory goal (room).
 */
static void mmt_pair_step(struct mmt_pair *p, u64 budget)
{
	bool bw = mmt_running_cfg.bandwidth;
	u64 t0 = ktime_get_ns();
	int nr_prom;

	if (!mmt_observe(p, budget, &nr_prom))
		return;
	/* an upper node no lower node promotes into still demotes */
	if (bw && !nr_prom)
		return;
	if (bw) {
		mmt_decide_bw(&p->ctl, &p->obs, &p->st);
		mmt_bw_lowers(p, nr_prom);
	} else
		mmt_decide(&p->ctl, &p->obs, &p->st);
	mmt_act(p, nr_prom);
	/* observe, decide and act; not the tracepoint itself */
	p->step_ns = ktime_get_ns() - t0;
	p->cost_ns += p->step_ns;
	p->steps++;
	trace_controller_step(p->upper, &p->obs, &p->st, p->ctl.pi.integ, bw,
			      p->step_ns);
}

static void mmt_loop_fn(struct work_struct *work)
{
	u64 budget;
	int i;

	/* never block on mmt_lock: disable cancels this work holding it */
	if (!mutex_trylock(&mmt_lock)) {
		schedule_delayed_work(&mmt_work, msecs_to_jiffies(10));
		return;
	}
	budget = mmt_quota_bytes(mmt_running_cfg.quota_mb_per_s,
				 mmt_period_ms);
	budget = div_u64(budget, max(mmt_nr_pairs, 1));
	for (i = 0; i < mmt_nr_pairs; i++)
		mmt_pair_step(&mmt_pairs[i], budget);
	schedule_delayed_work(&mmt_work, msecs_to_jiffies(mmt_period_ms));
	mutex_unlock(&mmt_lock);
}

/*
 * The schemes' stats count from enable, across commits: the first period's
 * deltas are from the counters as they are now, or a restart (commit_inputs)
 * would read everything moved since enable as one period's traffic and trip
 * the ping-pong detector.
 */
static void mmt_pair_seed(struct mmt_pair *p)
{
	int i;

	spin_lock(&mmt_stat_lock);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		p->last_prom += n->seen.sch[0].stat.sz_applied;
		p->last_push += n->seen.sch[1].stat.sz_applied;
		p->last_tried += n->seen.sch[0].stat.sz_tried;
		p->last_passed += mmt_stat_passed(&n->seen.sch[0].stat);
	}
	p->last_dem = p->demoter->seen.sch[0].stat.sz_applied;
	spin_unlock(&mmt_stat_lock);
}

/**
 * mmt_loop_start() - start the controller over the running contexts.
 *
 * Return: 0 or -ENOMEM.
 */
int mmt_loop_start(void)
{
	int i;

	mmt_pairs = kcalloc(mmt_nr_nodes, sizeof(*mmt_pairs), GFP_KERNEL);
	if (!mmt_pairs)
		return -ENOMEM;
	mmt_nr_pairs = 0;
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_pair *p;

		if (mmt_nodes[i]->tier != MMT_TIER_UPPER)
			continue;
		p = &mmt_pairs[mmt_nr_pairs++];
		p->upper = mmt_nodes[i]->nid;
		p->demoter = mmt_nodes[i];
		mmt_pair_seed(p);
		/* integrals bounded by a period's budget: ki 0.1, a tenth */
		mmt_pair_ctl_init(&p->ctl, mmt_quota_bytes(
				mmt_running_cfg.quota_mb_per_s,
				mmt_running_cfg.period_ms));
	}
	mmt_period_ms = mmt_running_cfg.period_ms;
	INIT_DELAYED_WORK(&mmt_work, mmt_loop_fn);
	schedule_delayed_work(&mmt_work, msecs_to_jiffies(mmt_period_ms));
	return 0;
}

/* Stop the controller; the knobs keep their last values. */
void mmt_loop_stop(void)
{
	if (!mmt_pairs)
		return;
	cancel_delayed_work_sync(&mmt_work);
	kfree(mmt_pairs);
	mmt_pairs = NULL;
	mmt_nr_pairs = 0;
}

/* Bandwidth mode: a line per lower node of pair @p, its shares and moves. */
static void mmt_bw_show(struct seq_buf *sb, const struct mmt_pair *p)
{
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		const struct mmt_node *n = mmt_nodes[i];
		struct mmt_obs o = { };

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		spin_lock(&mmt_stat_lock);
		mmt_bw_obs(n, &o);
		spin_unlock(&mmt_stat_lock);
		seq_buf_printf(sb, "pair=%d mode=bandwidth share=%lu share_target=%lu up=%llu down=%llu lower=%d\n",
			       p->upper, o.share, o.share_target, n->bw_up,
			       n->bw_down, n->nid);
	}
}

/*
 * The module's time in the kdamonds of pair @p's nodes (the upper node's
 * and those promoting into it), since they started.
 */
static u64 mmt_pair_hook_ns(const struct mmt_pair *p)
{
	u64 ns = 0;
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		const struct mmt_node *n = mmt_nodes[i];

		if (n->nid == p->upper ||
		    (n->tier == MMT_TIER_LOWER && n->target == p->upper))
			ns += READ_ONCE(n->own.hook_ns);
	}
	return ns;
}

/*
 * Append one status line per tier pair (and lower node) to @sb.  The
 * controller's own cost: cost_ns, its steps in the kworker; hook_ns, its
 * per-sample work in the kdamonds (heat histogram, knobs, goal values).
 */
void mmt_loop_show(struct seq_buf *sb)
{
	int i;

	for (i = 0; i < mmt_nr_pairs; i++) {
		struct mmt_pair *p = &mmt_pairs[i];

		if (mmt_running_cfg.bandwidth)
			mmt_bw_show(sb, p);
		seq_buf_printf(sb, "pair=%d free=%llu goal=%llu err=%lld waiting=%llu heat=%u idle=%llu demote=%llu promote=%llu level=%u backoff=%d integ=%lld moved_up=%llu moved_down=%llu step_ns=%llu steps=%lu cost_ns=%llu hook_ns=%llu young_bp=%lu\n",
			       p->upper, p->obs.free, p->st.goal, p->st.err,
			       p->st.want, p->st.heat, p->obs.up_idle,
			       p->st.demote,
			       p->st.promote, p->st.level, p->st.backoff,
			       p->ctl.pi.integ, p->obs.moved_up,
			       p->obs.moved_down, p->step_ns, p->steps,
			       p->cost_ns, mmt_pair_hook_ns(p),
			       p->st.young_bp);
	}
}

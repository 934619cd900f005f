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
 * decide   with the pure laws of mmt_ctl.c:
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
 * split evenly among the pairs.  Constants and their reasons are below; the
 * laws' model and a worked example are in mmt_ctl.c.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "mmt_ctl.h"
#include "mmt_state.h"

#define CREATE_TRACE_POINTS
#include "mmt_trace.h"

/* PI gains on the distance to the demotion goal: 1.0 (deadbeat), 0.1. */
#define MMT_KP_MILLI		1000
#define MMT_KI_MILLI		100
/* Bandwidth mode: gain on the share error (in bytes), no integral. */
#define MMT_BW_KP_MILLI		400
/* Ping-pong: a period moving under 1 MiB either way is quiet ... */
#define MMT_PP_MIN_BYTES	(1ULL << 20)
/* ... 30 quiet periods in a row relax one level ... */
#define MMT_PP_RELAX		30
/* ... and 28 of 32 periods moving both ways is churn (a shift is a burst). */
#define MMT_PP_BUSY		28
/* Per damping level: demoted regions must be 10 aggregations older. */
#define MMT_AGE_PER_LEVEL	10
/* Back-off: 10 periods moving under 1/256 of the budget each ... */
#define MMT_BO_IDLE_PERIODS	10
#define MMT_BO_IDLE_SHIFT	8
/*
 * ... ends when hot bytes waiting (or a shortfall) reach 1/16 of it: a new
 * hot set is far more, and DAMON's noise on a static one (a few MiB of
 * regions flickering hot) does not wake it.
 */
#define MMT_BO_WAKE_SHIFT	4
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

struct mmt_pair {
	int upper;
	struct mmt_node *demoter;
	struct mmt_pi pi;
	struct mmt_pingpong pp;
	struct mmt_backoff bo;
	/* last cumulative stats, for deltas */
	u64 last_prom, last_dem;
	/* bytes moved up and down in the last period */
	u64 moved_up, moved_down;
	/* last step, for status */
	s64 err;
	u64 free, goal;
	u64 want;
	u64 demote, promote;
	unsigned int heat;
	/* the promotion threshold when the back-off began */
	unsigned int bo_heat;
	/* bandwidth mode */
	struct mmt_pi bw_pi;
	unsigned long share, share_target;
	u64 push;
	u64 last_push;
};

static struct mmt_pair *mmt_pairs;
static int mmt_nr_pairs;
static struct delayed_work mmt_work;
static unsigned long mmt_period_ms;

static void mmt_node_mem(int nid, u64 *managed, u64 *free)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	int z;

	*managed = 0;
	*free = 0;
	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		*managed += zone_managed_pages(zone);
		*free += zone_page_state(zone, NR_FREE_PAGES);
	}
	*managed <<= PAGE_SHIFT;
	*free <<= PAGE_SHIFT;
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
	n->knob_sz = mmt_knob_sz(per_period);
	n->knob_heat = heat;
	/* wider gap per level: older to demote */
	n->knob_min_age = MMT_AGE_PER_LEVEL * level;
	n->knob_goal = goal;
	n->knob_min_sample_us = MMT_MIN_SAMPLE_US *
				(backoff ? MMT_BO_SAMPLE_MUL : 1);
	n->knob_max_sample_us = backoff ? MMT_BO_MAX_SAMPLE_US :
				MMT_CTL_MAX_SAMPLE_US;
	n->knob_set = true;
	spin_unlock(&mmt_stat_lock);
}

/*
 * Bandwidth mode: the lower node's context holds two schemes whose DAMOS
 * goals start and stop them around the target share (node_eligible_mem_bp,
 * with a deadband); this step sizes their quotas.  The error in bytes is
 * the share error times the hot bytes the pattern matches, and a PI law
 * with anti-windup on it gives the bytes to move this period, up (positive)
 * or down: the whole budget far from the target, the remaining error near
 * it, so that the goal evaluated once a second is not overshot by a
 * second's worth of budget.  The upper node's own context keeps demoting
 * cold pages on its free-memory goal (room), with the PI law of capacity
 * mode and no heat threshold.
 */
static void mmt_pair_step_bw(struct mmt_pair *p, u64 budget)
{
	u64 prom = 0, push = 0, dem, managed, hot = 0, up, down;
	unsigned long share_low = 0;
	struct mmt_node *low = NULL;
	struct mmt_goals goals;
	s64 err_bytes, u;
	long err_bp;
	int i;

	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		/* one lower node per upper node in bandwidth mode */
		low = n;
		spin_lock(&mmt_stat_lock);
		prom = n->stat.sz_applied;
		push = n->stat2.sz_applied;
		hot = n->eligible;
		p->share = n->goal_current;
		share_low = n->goal2_current;
		p->share_target = n->goal_target + MMT_BW_DEADBAND_BP;
		spin_unlock(&mmt_stat_lock);
		break;
	}
	spin_lock(&mmt_stat_lock);
	dem = p->demoter->stat.sz_applied;
	spin_unlock(&mmt_stat_lock);
	p->moved_up = prom - p->last_prom;
	p->moved_down = (push - p->last_push) + (dem - p->last_dem);
	p->last_prom = prom;
	p->last_push = push;
	p->last_dem = dem;
	mmt_node_mem(p->upper, &managed, &p->free);
	if (!low || mmt_node_goals(p->upper, &mmt_running_cfg, &goals))
		return;
	p->goal = mmt_bp_apply(managed, goals.free_bp);

	/*
	 * distribution: signed bytes to move up this period.  The two shares
	 * add up to 10000 when DAMOS measured them; both read 0 when no region
	 * matched at its last evaluation (e.g. just after a commit): hold.
	 */
	err_bp = (long)p->share_target - (long)p->share;
	if (abs(err_bp) <= MMT_BW_DEADBAND_BP ||
	    p->share + share_low < MMT_BP_MAX - MMT_BW_DEADBAND_BP)
		err_bp = 0;
	err_bytes = (s64)div_s64((s64)hot * err_bp, MMT_BP_MAX);
	u = mmt_pi_step(&p->bw_pi, err_bytes, -(s64)budget, (s64)budget);
	up = u > 0 ? u : 0;
	down = u < 0 ? -u : 0;

	/* room on the upper node, as in capacity mode */
	p->want = 0;
	p->heat = 1;
	p->err = (s64)p->goal - (s64)p->free;
	p->demote = mmt_pi_step(&p->pi, p->err, 0, budget);

	/*
	 * no back-off in bandwidth mode: DAMON's node_eligible_mem_bp, the
	 * share this mode is steered by, read 0 at most readings once backed
	 * off (seen in three runs; at target before it, 7143-7409 for 7347),
	 * so the law held blind and nothing could wake it
	 */
	p->promote = up;
	p->push = down;

	/* act */
	mmt_set_knobs(p->demoter, p->demote, 1, 0, 0, false);
	spin_lock(&mmt_stat_lock);
	/* per quota reset of the distribution schemes (once a second) */
	low->knob_sz = clamp_t(u64, div64_u64(up * MMT_BW_RESET_MS,
					      mmt_period_ms),
			       PAGE_SIZE, ULONG_MAX);
	low->knob_sz2 = clamp_t(u64, div64_u64(down * MMT_BW_RESET_MS,
					       mmt_period_ms),
				PAGE_SIZE, ULONG_MAX);
	low->knob_min_sample_us = MMT_MIN_SAMPLE_US;
	low->knob_max_sample_us = MMT_CTL_MAX_SAMPLE_US;
	low->knob_set = true;
	spin_unlock(&mmt_stat_lock);
	trace_controller_step(p->upper, p->free, p->goal, p->err, p->demote,
			      up + down, p->moved_up, p->moved_down, 0, false);
}

static void mmt_pair_step(struct mmt_pair *p, u64 budget)
{
	const struct mmt_bo_cfg bo_cfg = {
		.idle_bytes = max_t(u64, budget >> MMT_BO_IDLE_SHIFT, PAGE_SIZE),
		.idle_periods = MMT_BO_IDLE_PERIODS,
		.wake_bytes = max_t(u64, budget >> MMT_BO_WAKE_SHIFT, PAGE_SIZE),
	};
	u64 prom = 0, dem, managed, d_prom, d_dem, b, target, room, demand;
	u64 low[MMT_NR_HEAT] = { 0 }, up[MMT_NR_HEAT];
	struct mmt_pp_cfg pp_cfg;
	struct mmt_goals goals;
	unsigned long goal_bp;
	unsigned int level, heat, gap, j;
	int i, nr_prom = 0;
	bool backoff, was_backed_off;

	/* observe */
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		spin_lock(&mmt_stat_lock);
		prom += n->stat.sz_applied;
		for (j = 0; j < MMT_NR_HEAT; j++)
			low[j] += n->heat[j];
		spin_unlock(&mmt_stat_lock);
		nr_prom++;
	}
	spin_lock(&mmt_stat_lock);
	dem = p->demoter->stat.sz_applied;
	memcpy(up, p->demoter->heat, sizeof(up));
	spin_unlock(&mmt_stat_lock);
	d_prom = prom - p->last_prom;
	d_dem = dem - p->last_dem;
	p->moved_up = d_prom;
	p->moved_down = d_dem;
	p->last_prom = prom;
	p->last_dem = dem;
	mmt_node_mem(p->upper, &managed, &p->free);
	if (mmt_node_goals(p->upper, &mmt_running_cfg, &goals))
		return;
	p->goal = mmt_bp_apply(managed, goals.free_bp);

	/* decide: damping first, it sets the budget of this step */
	pp_cfg.capacity = managed;
	pp_cfg.min_bytes = MMT_PP_MIN_BYTES;
	pp_cfg.relax_periods = MMT_PP_RELAX;
	pp_cfg.busy_periods = MMT_PP_BUSY;
	level = mmt_pingpong_update(&p->pp, &pp_cfg, d_prom, d_dem);
	b = mmt_pp_budget(budget, level);

	/*
	 * thresholds: promote the heat that displaces colder pages by a
	 * margin of 1 + level buckets; room for those bytes, one period's
	 * worth at most
	 */
	room = p->free > p->goal ? p->free - p->goal : 0;
	gap = 1 + level;
	heat = mmt_pick_heat(low, up, room, gap);
	p->heat = heat;
	p->want = min(mmt_heat_sum(low, heat, MMT_NR_HEAT), b);
	target = min(p->goal + p->want, managed);
	p->err = (s64)target - (s64)p->free;
	p->demote = mmt_pi_step(&p->pi, p->err, 0, b);
	p->promote = b;

	/*
	 * backed off, what wakes it is also what has grown hot on the lower
	 * nodes by the threshold of the back-off's start: a hot set that moved
	 * asks for nothing (want) while the old one still looks hot on the
	 * upper node, whose heat goes stale when sampled slowly (phase's
	 * second slice waited 40 s to minutes for it)
	 */
	demand = p->want + (p->goal > p->free ? p->goal - p->free : 0);
	if (p->bo.backed_off)
		demand = max(demand, mmt_heat_sum(low, p->bo_heat,
						  MMT_NR_HEAT));
	was_backed_off = p->bo.backed_off;
	backoff = mmt_backoff_update(&p->bo, &bo_cfg, d_prom + d_dem, demand);
	if (backoff && !was_backed_off)
		p->bo_heat = max(heat, 1U);
	if (backoff) {
		p->demote = 0;
		p->promote = 0;
	}
	if (mmt_bp_of(target, managed, &goal_bp))
		goal_bp = goals.free_bp;

	/* act */
	mmt_set_knobs(p->demoter, p->demote, heat > gap ? heat - gap : 0,
		      level, goal_bp, backoff);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (n->tier == MMT_TIER_LOWER && n->target == p->upper)
			mmt_set_knobs(n, div_u64(p->promote, nr_prom), heat,
				      level, 0, backoff);
	}
	trace_controller_step(p->upper, p->free, target, p->err, p->demote,
			      p->promote, d_prom, d_dem, level, backoff);
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
	for (i = 0; i < mmt_nr_pairs; i++) {
		if (mmt_running_cfg.bandwidth)
			mmt_pair_step_bw(&mmt_pairs[i], budget);
		else
			mmt_pair_step(&mmt_pairs[i], budget);
	}
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
		struct mmt_node *n = &mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		p->last_prom += n->stat.sz_applied;
		p->last_push += n->stat2.sz_applied;
	}
	p->last_dem = p->demoter->stat.sz_applied;
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

		if (mmt_nodes[i].tier != MMT_TIER_UPPER)
			continue;
		p = &mmt_pairs[mmt_nr_pairs++];
		p->upper = mmt_nodes[i].nid;
		p->demoter = &mmt_nodes[i];
		mmt_pair_seed(p);
		p->pi.kp_milli = MMT_KP_MILLI;
		p->pi.ki_milli = MMT_KI_MILLI;
		/* at most a tenth of a period's budget from the integral */
		p->pi.integ_max = (s64)mmt_quota_bytes(
			mmt_running_cfg.quota_mb_per_s,
			mmt_running_cfg.period_ms);
		/*
		 * bandwidth mode: the share is measured once a second and acted
		 * on over the next, a delay in the loop: a deadbeat gain
		 * oscillates (measured +-4 % around the target), 0.4 without
		 * integral settles
		 */
		p->bw_pi.kp_milli = MMT_BW_KP_MILLI;
		p->bw_pi.integ_max = p->pi.integ_max;
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

/* Append one status line per tier pair to @sb. */
void mmt_loop_show(struct seq_buf *sb)
{
	int i;

	for (i = 0; i < mmt_nr_pairs; i++) {
		struct mmt_pair *p = &mmt_pairs[i];

		if (mmt_running_cfg.bandwidth)
			seq_buf_printf(sb, "pair=%d mode=bandwidth share=%lu share_target=%lu up=%llu down=%llu\n",
				       p->upper, p->share, p->share_target,
				       p->promote, p->push);
		seq_buf_printf(sb, "pair=%d free=%llu goal=%llu err=%lld waiting=%llu heat=%u demote=%llu promote=%llu level=%u backoff=%d integ=%lld moved_up=%llu moved_down=%llu\n",
			       p->upper, p->free, p->goal, p->err, p->want,
			       p->heat, p->demote, p->promote, p->pp.level,
			       p->bo.backed_off, p->pi.integ, p->moved_up,
			       p->moved_down);
	}
}

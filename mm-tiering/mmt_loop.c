// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering control loop: observe, decide, act, once per control period.
 *
 * One tier pair per upper node U: U's own context demotes, the contexts of
 * the lower nodes whose promotion target is U promote.  Each period:
 *
 * observe  U's free and managed memory (zone counters), the goal in force,
 *          and the deltas of each scheme's DAMOS stats since the last period
 *          (bytes applied, tried, quota exceeds), as published by the
 *          kdamonds through their repeated damon_call();
 * decide   with the pure laws of mmt_ctl.c: a PI step on U's free-memory
 *          shortfall gives the demotion budget; promotion may use the room
 *          above the goal plus what demotion frees; the ping-pong level
 *          halves both per level and widens the hot/cold thresholds; the
 *          back-off state cuts both to one page per quota interval;
 * act      by setting per-node knobs that each kdamond applies to its own
 *          scheme (quota size, min accesses, min age) at its next sample,
 *          in its own context: three scalar fields written by the only
 *          thread that reads them, so a step is applied whole or not yet.
 *
 * The migration budget (quota_mb_per_s) is one for the whole module and is
 * split evenly among the pairs.  Constants and their reasons are below; the
 * model and a worked example are in mmt_ctl.c.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "mmt_ctl.h"
#include "mmt_state.h"

#define CREATE_TRACE_POINTS
#include "mmt_trace.h"

/* PI gains on the free-memory shortfall: 1.0 (deadbeat) and 0.1/period. */
#define MMT_KP_MILLI		1000
#define MMT_KI_MILLI		100
/* Ping-pong: a period moving under 1 MiB either way is quiet ... */
#define MMT_PP_MIN_BYTES	(1ULL << 20)
/* ... and 30 quiet periods in a row relax one level. */
#define MMT_PP_RELAX		30
/* Smallest promotion want while promoters hit their quota: 1 MiB. */
#define MMT_MIN_STEP		(1ULL << 20)
/* Back-off: 10 periods moving under 1/256 of the budget each. */
#define MMT_BO_IDLE_PERIODS	10
#define MMT_BO_IDLE_SHIFT	8
/* Back-off ends on a demand of 1/64 of the budget in one period. */
#define MMT_BO_WAKE_SHIFT	6

struct mmt_pair {
	int upper;
	struct mmt_node *demoter;
	struct mmt_pi pi;
	struct mmt_pingpong pp;
	struct mmt_backoff bo;
	/* last cumulative stats, for deltas */
	u64 last_prom, last_dem, last_tried;
	/* last step, for status */
	s64 err;
	u64 free, goal;
	u64 want;
	u64 demote, promote;
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
			  unsigned int level)
{
	spin_lock(&mmt_stat_lock);
	n->knob_sz = mmt_knob_sz(per_period);
	/* wider gap per level: hotter to promote, older to demote */
	n->knob_min_accesses = 1 + level;
	n->knob_min_age = 2 * level;
	n->knob_set = true;
	spin_unlock(&mmt_stat_lock);
}

static void mmt_pair_step(struct mmt_pair *p, u64 budget)
{
	const struct mmt_bo_cfg bo_cfg = {
		.idle_bytes = max_t(u64, budget >> MMT_BO_IDLE_SHIFT, PAGE_SIZE),
		.idle_periods = MMT_BO_IDLE_PERIODS,
		.wake_bytes = max_t(u64, budget >> MMT_BO_WAKE_SHIFT, PAGE_SIZE),
	};
	u64 prom = 0, dem, tried = 0, managed, room, need, d_prom, d_dem;
	u64 d_tried;
	struct mmt_pp_cfg pp_cfg;
	struct mmt_goals goals;
	unsigned int level;
	int i, nr_prom = 0;
	bool backoff, bound;

	/* observe */
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (n->tier != MMT_TIER_LOWER || n->target != p->upper)
			continue;
		spin_lock(&mmt_stat_lock);
		prom += n->stat.sz_applied;
		tried += n->stat.sz_tried;
		spin_unlock(&mmt_stat_lock);
		nr_prom++;
	}
	spin_lock(&mmt_stat_lock);
	dem = p->demoter->stat.sz_applied;
	spin_unlock(&mmt_stat_lock);
	d_prom = prom - p->last_prom;
	d_dem = dem - p->last_dem;
	d_tried = tried - p->last_tried;
	p->last_prom = prom;
	p->last_dem = dem;
	p->last_tried = tried;
	mmt_node_mem(p->upper, &managed, &p->free);
	if (mmt_node_goals(p->upper, &mmt_running_cfg, &goals))
		return;
	p->goal = mmt_bp_apply(managed, goals.free_bp);
	p->err = (s64)p->goal - (s64)p->free;

	/*
	 * decide: the promoters want the hot bytes they found (tried, which
	 * counts pages that failed to move for lack of room too), or twice
	 * what they were allowed when that bound them (they found at least
	 * 3/4 of it): a slow start from 1 MiB that doubles each period until
	 * they find less than they may.  (DAMOS quota exceeds are no such
	 * signal: the TEMPORAL tuner sets a met goal's quota to zero, which
	 * counts as exceeded.)  Demotion makes the room promotion wants
	 * beyond the free memory above the goal, plus the PI step on the
	 * goal's shortfall.
	 */
	d_prom = max(d_prom, d_tried);
	bound = d_prom * 4 >= p->promote * 3;
	p->want = bound ? max3(2 * p->promote, d_prom, (u64)MMT_MIN_STEP) :
		  d_prom;
	p->want = min(p->want, budget);
	room = p->free > p->goal ? p->free - p->goal : 0;
	need = p->want > room ? p->want - room : 0;
	p->demote = min_t(u64, mmt_pi_step(&p->pi, p->err, 0, budget) + need,
			  budget);
	p->promote = min(room + p->demote, budget);

	pp_cfg.capacity = managed;
	pp_cfg.min_bytes = MMT_PP_MIN_BYTES;
	pp_cfg.relax_periods = MMT_PP_RELAX;
	level = mmt_pingpong_update(&p->pp, &pp_cfg, d_prom, d_dem);
	p->demote = mmt_pp_budget(p->demote, level);
	p->promote = mmt_pp_budget(p->promote, level);
	backoff = mmt_backoff_update(&p->bo, &bo_cfg, d_prom + d_dem,
				     (p->err > 0 ? p->err : 0) +
				     (bound ? bo_cfg.wake_bytes : 0));
	if (backoff) {
		p->demote = 0;
		p->promote = 0;
	}

	/* act */
	mmt_set_knobs(p->demoter, p->demote, level);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = &mmt_nodes[i];

		if (n->tier == MMT_TIER_LOWER && n->target == p->upper)
			mmt_set_knobs(n, div_u64(p->promote, nr_prom), level);
	}
	trace_controller_step(p->upper, p->free, p->goal, p->err, p->demote,
			      p->promote, level, backoff);
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
		p->pi.kp_milli = MMT_KP_MILLI;
		p->pi.ki_milli = MMT_KI_MILLI;
		p->pi.integ_max = (s64)mmt_quota_bytes(
			mmt_running_cfg.quota_mb_per_s, 10 * MSEC_PER_SEC);
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

/* Append one status line per tier pair to @buf. */
int mmt_loop_show(char *buf, int len, int size)
{
	int i;

	for (i = 0; i < mmt_nr_pairs; i++) {
		struct mmt_pair *p = &mmt_pairs[i];

		len += scnprintf(buf + len, size - len,
				 "pair=%d free=%llu goal=%llu err=%lld want=%llu demote=%llu promote=%llu level=%u backoff=%d integ=%lld\n",
				 p->upper, p->free, p->goal, p->err, p->want,
				 p->demote, p->promote, p->pp.level,
				 p->bo.backed_off, p->pi.integ);
	}
	return len;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: what runs in each kdamond, from its repeated damon_call().
 *
 * mmt_report_fn() runs after every sample of a node's context, in its
 * kdamond: it applies a commit handed over by mmt_commit.c, publishes the
 * schemes' stats, goals and the heat of the regions into struct mmt_node
 * (under mmt_stat_lock), and applies the controller's knobs (mmt_loop.c)
 * to its own schemes and sampling range.  It touches no other context and
 * takes no other lock; it may call DAMON (mmt_damon.h) and the pure laws.
 */
#include <linux/completion.h>
#include <linux/damon.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "mmt_compat.h"
#include "mmt_damon.h"
#include "mmt_kdamond.h"
#include "mmt_state.h"

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
		s->quota.sz = n->sch[idx].knob_sz;
		return;
	}
	if (idx)
		return;
	s->quota.sz = n->sch[0].knob_sz;
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
 * publish the schemes' state (n->sch[], by scheme), the heat histogram and
 * the bytes the first scheme's pattern matches; apply the controller's
 * knobs.
 */
/* What the regions of @n's context look like, published under the lock. */
struct mmt_regions {
	unsigned long eligible;
	u64 heat[MMT_NR_HEAT];
	unsigned int nr;
};

/*
 * Walk @n's regions: the bytes @first's pattern matched at the last
 * aggregation, and the bytes per heat bucket (moving sum, every sample).
 */
static void mmt_walk_regions(struct mmt_node *n, const struct damos *first,
			     struct mmt_regions *out)
{
	unsigned long aggr_us = n->ctx->attrs.aggr_interval;
	unsigned int max_nr = aggr_us / max(n->ctx->attrs.sample_interval, 1UL);
	struct damon_region *r;
	struct damon_target *t;

	memset(out, 0, sizeof(*out));
	damon_for_each_target(t, n->ctx) {
		out->nr += t->nr_regions;
		damon_for_each_region(r, t) {
			unsigned long sz = r->ar.end - r->ar.start;

			if (mmt_region_matches(r, &first->pattern))
				out->eligible += sz;
			out->heat[mmt_heat_bucket(mmt_region_mvsum(n->ctx, r,
								   max_nr),
						  max_nr, aggr_us)] += sz;
		}
	}
}

int mmt_report_fn(void *data)
{
	struct mmt_node *n = data;
	struct damos_quota_goal *g;
	unsigned long aggr_us = n->ctx->attrs.aggr_interval;
	unsigned int max_nr = aggr_us / max(n->ctx->attrs.sample_interval, 1UL);
	struct damos *first = NULL, *s;
	unsigned long min_us = 0, max_us = 0;
	struct mmt_regions regions;
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
	mmt_walk_regions(n, first, &regions);
	spin_lock(&mmt_stat_lock);
	n->eligible = regions.eligible;
	memcpy(n->heat, regions.heat, sizeof(n->heat));
	n->sample_us = n->ctx->attrs.sample_interval;
	n->aggr_us = n->ctx->attrs.aggr_interval;
	n->nr_regions = regions.nr;
	knobs = n->knob_set;
	min_us = n->knob_min_sample_us;
	max_us = n->knob_max_sample_us;
	n->esz = first->quota.esz;
	damon_for_each_scheme(s, n->ctx) {
		struct mmt_scheme_state *ss = &n->sch[idx];

		ss->stat = s->stat;
		damos_for_each_quota_goal(g, &s->quota) {
			ss->goal_current = g->current_value;
			ss->goal_target = g->target_value;
		}
		if (knobs)
			mmt_apply_knobs(n, s, idx, max_nr, aggr_us);
		if (++idx == MMT_NR_SCHEMES)
			break;
	}
	spin_unlock(&mmt_stat_lock);
	if (knobs)
		mmt_apply_sampling(n, min_us, max_us);
	return 0;
}


// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: what runs in each kdamond, from its repeated damon_call()
 * (6.12: its after_sampling and after_aggregation callbacks;
 * mmt_hook_prepare() in mmt_hook.c).
 *
 * mmt_report_fn() runs after every sample of a node's context, in its
 * kdamond: it applies a commit handed over by mmt_commit.c, publishes the
 * schemes' stats, goals and the heat of the regions into struct mmt_node
 * (under mmt_stat_lock), and applies the controller's knobs (mmt_loop.c)
 * to its own schemes and sampling range.  It touches no other context and
 * takes no other lock; it may call DAMON (mmt_damon.h), the pure laws and
 * the lock-free node readers of mmt_ctx.c (where it feeds DAMON's goals
 * itself: mmt_feed_goals()), and asks mmt_offline_hold() (mmt_hotplug.c).
 */
#include <linux/completion.h>
#include <linux/damon.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "mmt_compat.h"
#include "mmt_ctx.h"
#include "mmt_damon.h"
#include "mmt_hotplug.h"
#include "mmt_kdamond.h"
#include "mmt_nodes.h"

/*
 * Whether region @r of @ctx matches @p as DAMOS matches it: by its accesses
 * over the last aggregation interval (mmt_region_accesses()) and its age.
 */
static bool mmt_region_matches(struct damon_ctx *ctx, struct damon_region *r,
			       const struct damos_access_pattern *p)
{
	unsigned long sz = r->ar.end - r->ar.start;
	unsigned int nr = mmt_region_accesses(ctx, r);

	return sz >= p->min_sz_region && sz <= p->max_sz_region &&
	       nr >= p->min_nr_accesses && nr <= p->max_nr_accesses &&
	       r->age >= p->min_age_region && r->age <= p->max_age_region;
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
	struct damon_attrs attrs;
	unsigned long want;

	max_us = max(max_us, min_us);
	mmt_attrs_sampling_range(&n->ctx->attrs, min_us, max_us);
	want = clamp(n->ctx->attrs.sample_interval, min_us, max_us);
	if (want == n->ctx->attrs.sample_interval || !want)
		return;
	attrs = n->ctx->attrs;
	attrs.aggr_interval = div64_u64((u64)attrs.aggr_interval * want,
					attrs.sample_interval);
	attrs.sample_interval = want;
	mmt_call(damon_set_attrs)(n->ctx, &attrs);
}

/*
 * Where DAMON cannot tune the intervals itself (mmt_compat.h), tune them as
 * it would (mmt_tune_sample_us()): every MMT_TUNE_AGGRS aggregations, keeping
 * the samples per aggregation, within [@min_us, @max_us].  Called once per
 * aggregation, at its end: 6.12's after_aggregation (mmt_report_fn() with
 * @change), where the regions' nr_accesses are the whole aggregation's.
 */
static void mmt_tune_intervals(struct mmt_node *n, unsigned long min_us,
			       unsigned long max_us)
{
	struct damon_ctx *ctx = n->ctx;
	unsigned long max_nr = ctx->attrs.aggr_interval /
			       max(ctx->attrs.sample_interval, 1UL);
	u64 events = 0, max_events = 0;
	struct damon_attrs attrs;
	struct damon_region *r;
	struct damon_target *t;
	unsigned long us;

	if (!max_nr || ++n->own.tune_aggrs < MMT_TUNE_AGGRS)
		return;
	n->own.tune_aggrs = 0;
	damon_for_each_target(t, ctx) {
		damon_for_each_region(r, t) {
			u64 sz = r->ar.end - r->ar.start;

			events += sz * r->nr_accesses;
			max_events += sz * max_nr;
		}
	}
	us = mmt_tune_sample_us(ctx->attrs.sample_interval, events,
				max_events, MMT_TUNE_ACCESS_BP, min_us, max_us);
	if (us == ctx->attrs.sample_interval)
		return;
	attrs = ctx->attrs;
	attrs.sample_interval = us;
	attrs.aggr_interval = us * max_nr;
	mmt_call(damon_set_attrs)(ctx, &attrs);
}

/* The controller's step for scheme @idx of @n, applied whole in its kdamond. */
static void mmt_apply_knobs(struct mmt_node *n, struct damos *s, int idx,
			    unsigned int max_nr, unsigned long aggr_us)
{
	struct damos_quota_goal *g;

	if (n->bw) {
		/* bandwidth mode: the two distribution schemes' quotas only */
		s->quota.sz = n->knob.sz[idx];
		return;
	}
	if (idx)
		return;
	s->quota.sz = n->knob.sz[0];
	if (n->tier == MMT_TIER_LOWER) {
		s->pattern.min_nr_accesses =
			mmt_heat_min_accesses(n->knob.heat, max_nr, aggr_us);
	} else {
		s->pattern.max_nr_accesses = n->knob.heat <= 1 ? 0 :
			mmt_heat_min_accesses(n->knob.heat, max_nr,
					      aggr_us) - 1;
		s->pattern.min_age_region = n->knob.min_age;
	}
	if (n->knob.goal)
		mmt_for_each_goal(g, s)
			g->target_value = n->knob.goal;
}

/*
 * In the kdamond: commit the context handed over by mmt_commit_nodes(),
 * keeping the auto-tuned intervals.  Return: the commit's error; after one,
 * DAMON stops the kdamond (the context may be half-committed).
 */
static int mmt_take_commit(struct mmt_node *n)
{
	struct damon_ctx *src;
	int err, nr_classes;
	bool bw;

	spin_lock(&mmt_stat_lock);
	src = n->commit.src;
	bw = n->commit.bw;
	nr_classes = n->commit.nr_classes;
	n->commit.busy = !!src;
	spin_unlock(&mmt_stat_lock);
	if (!src)
		return 0;
	src->attrs.sample_interval = n->ctx->attrs.sample_interval;
	src->attrs.aggr_interval = n->ctx->attrs.aggr_interval;
	mmt_attrs_restart_samples(&src->attrs);
	err = mmt_call(damon_commit_ctx)(n->ctx, src);
	spin_lock(&mmt_stat_lock);
	if (!err) {
		int i;

		n->bw = bw;
		n->nr_classes = nr_classes;
		/*
		 * the committed quotas and goals are the ones a hold and
		 * admission give back; a class's counters start anew
		 */
		for (i = 0; i < MMT_NR_SCHEMES; i++) {
			n->own.sch[i].held = false;
			n->own.sch[i].capped = false;
			n->own.sch[i].raised = false;
		}
		memset(n->own.cls, 0, sizeof(n->own.cls));
		memset(n->own.cls_applied, 0, sizeof(n->own.cls_applied));
	}
	n->commit.err = err;
	n->commit.src = NULL;
	n->commit.busy = false;
	spin_unlock(&mmt_stat_lock);
	complete(&n->commit.done);
	return err;
}

/* What the regions of @n's context look like, published under the lock. */
struct mmt_regions {
	unsigned long eligible;
	/* of those, on the context's own node (fed to eligible goals) */
	unsigned long eligible_own;
	u64 heat[MMT_NR_HEAT];
	/* of heat[0], the bytes of idle regions */
	u64 idle;
	unsigned int nr;
};

/*
 * Walk @n's regions: the bytes @first's pattern matched at the last
 * aggregation, and the bytes per heat bucket (moving sum, every sample) and
 * of idle regions.
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
			unsigned int b;

			if (mmt_region_matches(n->ctx, r, &first->pattern)) {
				out->eligible += sz;
				if (MMT_FEED_ELIGIBLE && n->bw)
					out->eligible_own += mmt_bytes_on_node(
						r->ar.start, r->ar.end, n->nid);
			}
			b = mmt_heat_bucket(min(mmt_region_accesses(n->ctx, r),
						max_nr), max_nr, aggr_us);
			out->heat[b] += sz;
			if (mmt_region_idle(b, r->age, aggr_us))
				out->idle += sz;
		}
	}
}

/*
 * Where DAMON does not measure a goal's node itself (mmt_compat.h), set the
 * current value of scheme @idx's USER_INPUT goal as DAMON would: the used
 * or free share of the node's memory, or the node's share of the eligible
 * (hot) bytes in bandwidth mode.  Then, without the TEMPORAL tuner, make
 * CONSIST act as it does.
 */
static void mmt_feed_goals(struct mmt_node *n, struct damos *s, int idx,
			   const struct mmt_regions *regions)
{
	struct damos_quota_goal *g;
	unsigned long bp = 0;
	struct mmt_pages pages;
	bool feed = true;

	if (n->bw && MMT_FEED_ELIGIBLE) {
		/* scheme 0 fills the upper node, 1 the context's own */
		mmt_bp_of(idx ? regions->eligible_own :
			  regions->eligible - regions->eligible_own,
			  regions->eligible, &bp);
	} else if (!n->bw && MMT_FEED_NODE_MEM) {
		/* promotion fills its target, demotion frees its own node */
		mmt_node_pages(n->tier == MMT_TIER_LOWER ? n->target : n->nid,
			       &pages);
		mmt_bp_of(n->tier == MMT_TIER_LOWER ?
			  pages.managed - pages.free : pages.free,
			  pages.managed, &bp);
	} else {
		feed = false;
	}
	if (feed)
		mmt_for_each_goal(g, s)
			g->current_value = bp;
	if (MMT_EMULATE_TEMPORAL)
		mmt_quota_temporal(s);
}

/*
 * While memory goes offline (mmt_offline_hold()), a lower node's schemes
 * promote at most a page per quota interval, from the next quota reset
 * (DAMON derives the effective size from quota.sz there, at most
 * MMT_QUOTA_INTERVAL_MS later); then they get their quota
 * back: the controller's knob when it sets this scheme's (@knob_sz), else
 * the one they had.  Stat lock held.
 */
static void mmt_hold_promotion(const struct mmt_node *n, struct damos *s,
			       struct mmt_scheme_own *ss, bool knob_sz)
{
	if (n->tier == MMT_TIER_LOWER && mmt_offline_hold()) {
		if (!ss->held) {
			ss->held = true;
			ss->held_sz = s->quota.sz;
		}
		s->quota.sz = PAGE_SIZE;
	} else if (ss->held) {
		ss->held = false;
		if (!knob_sz)
			s->quota.sz = ss->held_sz;
	}
}

/*
 * Admission, before each apply of the schemes (this runs after every sample,
 * and DAMOS applies a scheme only after one): first give back what the last
 * sample's admission changed, so that the knobs, the hold and a commit see
 * the scheme's own values.  Stat lock held.
 */
static void mmt_admit_undo(struct damos *s, struct mmt_scheme_own *ss)
{
	struct damos_quota_goal *g;

	if (ss->capped)
		s->quota.sz = ss->uncapped_sz;
	if (ss->raised)
		mmt_for_each_goal(g, s)
			g->target_value = ss->unraised_goal;
	ss->capped = false;
	ss->raised = false;
}

/*
 * Then admit: a promoting scheme of @n (capacity mode's, bandwidth mode's
 * first, a class's: @cls) moves at most its part of what its target can
 * take above its floor (mmt_node_floor()) in this quota interval, and the
 * node's own none while one of its classes waits for room; an upper node's free
 * goal is raised to its floor, so that demotion makes the room promotion is
 * admitted to.  Without it, promotion took an upper node whose other
 * memory was all ZONE_MOVABLE below its min watermark, and the OOM killer
 * took the process allocating there.
 */
static void mmt_admit(const struct mmt_node *n, struct damos *s, int idx,
		      struct mmt_scheme_own *ss, bool cls)
{
	struct damos_quota_goal *g;
	struct mmt_pages pages;
	unsigned long floor_bp;
	u64 admit;

	if (idx)
		return;
	if (n->tier == MMT_TIER_LOWER) {
		mmt_node_pages(n->target, &pages);
		admit = mmt_admit_bytes(pages.free << PAGE_SHIFT,
					mmt_node_floor(&pages) << PAGE_SHIFT);
		/* each promoting scheme of each lower node its part */
		admit = div_u64(admit, max(READ_ONCE(n->promoters), 1U) *
				(1 + n->nr_classes));
		/* a class waiting for room is promoted first */
		if (!cls && n->nr_classes &&
		    time_before(jiffies, n->own.cls_wait))
			admit = 0;
		ss->uncapped_sz = s->quota.sz;
		s->quota.sz = mmt_admit_quota(s->quota.sz, admit, PAGE_SIZE);
		ss->capped = s->quota.sz != ss->uncapped_sz;
	} else if (n->tier == MMT_TIER_UPPER) {
		mmt_node_pages(n->nid, &pages);
		if (mmt_bp_of(mmt_node_floor(&pages), pages.managed, &floor_bp))
			return;
		mmt_for_each_goal(g, s) {
			if (g->target_value >= floor_bp)
				continue;
			ss->unraised_goal = g->target_value;
			ss->raised = true;
			g->target_value = floor_bp;
		}
	}
}

/* The priming walk's state: in capacity mode it follows @first (mmt_ctx.c). */
static const char *mmt_prime_state(const struct mmt_node *n,
				   const struct damos *first)
{
	struct damos *s;

	damon_for_each_scheme(s, n->ctx) {
		if (s != first && !n->bw)
			return mmt_scheme_done(s) ? "done" : "walking";
	}
	return "none";
}

/*
 * Scheme @idx of @n, stat lock held: feed its goals, apply the controller's
 * knobs (@knobs: set), the offline hold and admission, in that order, and
 * publish its stats and goal.
 */
static void mmt_scheme_report(struct mmt_node *n, struct damos *s, int idx,
			      const struct mmt_regions *regions, bool knobs)
{
	unsigned long aggr_us = n->ctx->attrs.aggr_interval;
	unsigned int max_nr = aggr_us / max(n->ctx->attrs.sample_interval, 1UL);
	struct mmt_scheme_own *own = &n->own.sch[idx];
	struct mmt_scheme_seen *seen = &n->seen.sch[idx];
	struct damos_quota_goal *g;

	mmt_feed_goals(n, s, idx, regions);
	mmt_admit_undo(s, own);
	if (knobs)
		mmt_apply_knobs(n, s, idx, max_nr, aggr_us);
	mmt_hold_promotion(n, s, own, knobs && (n->bw || !idx));
	mmt_admit(n, s, idx, own, false);
	seen->stat = s->stat;
	mmt_for_each_goal(g, s) {
		seen->goal_current = g->current_value;
		seen->goal_target = g->target_value;
	}
}

/* Goal @nth (0: the first) of scheme @s, or NULL. */
static struct damos_quota_goal *mmt_nth_goal(struct damos *s, int nth)
{
	struct damos_quota_goal *g;

	mmt_for_each_goal(g, s)
		if (!nth--)
			return g;
	return NULL;
}

/* Publish class scheme @s's stats and its first goal as @seen. */
static void mmt_class_seen(struct damos *s, struct mmt_scheme_seen *seen)
{
	struct damos_quota_goal *g = mmt_nth_goal(s, 0);

	seen->stat = s->stat;
	seen->goal_current = g ? g->current_value : 0;
	seen->goal_target = g ? g->target_value : 0;
}

/*
 * Class @c's promotion on lower node @n, stat lock held: the offline hold
 * and admission as the node's own promotion has them; while the class is
 * below its goal on the target and this scheme moved pages since the last
 * sample, the class waits for room there (mmt_class_wait[]: the target's
 * room scheme runs, and this node's own promotion pauses).
 */
static void mmt_class_promote(struct mmt_node *n, struct damos *s, int c)
{
	struct damos_quota_goal *g = mmt_nth_goal(s, 0);
	struct mmt_scheme_own *own = &n->own.cls[c];
	unsigned long until;

	mmt_admit_undo(s, own);
	mmt_hold_promotion(n, s, own, false);
	mmt_admit(n, s, 0, own, true);
	if (g && mmt_class_waits(g->current_value, g->target_value,
				 s->stat.sz_applied, n->own.cls_applied[c])) {
		until = jiffies + MMT_CLASS_WAIT_JIFFIES;
		n->own.cls_wait = until;
		WRITE_ONCE(mmt_class_wait[n->target * MMT_MAX_CLASSES + c],
			   until);
	}
	n->own.cls_applied[c] = s->stat.sz_applied;
	mmt_class_seen(s, &n->seen.cls[c][0]);
}

/*
 * Class @c's room scheme on upper node @n, stat lock held: on (its switch
 * goal unmet) while the class waits for room here; its free goal
 * MMT_CLASS_ROOM_BP above the node's floor, where promotion is admitted.
 */
static void mmt_class_room(struct mmt_node *n, struct damos *s, int c,
			   unsigned long floor_bp)
{
	unsigned long until = READ_ONCE(mmt_class_wait[n->nid *
						       MMT_MAX_CLASSES + c]);
	struct damos_quota_goal *sw = mmt_nth_goal(s, 0);
	struct damos_quota_goal *free = mmt_nth_goal(s, 2);

	if (sw)
		sw->current_value = until && time_before(jiffies, until) ?
				    0 : MMT_BP_MAX;
	if (free && floor_bp)
		free->target_value = max(free->target_value,
					 floor_bp + MMT_CLASS_ROOM_BP);
	mmt_class_seen(s, &n->seen.cls[c][1]);
}

/*
 * The classes' schemes of @n, the last of its context (mmt_ctx.h), stat
 * lock held.
 */
static void mmt_class_report(struct mmt_node *n)
{
	bool lower = n->tier == MMT_TIER_LOWER;
	unsigned long floor_bp = 0;
	int nr = 0, idx = 0, c = 0;
	struct mmt_pages pages;
	struct damos *s;

	if (!n->nr_classes || n->bw)
		return;
	damon_for_each_scheme(s, n->ctx)
		nr++;
	if (!lower) {
		mmt_node_pages(n->nid, &pages);
		if (mmt_bp_of(mmt_node_floor(&pages), pages.managed, &floor_bp))
			floor_bp = 0;
	}
	damon_for_each_scheme(s, n->ctx) {
		switch (mmt_class_role(idx++, nr, n->nr_classes, lower, &c)) {
		case MMT_ROLE_PROMOTE:
			mmt_class_promote(n, s, c);
			break;
		case MMT_ROLE_DEMOTE:
			mmt_class_seen(s, &n->seen.cls[c][0]);
			break;
		case MMT_ROLE_ROOM:
			mmt_class_room(n, s, c, floor_bp);
			break;
		default:
			break;
		}
	}
}

/*
 * Runs in each kdamond after every sample: apply a commit handed over, then
 * publish the schemes' state (n->seen, by scheme), the heat histogram and
 * the bytes the first scheme's pattern matches; apply the controller's
 * knobs, and hold promotion while memory goes offline.  Without @change
 * (6.12, between preparing and checking accesses: mmt_compat.h) no commit
 * and no change of the intervals: those wait for the end of the
 * aggregation, where this runs again with @change.
 */
int mmt_report_fn(void *data, bool change)
{
	struct mmt_node *n = data;
	struct damos *first = NULL, *s;
	unsigned long min_us = 0, max_us = 0;
	struct mmt_regions regions;
	u64 t0 = ktime_get_ns();
	bool knobs;
	int idx = 0, err;

	/* a failed commit: publish nothing of a half-committed context */
	err = change ? mmt_take_commit(n) : 0;
	if (err)
		return err;
	damon_for_each_scheme(s, n->ctx) {
		first = s;
		break;
	}
	if (!first)
		return 0;
	mmt_walk_regions(n, first, &regions);
	spin_lock(&mmt_stat_lock);
	n->seen.eligible = regions.eligible;
	memcpy(n->seen.heat, regions.heat, sizeof(n->seen.heat));
	n->seen.idle = regions.idle;
	n->seen.sample_us = n->ctx->attrs.sample_interval;
	n->seen.aggr_us = n->ctx->attrs.aggr_interval;
	n->seen.nr_regions = regions.nr;
	knobs = n->knob.set;
	min_us = n->knob.min_sample_us;
	max_us = n->knob.max_sample_us;
	n->seen.esz = first->quota.esz;
	n->seen.prime = mmt_prime_state(n, first);
	damon_for_each_scheme(s, n->ctx) {
		mmt_scheme_report(n, s, idx, &regions, knobs);
		/* capacity mode: the priming walk follows (mmt_ctx.c) */
		if (++idx == (n->bw ? MMT_NR_SCHEMES : 1))
			break;
	}
	mmt_class_report(n);
	spin_unlock(&mmt_stat_lock);
	if (MMT_TUNE_INTERVALS && change)
		mmt_tune_intervals(n, knobs ? min_us : MMT_MIN_SAMPLE_US,
				   knobs ? max_us : MMT_MAX_SAMPLE_US);
	if (knobs && change)
		mmt_apply_sampling(n, min_us, max_us);
	WRITE_ONCE(n->own.hook_ns, n->own.hook_ns + ktime_get_ns() - t0);
	return 0;
}


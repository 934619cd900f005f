/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering compatibility: every kernel difference lives in the DAMON
 * access layer, here (fields, types and constants) and in mmt_damon.h (calls,
 * which this file does not make).
 *
 * Features are probed, not versions: the top Makefile compiles one small
 * file per API (conftest/NAME.c) against the kernel tree the module is built
 * for and writes MMT_HAVE_NAME for each that compiled into mmt_config.h.
 * Adding a difference: a probe file there, its #ifdef here or in
 * mmt_damon.h, nowhere else.
 */
#ifndef _MMT_COMPAT_H
#define _MMT_COMPAT_H

#if __has_include("mmt_config.h")
#include "mmt_config.h"
#else
#error "mmt_config.h is missing: build with the top Makefile (make KDIR=...), which runs the compile probes"
#endif

#include <linux/cgroup.h>
#include <linux/damon.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>

/*
 * damos_quota->goal_tuner and DAMOS_QUOTA_GOAL_TUNER_TEMPORAL arrived in
 * Linux 7.1: full budget while a goal is unmet, none once it is met.
 */
#ifdef MMT_HAVE_GOAL_TUNER
#define MMT_EMULATE_TEMPORAL	false
static inline void mmt_quota_set_temporal(struct damos_quota *q)
{
	q->goal_tuner = DAMOS_QUOTA_GOAL_TUNER_TEMPORAL;
}
#else
/*
 * Without it, the module gives the CONSIST tuner its state before every
 * adjustment so that it acts as TEMPORAL does (mmt_quota_temporal()).
 */
#define MMT_EMULATE_TEMPORAL	true
static inline void mmt_quota_set_temporal(struct damos_quota *q)
{
}
#endif

/*
 * Since Linux 6.15 memory that no DAMOS filter matched is allowed or rejected
 * as the opposite of the last filter's allow (struct damos
 * {core,ops}_filters_default_reject).  Only damon_commit_ctx() computes
 * those two fields; damon_new_scheme() allocates the scheme without zeroing
 * them, so a context built and started directly (as this module and
 * samples/damon/mtier.c do) runs with whatever the allocator left there.
 * The module uses reject filters only, for which the default is "allow":
 * set it.
 */
#ifdef MMT_HAVE_FILTERS_DEFAULT
static inline void mmt_filters_default_allow(struct damos *s)
{
	s->core_filters_default_reject = false;
	s->ops_filters_default_reject = false;
}
#else
static inline void mmt_filters_default_allow(struct damos *s)
{
}
#endif

/*
 * DAMOS of Debian's 7.2 and 7.3 kernels (not 6.12's) charges the bytes a
 * scheme tried but did not apply (its filters rejected them, the migration
 * failed) to its quota at a fraction (struct damos_quota fail_charge_num /
 * fail_charge_denom).
 * Capacity mode's schemes apply only to young (promotion) or not-young
 * (demotion) pages: charged whole, the filtered pages use up the budget,
 * the scheme walks a region again only seconds later, and a page's "young"
 * then means "accessed at any time in those seconds" -- on a Zipf workload
 * nearly every page.  Charged at 1/@denom, the walk covers @denom times as
 * many bytes as it migrates.  Older kernels charge them whole.
 */
#ifdef MMT_HAVE_FAIL_CHARGE
static inline void mmt_quota_fail_charge(struct damos_quota *q,
					 unsigned int denom)
{
	q->fail_charge_num = 1;
	q->fail_charge_denom = denom;
}
#else
static inline void mmt_quota_fail_charge(struct damos_quota *q,
					 unsigned int denom)
{
}
#endif

/*
 * A scheme that stops after one walk over its regions (damos
 * max_nr_snapshots, 7.2 and 7.3).  6.12 has none: mmt_prime_scheme() then
 * adds no priming walk (there the first quota window of a scheme has no size
 * limit, and the first walk covers the node anyway).
 */
#ifdef MMT_HAVE_MAX_NR_SNAPSHOTS
#define MMT_PRIME	true
static inline void mmt_scheme_once(struct damos *s)
{
	s->max_nr_snapshots = 1;
}

static inline bool mmt_scheme_done(const struct damos *s)
{
	return s->max_nr_snapshots &&
	       s->stat.nr_snapshots >= s->max_nr_snapshots;
}
#else
#define MMT_PRIME	false
static inline void mmt_scheme_once(struct damos *s)
{
}

static inline bool mmt_scheme_done(const struct damos *s)
{
	return false;
}
#endif

/*
 * The sampling interval auto-tuning (damon_attrs.intervals_goal) is absent
 * from 6.12: there the module's kdamond work tunes the interval the same
 * way (MMT_TUNE_INTERVALS: mmt_tune_intervals() in mmt_kdamond.c).
 */
#ifdef MMT_HAVE_INTERVALS_GOAL
#define MMT_TUNE_INTERVALS	false
static inline void mmt_attrs_intervals_goal(struct damon_attrs *a,
					    unsigned int access_bp,
					    unsigned int aggrs,
					    unsigned long min_us,
					    unsigned long max_us)
{
	a->intervals_goal.access_bp = access_bp;
	a->intervals_goal.aggrs = aggrs;
	a->intervals_goal.min_sample_us = min_us;
	a->intervals_goal.max_sample_us = max_us;
}

static inline void mmt_attrs_sampling_range(struct damon_attrs *a,
					    unsigned long min_us,
					    unsigned long max_us)
{
	a->intervals_goal.min_sample_us = min_us;
	a->intervals_goal.max_sample_us = max_us;
}

/* a commit keeps the tuned intervals; count the samples anew */
static inline void mmt_attrs_restart_samples(struct damon_attrs *a)
{
	a->aggr_samples = 0;
}
#else
#define MMT_TUNE_INTERVALS	true
/* the module's tuning runs at the end of each aggregation, from 6.12's hook */
#ifdef MMT_HAVE_DAMON_CALL
#error "DAMON has damon_call() but no intervals_goal: no such kernel was known"
#endif
static inline void mmt_attrs_intervals_goal(struct damon_attrs *a,
					    unsigned int access_bp,
					    unsigned int aggrs,
					    unsigned long min_us,
					    unsigned long max_us)
{
}

static inline void mmt_attrs_sampling_range(struct damon_attrs *a,
					    unsigned long min_us,
					    unsigned long max_us)
{
}

static inline void mmt_attrs_restart_samples(struct damon_attrs *a)
{
}
#endif

/*
 * Quota goals about a node.  Where DAMON measures a node's used or free
 * memory (DAMOS_QUOTA_NODE_MEM_{USED,FREE}_BP) or a node's share of the
 * eligible memory (DAMOS_QUOTA_NODE_ELIGIBLE_MEM_BP) itself, the goal names
 * the node; where it does not (6.12), the goal is a USER_INPUT goal whose
 * current value the module's kdamond work sets before every quota
 * adjustment (MMT_FEED_NODE_MEM, MMT_FEED_ELIGIBLE: mmt_kdamond.c).
 */
enum mmt_goal_metric {
	MMT_GOAL_USED_BP,
	MMT_GOAL_FREE_BP,
	MMT_GOAL_ELIGIBLE_BP,
	/* a USER_INPUT goal the module meets to stop a scheme, on every kernel */
	MMT_GOAL_SWITCH,
};

#ifdef MMT_HAVE_NODE_MEM_GOALS
#define MMT_FEED_NODE_MEM	false
#else
#define MMT_FEED_NODE_MEM	true
#endif
#ifdef MMT_HAVE_NODE_ELIGIBLE_GOAL
#define MMT_FEED_ELIGIBLE	false
#else
#define MMT_FEED_ELIGIBLE	true
#endif

static inline enum damos_quota_goal_metric
mmt_goal_damos_metric(enum mmt_goal_metric m)
{
	switch (m) {
#ifdef MMT_HAVE_NODE_MEM_GOALS
	case MMT_GOAL_USED_BP:
		return DAMOS_QUOTA_NODE_MEM_USED_BP;
	case MMT_GOAL_FREE_BP:
		return DAMOS_QUOTA_NODE_MEM_FREE_BP;
#endif
#ifdef MMT_HAVE_NODE_ELIGIBLE_GOAL
	case MMT_GOAL_ELIGIBLE_BP:
		return DAMOS_QUOTA_NODE_ELIGIBLE_MEM_BP;
#endif
	default:
		return DAMOS_QUOTA_USER_INPUT;
	}
}

#ifdef MMT_HAVE_NODE_MEM_GOALS
static inline void mmt_goal_set_nid(struct damos_quota_goal *g, int nid)
{
	g->nid = nid;
}
#else
static inline void mmt_goal_set_nid(struct damos_quota_goal *g, int nid)
{
}
#endif

/*
 * Per-cgroup classes (mmt_class.h) need DAMON's quota goals on a cgroup's
 * memory of a node (DAMOS_QUOTA_NODE_MEMCG_{USED,FREE}_BP, Linux 6.19) and
 * memcg filters naming a cgroup by its id (cgroup_id(), as mem_cgroup_id()
 * gives it there), and memory cgroups.  Without them (6.12, or a kernel
 * without CONFIG_MEMCG) the classes parameter is refused with what is
 * missing (MMT_CLASSES_MISSING): the module keeps no per-memcg accounting
 * of its own.
 */
#if defined(MMT_HAVE_NODE_MEMCG_GOALS) && IS_ENABLED(CONFIG_MEMCG)
#define MMT_CLASSES		true
#define MMT_CLASSES_MISSING	""
/*
 * The id DAMON knows cgroup @path by (as under /sys/fs/cgroup).  Return: 0,
 * -ENOENT (no such cgroup) or -EMEDIUMTYPE (its memory is charged to an
 * ancestor: the memory controller is not enabled for it).
 */
static inline int mmt_cgroup_id(const char *path, u64 *id)
{
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;
	int err = 0;

	*id = 0;
	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp))
		return -ENOENT;
	css = cgroup_get_e_css(cgrp, &memory_cgrp_subsys);
	if (!css || css->cgroup != cgrp)
		err = -EMEDIUMTYPE;
	if (css)
		css_put(css);
	if (!err)
		*id = cgroup_id(cgrp);
	cgroup_put(cgrp);
	return err;
}

static inline void mmt_goal_set_memcg(struct damos_quota_goal *g, bool used,
				      int nid, u64 id)
{
	g->metric = used ? DAMOS_QUOTA_NODE_MEMCG_USED_BP :
			   DAMOS_QUOTA_NODE_MEMCG_FREE_BP;
	g->nid = nid;
	g->memcg_id = id;
}

static inline void mmt_filter_set_memcg(struct damos_filter *f, u64 id)
{
	f->memcg_id = id;
}
#else
#define MMT_CLASSES		false
#ifdef MMT_HAVE_NODE_MEMCG_GOALS
#define MMT_CLASSES_MISSING	"this kernel has no memory cgroups (CONFIG_MEMCG)"
#else
#define MMT_CLASSES_MISSING	"this kernel's DAMON has no node_memcg_used_bp quota goals (Linux 6.19)"
#endif
static inline int mmt_cgroup_id(const char *path, u64 *id)
{
	*id = 0;
	return -EOPNOTSUPP;
}

static inline void mmt_goal_set_memcg(struct damos_quota_goal *g, bool used,
				      int nid, u64 id)
{
}

static inline void mmt_filter_set_memcg(struct damos_filter *f, u64 id)
{
}
#endif

/*
 * Bytes that passed the ops filters but were not applied (migration
 * failed); 6.12 does not count the bytes that passed: -EOPNOTSUPP.
 */
#ifdef MMT_HAVE_STAT_FILTER_PASSED
static inline long mmt_stat_failed(const struct damos_stat *st)
{
	if (st->sz_ops_filter_passed < st->sz_applied)
		return 0;
	return st->sz_ops_filter_passed - st->sz_applied;
}
#else
static inline long mmt_stat_failed(const struct damos_stat *st)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * Bytes of the regions a scheme tried that passed its ops filters (for
 * promotion: its young pages).  6.12 does not count them: every byte tried
 * counts as passed, and the controller raises the demotion goal by all the
 * bytes waiting, as before it measured the share (mmt_young_share()).
 */
#ifdef MMT_HAVE_STAT_FILTER_PASSED
static inline u64 mmt_stat_passed(const struct damos_stat *st)
{
	return st->sz_ops_filter_passed;
}
#else
static inline u64 mmt_stat_passed(const struct damos_stat *st)
{
	return st->sz_tried;
}
#endif

/*
 * The quota goals of scheme @s.  6.12's damos_for_each_quota_goal() does
 * not parenthesize its argument (&s->quota does not compile there).
 */
#define mmt_for_each_goal(g, s) \
	list_for_each_entry(g, &(s)->quota.goals, list)

/*
 * Make the CONSIST tuner act as TEMPORAL, before DAMON's next quota
 * adjustment: from a feedback state of "unbounded" it stays there while a
 * goal is unmet (the effective quota is then the scheme's size quota), from
 * its minimum (one byte: nothing is applied) it stays there once one is met.
 */
static inline void mmt_quota_temporal(struct damos *s)
{
	struct damos_quota_goal *g;
	bool met = false;

	mmt_for_each_goal(g, s)
		met |= g->current_value >= g->target_value;
	s->quota.esz_bp = met ? 10000 : ULONG_MAX;
}

/* kzalloc_obj() arrived in Linux 7.0; GFP_KERNEL is its default. */
#ifndef MMT_HAVE_KZALLOC_OBJ
#define kzalloc_obj(p) kzalloc(sizeof(p), GFP_KERNEL)
#endif

/*
 * The unbound system workqueue was renamed system_dfl_wq (2025);
 * queueing on system_unbound_wq where both exist logs a deprecation.
 */
#ifndef MMT_HAVE_SYSTEM_DFL_WQ
#define system_dfl_wq system_unbound_wq
#endif

#endif /* _MMT_COMPAT_H */

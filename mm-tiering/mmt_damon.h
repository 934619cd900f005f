/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering DAMON access layer.
 *
 * mm/damon exports no symbols to modules.  mmt_damon_resolve() finds each
 * function below at load time and points a static call at it; the rest of
 * the module calls DAMON only through mmt_call(name)(args...), which the
 * kernel patches into a direct call.  See Documentation/design.rst.
 */
#ifndef _MMT_DAMON_H
#define _MMT_DAMON_H

#include <linux/damon.h>
#include <linux/static_call.h>

#include "mmt_compat.h"

/* The static call of every function of mmt_damon_funcs.h */
#define MMT_FN(fn) DECLARE_STATIC_CALL(mmt_##fn, fn)
#include "mmt_damon_funcs.h"
#undef MMT_FN

#define mmt_call(fn) static_call(mmt_##fn)

/*
 * Filters: the module uses reject filters only.  6.12's damos_new_filter()
 * has no @allow (every filter rejects what it matches).
 */
#ifdef MMT_HAVE_FILTER_ALLOW
#define mmt_new_reject_filter(type, matching) \
	mmt_call(damos_new_filter)(type, matching, false)
#else
#define mmt_new_reject_filter(type, matching) \
	mmt_call(damos_new_filter)(type, matching)
#endif

/* damon_set_regions() gained the context's minimum region size. */
#ifdef MMT_HAVE_MIN_REGION_SZ
#define mmt_set_regions(t, ranges, nr) \
	mmt_call(damon_set_regions)(t, ranges, nr, DAMON_MIN_REGION_SZ)
#else
#define mmt_set_regions(t, ranges, nr) \
	mmt_call(damon_set_regions)(t, ranges, nr)
#endif

/*
 * 6.12 has no damon_initialized(): DAMON is built in (CONFIG_DAMON is not
 * a module option) and set up by an initcall before any module loads.
 */
#ifdef MMT_HAVE_DAMON_INITIALIZED
#define mmt_damon_initialized() mmt_call(damon_initialized)()
#else
#define mmt_damon_initialized() true
#endif

/*
 * Whether @ctx's kdamond runs, and its pid (or -EINVAL): DAMON's functions
 * where the kernel has them; early 6.12.y kernels do not, and there the
 * module reads ctx->kdamond under ctx->kdamond_lock, as those functions do.
 */
#ifdef MMT_HAVE_DAMON_IS_RUNNING
#define mmt_damon_is_running(ctx) mmt_call(damon_is_running)(ctx)
#else
bool mmt_damon_is_running(struct damon_ctx *ctx);
#endif
#ifdef MMT_HAVE_DAMON_KDAMOND_PID
#define mmt_damon_kdamond_pid(ctx) mmt_call(damon_kdamond_pid)(ctx)
#else
int mmt_damon_kdamond_pid(struct damon_ctx *ctx);
#endif

/*
 * Region @r's accesses over the last aggregation interval, as DAMOS counts
 * them when it matches an access pattern: a moving sum, updated every
 * sample (so a new hot set shows within a few samples, not at the end of
 * an aggregation).  DAMON's function where the kernel has it; 6.12 keeps
 * the same sum in the region, in basis points.  Kdamond only.
 */
static inline unsigned int mmt_region_accesses(struct damon_ctx *ctx,
						struct damon_region *r)
{
#if defined(MMT_HAVE_DAMON_NR_ACCESSES_MVSUM)
	return mmt_call(damon_nr_accesses_mvsum)(r, ctx);
#elif defined(MMT_HAVE_REGION_NR_ACCESSES_BP)
	return r->nr_accesses_bp / 10000;
#else
#error "this kernel's DAMON has neither damon_nr_accesses_mvsum() nor nr_accesses_bp"
#endif
}

int mmt_damon_resolve(void);
int mmt_numa_balancing_mode(void);

#endif /* _MMT_DAMON_H */

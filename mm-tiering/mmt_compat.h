/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering compatibility: every kernel difference lives here.
 *
 * Features are probed, not versions: the top Makefile compiles one small
 * file per API (conftest/NAME.c) against the kernel tree the module is built
 * for and writes MMT_HAVE_NAME for each that compiled into mmt_config.h.
 * Adding a difference: a probe file there, its #ifdef here, nowhere else.
 */
#ifndef _MMT_COMPAT_H
#define _MMT_COMPAT_H

#if __has_include("mmt_config.h")
#include "mmt_config.h"
#else
#error "mmt_config.h is missing: build with the top Makefile (make KDIR=...), which runs the compile probes"
#endif

#include <linux/damon.h>
#include <linux/slab.h>

/*
 * damos_quota->goal_tuner and DAMOS_QUOTA_GOAL_TUNER_TEMPORAL arrived in
 * Linux 7.1.  Without them the quota goal is always tuned by the slow
 * CONSIST feedback loop, and the start is slow.
 */
#ifdef MMT_HAVE_GOAL_TUNER
static inline void mmt_quota_set_temporal(struct damos_quota *q)
{
	q->goal_tuner = DAMOS_QUOTA_GOAL_TUNER_TEMPORAL;
}
#else
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

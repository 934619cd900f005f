/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering compatibility: every kernel difference lives here.
 *
 * Features are probed, not versions: Kbuild greps the headers the module is
 * built against and defines MMT_HAVE_* (see the Kbuild file).
 */
#ifndef _MMT_COMPAT_H
#define _MMT_COMPAT_H

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

/* kzalloc_obj() arrived in Linux 7.0; GFP_KERNEL is its default. */
#ifndef MMT_HAVE_KZALLOC_OBJ
#define kzalloc_obj(p) kzalloc(sizeof(p), GFP_KERNEL)
#endif

#endif /* _MMT_COMPAT_H */

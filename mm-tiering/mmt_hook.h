/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the module's call in each kdamond (mmt_hook.c).
 */
#ifndef _MMT_HOOK_H
#define _MMT_HOOK_H

#include <linux/damon.h>
#include <linux/types.h>

#include "mmt_compat.h"

/*
 * The module's work in each kdamond (mmt_report_fn()) runs after every
 * sample: a repeated damon_call() where the kernel has it, the context's
 * after_sampling callback on 6.12.  Its @change argument says whether it
 * may change the context (commit, attributes): always from damon_call();
 * on 6.12 only from after_aggregation, where it also runs, as 6.12's own
 * modules do: after_sampling falls between DAMON's preparation and check
 * of accesses (a committed region would have no sampling address), and
 * 6.12's damon_set_attrs() rescales the counts as if an aggregation had
 * just ended.  Set up with mmt_hook_prepare() before damon_start(), armed
 * with mmt_hook_start() after it.  A non-zero return of the work stops the
 * kdamond on 6.12; damon_call() ignores it (there a failed commit marks
 * the context maybe_corrupted, which stops it).
 */
#ifdef MMT_HAVE_DAMON_CALL
#define MMT_HOOK_NAME	"damon_call"
#else
#define MMT_HOOK_NAME	"after_sampling+after_aggregation"
#endif
struct mmt_hook {
#ifdef MMT_HAVE_DAMON_CALL
	struct damon_call_control call;
#endif
	int (*fn)(void *data, bool change);
	void *data;
};
void mmt_hook_prepare(struct damon_ctx *ctx, struct mmt_hook *h,
		      int (*fn)(void *data, bool change), void *data);
void mmt_hook_start(struct damon_ctx *ctx, struct mmt_hook *h);

#endif /* _MMT_HOOK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering DAMON access layer.
 *
 * mm/damon exports no symbols to modules.  mmt_damon_resolve() finds each
 * function below at load time and points a static call at it; the rest of
 * the module calls DAMON only through mmt_call(name)(args...), which the
 * kernel patches into a direct call.  See Documentation/damon-symbols.rst.
 */
#ifndef _MMT_DAMON_H
#define _MMT_DAMON_H

#include <linux/damon.h>
#include <linux/static_call.h>

/* Every DAMON function the module calls.  Missing any: the load fails. */
DECLARE_STATIC_CALL(mmt_damon_initialized, damon_initialized);
DECLARE_STATIC_CALL(mmt_damon_new_ctx, damon_new_ctx);
DECLARE_STATIC_CALL(mmt_damon_destroy_ctx, damon_destroy_ctx);
DECLARE_STATIC_CALL(mmt_damon_select_ops, damon_select_ops);
DECLARE_STATIC_CALL(mmt_damon_set_attrs, damon_set_attrs);
DECLARE_STATIC_CALL(mmt_damon_new_target, damon_new_target);
DECLARE_STATIC_CALL(mmt_damon_add_target, damon_add_target);
DECLARE_STATIC_CALL(mmt_damon_set_regions, damon_set_regions);
DECLARE_STATIC_CALL(mmt_damon_new_scheme, damon_new_scheme);
DECLARE_STATIC_CALL(mmt_damon_set_schemes, damon_set_schemes);
DECLARE_STATIC_CALL(mmt_damos_new_quota_goal, damos_new_quota_goal);
DECLARE_STATIC_CALL(mmt_damos_add_quota_goal, damos_add_quota_goal);
DECLARE_STATIC_CALL(mmt_damos_new_filter, damos_new_filter);
DECLARE_STATIC_CALL(mmt_damos_add_filter, damos_add_filter);
DECLARE_STATIC_CALL(mmt_damon_commit_ctx, damon_commit_ctx);
DECLARE_STATIC_CALL(mmt_damon_start, damon_start);
DECLARE_STATIC_CALL(mmt_damon_stop, damon_stop);
DECLARE_STATIC_CALL(mmt_damon_is_running, damon_is_running);
DECLARE_STATIC_CALL(mmt_damon_kdamond_pid, damon_kdamond_pid);
DECLARE_STATIC_CALL(mmt_damon_call, damon_call);

#define mmt_call(fn) static_call(mmt_##fn)

int mmt_damon_resolve(void);
int mmt_numa_balancing_mode(void);

#endif /* _MMT_DAMON_H */

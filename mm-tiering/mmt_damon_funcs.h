/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: every DAMON function the module calls, written once.
 *
 * Included with MMT_FN(fn) defined, once each for the static call
 * declarations (mmt_damon.h), their definitions and the load-time lookup
 * (mmt_damon.c).  Missing any at load: the load fails, each one named.
 * Those the kernel may not have are listed only where the compile probes
 * found them (mmt_config.h: mmt_damon.h includes mmt_compat.h first).
 */
#ifdef MMT_HAVE_DAMON_INITIALIZED
MMT_FN(damon_initialized);
#endif
MMT_FN(damon_new_ctx);
MMT_FN(damon_destroy_ctx);
MMT_FN(damon_select_ops);
MMT_FN(damon_set_attrs);
MMT_FN(damon_new_target);
MMT_FN(damon_add_target);
MMT_FN(damon_set_regions);
MMT_FN(damon_new_scheme);
MMT_FN(damon_set_schemes);
MMT_FN(damos_new_quota_goal);
MMT_FN(damos_add_quota_goal);
MMT_FN(damos_new_filter);
MMT_FN(damos_add_filter);
MMT_FN(damon_commit_ctx);
MMT_FN(damon_start);
MMT_FN(damon_stop);
#ifdef MMT_HAVE_DAMON_IS_RUNNING
MMT_FN(damon_is_running);
#endif
#ifdef MMT_HAVE_DAMON_KDAMOND_PID
MMT_FN(damon_kdamond_pid);
#endif
#ifdef MMT_HAVE_DAMON_CALL
MMT_FN(damon_call);
#endif
#ifdef MMT_HAVE_DAMON_NR_ACCESSES_MVSUM
MMT_FN(damon_nr_accesses_mvsum);
#endif

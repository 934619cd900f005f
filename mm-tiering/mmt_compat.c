// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering compatibility: the kernel differences that need code rather
 * than a definition (see mmt_compat.h and mmt_damon.h, which declare
 * these).
 */
#include <linux/damon.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "mmt_compat.h"
#include "mmt_damon.h"

#ifdef MMT_HAVE_DAMON_CALL
/* The repeated damon_call(), in the kdamond: any change is safe there. */
static int mmt_hook_call(void *data)
{
	struct mmt_hook *h = data;

	return h->fn(h->data, true);
}

void mmt_hook_prepare(struct damon_ctx *ctx, struct mmt_hook *h,
		      int (*fn)(void *data, bool change), void *data)
{
	memset(h, 0, sizeof(*h));
	h->fn = fn;
	h->data = data;
	h->call.fn = mmt_hook_call;
	h->call.data = h;
	h->call.repeat = true;
}

void mmt_hook_start(struct damon_ctx *ctx, struct mmt_hook *h)
{
	mmt_call(damon_call)(ctx, &h->call);
}
#else
/* Between preparing and checking accesses: the context stays as it is. */
static int mmt_hook_after_sampling(struct damon_ctx *ctx)
{
	struct mmt_hook *h = ctx->callback.private;

	return h->fn(h->data, false);
}

/* An aggregation ended: the context may change (commit, attributes). */
static int mmt_hook_after_aggregation(struct damon_ctx *ctx)
{
	struct mmt_hook *h = ctx->callback.private;

	return h->fn(h->data, true);
}

void mmt_hook_prepare(struct damon_ctx *ctx, struct mmt_hook *h,
		      int (*fn)(void *data, bool change), void *data)
{
	h->fn = fn;
	h->data = data;
	ctx->callback.private = h;
	ctx->callback.after_sampling = mmt_hook_after_sampling;
	ctx->callback.after_aggregation = mmt_hook_after_aggregation;
}

void mmt_hook_start(struct damon_ctx *ctx, struct mmt_hook *h)
{
}
#endif

#ifndef MMT_HAVE_DAMON_IS_RUNNING
bool mmt_damon_is_running(struct damon_ctx *ctx)
{
	bool running;

	mutex_lock(&ctx->kdamond_lock);
	running = ctx->kdamond != NULL;
	mutex_unlock(&ctx->kdamond_lock);
	return running;
}
#endif

#ifndef MMT_HAVE_DAMON_KDAMOND_PID
int mmt_damon_kdamond_pid(struct damon_ctx *ctx)
{
	int pid = -EINVAL;

	mutex_lock(&ctx->kdamond_lock);
	if (ctx->kdamond)
		pid = ctx->kdamond->pid;
	mutex_unlock(&ctx->kdamond_lock);
	return pid;
}
#endif

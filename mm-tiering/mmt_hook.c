// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the module's call in each kdamond, the one place where
 * 6.12's context callbacks and later kernels' damon_call() differ in code
 * (mmt_hook.h says when each runs).
 */
#include <linux/damon.h>
#include <linux/string.h>

#include "mmt_compat.h"
#include "mmt_damon.h"
#include "mmt_hook.h"

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

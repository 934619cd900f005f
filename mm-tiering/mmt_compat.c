// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering compatibility: the kernel differences that need code rather
 * than a definition (see mmt_compat.h, which declares these).
 */
#include <linux/damon.h>

#include "mmt_compat.h"
#include "mmt_damon.h"

#ifdef MMT_HAVE_DAMON_CALL
void mmt_hook_prepare(struct damon_ctx *ctx, struct mmt_hook *h,
		      int (*fn)(void *data), void *data)
{
	memset(h, 0, sizeof(*h));
	h->call.fn = fn;
	h->call.data = data;
	h->call.repeat = true;
}

void mmt_hook_start(struct damon_ctx *ctx, struct mmt_hook *h)
{
	mmt_call(damon_call)(ctx, &h->call);
}
#else
/* The context's after_sampling callback, in its kdamond. */
static int mmt_hook_after_sampling(struct damon_ctx *ctx)
{
	struct mmt_hook *h = ctx->callback.private;

	return h->fn(h->data);
}

void mmt_hook_prepare(struct damon_ctx *ctx, struct mmt_hook *h,
		      int (*fn)(void *data), void *data)
{
	h->fn = fn;
	h->data = data;
	ctx->callback.private = h;
	ctx->callback.after_sampling = mmt_hook_after_sampling;
}

void mmt_hook_start(struct damon_ctx *ctx, struct mmt_hook *h)
{
}
#endif

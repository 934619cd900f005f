// SPDX-License-Identifier: GPL-2.0
/* damon_call() with repeated calls: the kdamond runs our work; 6.12 has only damon_callback */
#include <linux/damon.h>

int mmt_probe(struct damon_ctx *ctx, struct damon_call_control *c);
int mmt_probe(struct damon_ctx *ctx, struct damon_call_control *c)
{
	c->repeat = true;
	return damon_call(ctx, c);
}

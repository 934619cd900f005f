// SPDX-License-Identifier: GPL-2.0
/* damon_kdamond_pid() (not in every 6.12.y: mmt_damon.c has the fallback) */
#include <linux/damon.h>

int mmt_probe(struct damon_ctx *ctx);
int mmt_probe(struct damon_ctx *ctx)
{
	return damon_kdamond_pid(ctx);
}

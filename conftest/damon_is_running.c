// SPDX-License-Identifier: GPL-2.0
/* damon_is_running() (not in every 6.12.y: mmt_damon.c has the fallback) */
#include <linux/damon.h>

bool mmt_probe(struct damon_ctx *ctx);
bool mmt_probe(struct damon_ctx *ctx)
{
	return damon_is_running(ctx);
}

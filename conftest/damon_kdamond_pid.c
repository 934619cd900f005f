// SPDX-License-Identifier: GPL-2.0
/* damon_kdamond_pid() (6.12.y gained it from stable; not every 6.12.y has it) */
#include <linux/damon.h>

int mmt_probe(struct damon_ctx *ctx);
int mmt_probe(struct damon_ctx *ctx)
{
	return damon_kdamond_pid(ctx);
}

// SPDX-License-Identifier: GPL-2.0
/* damon_is_running() (6.12.y gained it from stable; not every 6.12.y has it) */
#include <linux/damon.h>

bool mmt_probe(struct damon_ctx *ctx);
bool mmt_probe(struct damon_ctx *ctx)
{
	return damon_is_running(ctx);
}

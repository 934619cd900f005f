// SPDX-License-Identifier: GPL-2.0
/* damon_nr_accesses_mvsum(): a region's moving sum of accesses (7.x) */
#include <linux/damon.h>

unsigned int mmt_probe(struct damon_region *r, struct damon_ctx *ctx);
unsigned int mmt_probe(struct damon_region *r, struct damon_ctx *ctx)
{
	return damon_nr_accesses_mvsum(r, ctx);
}

// SPDX-License-Identifier: GPL-2.0
/* struct damon_region's nr_accesses_bp, the moving sum in bp (6.12) */
#include <linux/damon.h>

unsigned int mmt_probe(struct damon_region *r);
unsigned int mmt_probe(struct damon_region *r)
{
	return r->nr_accesses_bp;
}

// SPDX-License-Identifier: GPL-2.0
/* damon_set_regions(..., min_region_sz), DAMON_MIN_REGION_SZ (not in 6.12) */
#include <linux/damon.h>

int mmt_probe(struct damon_target *t, struct damon_addr_range *r);
int mmt_probe(struct damon_target *t, struct damon_addr_range *r)
{
	return damon_set_regions(t, r, 1, DAMON_MIN_REGION_SZ);
}

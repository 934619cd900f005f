// SPDX-License-Identifier: GPL-2.0
/* damon_attrs.intervals_goal and aggr_samples: interval auto-tuning (not in 6.12) */
#include <linux/damon.h>

void mmt_probe(struct damon_attrs *a);
void mmt_probe(struct damon_attrs *a)
{
	a->intervals_goal.access_bp = 400;
	a->intervals_goal.min_sample_us = 5000;
	a->aggr_samples = 0;
}

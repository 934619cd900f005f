// SPDX-License-Identifier: GPL-2.0
/* the DAMOS_QUOTA_NODE_ELIGIBLE_MEM_BP quota goal (not in 6.12) */
#include <linux/damon.h>

void mmt_probe(struct damos_quota_goal *g);
void mmt_probe(struct damos_quota_goal *g)
{
	g->metric = DAMOS_QUOTA_NODE_ELIGIBLE_MEM_BP;
	g->nid = 0;
}

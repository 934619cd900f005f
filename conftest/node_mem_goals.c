// SPDX-License-Identifier: GPL-2.0
/* DAMOS_QUOTA_NODE_MEM_{USED,FREE}_BP quota goals with a node (not in 6.12) */
#include <linux/damon.h>

void mmt_probe(struct damos_quota_goal *g);
void mmt_probe(struct damos_quota_goal *g)
{
	g->metric = DAMOS_QUOTA_NODE_MEM_USED_BP;
	g->metric = DAMOS_QUOTA_NODE_MEM_FREE_BP;
	g->nid = 0;
}

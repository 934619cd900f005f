// SPDX-License-Identifier: GPL-2.0
/*
 * DAMOS_QUOTA_NODE_MEMCG_{USED,FREE}_BP quota goals and memcg filters by
 * cgroup id (u64), Linux 6.19; not in 6.12, whose filter has a 16-bit id
 */
#include <linux/damon.h>

void mmt_probe(struct damos_quota_goal *g, struct damos_filter *f);
void mmt_probe(struct damos_quota_goal *g, struct damos_filter *f)
{
	BUILD_BUG_ON(sizeof(g->memcg_id) != sizeof(u64));
	BUILD_BUG_ON(sizeof(f->memcg_id) != sizeof(u64));
	g->metric = DAMOS_QUOTA_NODE_MEMCG_USED_BP;
	g->metric = DAMOS_QUOTA_NODE_MEMCG_FREE_BP;
	f->type = DAMOS_FILTER_TYPE_MEMCG;
}

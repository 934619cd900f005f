// SPDX-License-Identifier: GPL-2.0
/* damos_quota->goal_tuner, DAMOS_QUOTA_GOAL_TUNER_TEMPORAL (Linux 7.1) */
#include <linux/damon.h>

void mmt_probe(struct damos_quota *q);
void mmt_probe(struct damos_quota *q)
{
	q->goal_tuner = DAMOS_QUOTA_GOAL_TUNER_TEMPORAL;
}

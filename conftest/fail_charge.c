// SPDX-License-Identifier: GPL-2.0
/* damos_quota.fail_charge_num/denom: filtered bytes charged at a fraction (7.2, 7.3) */
#include <linux/damon.h>

void mmt_probe(struct damos_quota *q);
void mmt_probe(struct damos_quota *q)
{
	q->fail_charge_num = 1;
	q->fail_charge_denom = 8;
}

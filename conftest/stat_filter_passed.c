// SPDX-License-Identifier: GPL-2.0
/* damos_stat.sz_ops_filter_passed (not in 6.12) */
#include <linux/damon.h>

unsigned long mmt_probe(struct damos_stat *st);
unsigned long mmt_probe(struct damos_stat *st)
{
	return st->sz_ops_filter_passed;
}

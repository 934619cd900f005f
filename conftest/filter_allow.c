// SPDX-License-Identifier: GPL-2.0
/* damos_new_filter(type, matching, allow): allow filters (not in 6.12) */
#include <linux/damon.h>

struct damos_filter *mmt_probe(void);
struct damos_filter *mmt_probe(void)
{
	return damos_new_filter(DAMOS_FILTER_TYPE_YOUNG, true, false);
}

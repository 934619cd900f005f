// SPDX-License-Identifier: GPL-2.0
/* damos->{core,ops}_filters_default_reject (Linux 6.15) */
#include <linux/damon.h>

void mmt_probe(struct damos *s);
void mmt_probe(struct damos *s)
{
	s->core_filters_default_reject = false;
	s->ops_filters_default_reject = false;
}

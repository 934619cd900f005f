// SPDX-License-Identifier: GPL-2.0
/* damos.max_nr_snapshots: a scheme that stops after N walks (7.2, 7.3) */
#include <linux/damon.h>

void mmt_probe(struct damos *s);
void mmt_probe(struct damos *s)
{
	s->max_nr_snapshots = 1;
}

// SPDX-License-Identifier: GPL-2.0
/* kzalloc_obj() (Linux 7.0) */
#include <linux/slab.h>

struct mmt_probe_obj {
	int x;
};

struct mmt_probe_obj *mmt_probe(void);
struct mmt_probe_obj *mmt_probe(void)
{
	struct mmt_probe_obj *p = kzalloc_obj(*p);

	return p;
}

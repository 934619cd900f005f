// SPDX-License-Identifier: GPL-2.0
/* damon_initialized() (not in 6.12) */
#include <linux/damon.h>

bool mmt_probe(void);
bool mmt_probe(void)
{
	return damon_initialized();
}

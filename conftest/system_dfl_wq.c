// SPDX-License-Identifier: GPL-2.0
/* system_dfl_wq (the 2025 workqueue renames; Debian backported it to 6.12) */
#include <linux/workqueue.h>

struct workqueue_struct *mmt_probe(void);
struct workqueue_struct *mmt_probe(void)
{
	return system_dfl_wq;
}

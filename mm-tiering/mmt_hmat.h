/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: bandwidth mode's default shares from HMAT (mmt_hmat.c).
 */
#ifndef _MMT_HMAT_H
#define _MMT_HMAT_H

#include <linux/nodemask.h>

struct mmt_cfg;

void mmt_hmat_refresh(void);
int mmt_upper_share(int upper, int lower, const nodemask_t *lowers,
		    const struct mmt_cfg *cfg, unsigned long *share_bp);

#endif /* _MMT_HMAT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the kdamond side (mmt_kdamond.c).
 */
#ifndef _MMT_KDAMOND_H
#define _MMT_KDAMOND_H

#include <linux/types.h>

int mmt_report_fn(void *data, bool change);

#endif /* _MMT_KDAMOND_H */

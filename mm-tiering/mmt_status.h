/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: outputs and status (mmt_status.c).
 */
#ifndef _MMT_STATUS_H
#define _MMT_STATUS_H

void mmt_status_debugfs_create(void);
void mmt_status_debugfs_remove(void);

#endif /* _MMT_STATUS_H */

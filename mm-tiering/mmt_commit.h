/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: committing inputs to the running contexts (mmt_commit.c);
 * mmt_lock held.
 */
#ifndef _MMT_COMMIT_H
#define _MMT_COMMIT_H

struct mmt_cfg;

int mmt_commit_cfg(const struct mmt_cfg *cfg);
int mmt_commit_topology(void);

#endif /* _MMT_COMMIT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the feedback controller (mmt_loop.c); all with mmt_lock held.
 */
#ifndef _MMT_LOOP_H
#define _MMT_LOOP_H

struct seq_buf;

int mmt_loop_start(void);
void mmt_loop_stop(void);
void mmt_loop_show(struct seq_buf *sb);

#endif /* _MMT_LOOP_H */

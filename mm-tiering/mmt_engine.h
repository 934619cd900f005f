/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: when tiering starts, stops and re-plans (mmt_engine.c).
 */
#ifndef _MMT_ENGINE_H
#define _MMT_ENGINE_H

int mmt_engine_begin(void);
void mmt_engine_end(void);
void mmt_topology_changed(void);

#endif /* _MMT_ENGINE_H */

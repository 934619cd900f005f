/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the input parameters (mmt_params.c).
 */
#ifndef _MMT_PARAMS_H
#define _MMT_PARAMS_H

#include "mmt_ctx.h"

void mmt_inputs(struct mmt_cfg *cfg);
int mmt_check_node_lists(const struct mmt_cfg *cfg, const char *who);
bool mmt_node_lists_equal(const struct mmt_cfg *a, const struct mmt_cfg *b);
int mmt_len(const char *val);

#endif /* _MMT_PARAMS_H */

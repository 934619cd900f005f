/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: the input parameters (mmt_params.c).
 */
#ifndef _MMT_PARAMS_H
#define _MMT_PARAMS_H

#include "mmt_ctx.h"

void mmt_inputs(struct mmt_cfg *cfg);
int mmt_len(const char *val);

#endif /* _MMT_PARAMS_H */

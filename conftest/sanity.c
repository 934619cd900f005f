// SPDX-License-Identifier: GPL-2.0
/*
 * Must compile on every kernel: if it does not, the probes cannot tell a
 * missing API from a broken build environment, and the build stops.
 */
#include <linux/damon.h>

int mmt_probe(struct damon_ctx *ctx);
int mmt_probe(struct damon_ctx *ctx)
{
	return ctx->attrs.sample_interval != 0;
}

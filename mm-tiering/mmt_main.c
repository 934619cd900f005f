// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: DAMON-based memory tiering for DRAM + CXL machines.
 *
 * The memory nodes are split into an upper tier (nodes with CPUs, or the
 * kernel's top memory tier) and a lower tier (CPU-less nodes, such as CXL
 * expanders), and one DAMON context per tiered node is started: upper
 * nodes demote cold pages to their nearest lower node, lower nodes promote
 * hot pages to their nearest upper node.  Module parameters are the control
 * surface; changed inputs reach the running contexts through
 * commit_inputs, all or nothing.
 *
 * This file is the module's life: load and unload.  The files below it,
 * each including and calling only the ones under it (scripts/layers.py
 * checks it; Documentation/design.rst draws the layers):
 * mmt_status.c (outputs), mmt_engine.c (enable, commit_inputs, memory
 * events), mmt_commit.c (all-or-nothing commits), mmt_loop.c (the
 * controller), mmt_kdamond.c (what runs in the kdamonds), mmt_nodes.c (the
 * node table and its locks), mmt_plan.c, mmt_ctx.c, mmt_hmat.c,
 * mmt_hotplug.c and mmt_kernel.c (what the kernel says), mmt_params.c (the
 * inputs), mmt_hook.c, mmt_damon.c and mmt_compat.h (DAMON access and every
 * kernel difference), mmt_ctl.c and mmt_logic.c (pure laws and arithmetic).
 *
 * Documentation/admin-guide.rst describes every parameter.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kernel.h>
#include <linux/module.h>

#include "mmt_damon.h"
#include "mmt_engine.h"
#include "mmt_hmat.h"
#include "mmt_hotplug.h"
#include "mmt_kernel.h"
#include "mmt_status.h"

static int __init mm_tiering_init(void)
{
	int err;

	err = mmt_kernel_check();
	if (!err)
		err = mmt_damon_resolve();
	if (!err && !mmt_damon_initialized()) {
		pr_err("DAMON is not initialized\n");
		err = -ENOMEM;
	}
	if (!err)
		mmt_hmat_refresh();
	if (!err)
		mmt_status_debugfs_create();
	if (!err)
		err = mmt_hotplug_register(mmt_topology_changed);
	if (!err)
		err = mmt_engine_begin();
	else
		mmt_engine_end();
	/* a reader of the file may hold mmt_lock: removed without it */
	if (err) {
		mmt_hotplug_unregister();
		mmt_status_debugfs_remove();
	}
	return err;
}

static void __exit mm_tiering_exit(void)
{
	mmt_hotplug_unregister();
	mmt_status_debugfs_remove();
	mmt_engine_end();
}

module_init(mm_tiering_init);
module_exit(mm_tiering_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("mm-tiering developers");
MODULE_DESCRIPTION("DAMON-based memory tiering for DRAM + CXL machines");
MODULE_VERSION(MMT_VERSION);

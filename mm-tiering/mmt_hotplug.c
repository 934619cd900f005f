// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: memory hotplug.
 *
 * A memory notifier queues one work per burst of MEM_ONLINE / MEM_OFFLINE
 * events (reported after the fact; a DIMM's blocks come one at a time),
 * which hands the change to mmt_topology_changed() (mmt_main.c).  The
 * notifier takes no lock and never fails: an offline operation, which
 * migrates the pages away itself, is never held up or refused.
 * May call: mmt_main.h.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/memory.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/workqueue.h>

#include "mmt_compat.h"
#include "mmt_hotplug.h"
#include "mmt_main.h"

/* the events of one operation arrive within this; act once after them */
#define MMT_HOTPLUG_SETTLE_MS	1000

static bool hotplug = true;
module_param(hotplug, bool, 0400);
MODULE_PARM_DESC(hotplug,
	"Follow memory hotplug (default Y; N: keep the memory seen at enable)");

static void mmt_hotplug_fn(struct work_struct *work)
{
	mmt_topology_changed();
}

static DECLARE_DELAYED_WORK(mmt_hotplug_work, mmt_hotplug_fn);

static int mmt_memory_cb(struct notifier_block *nb, unsigned long action,
			 void *arg)
{
	if (action == MEM_ONLINE || action == MEM_OFFLINE)
		mod_delayed_work(system_dfl_wq, &mmt_hotplug_work,
				 msecs_to_jiffies(MMT_HOTPLUG_SETTLE_MS));
	return NOTIFY_OK;
}

static struct notifier_block mmt_memory_nb = {
	.notifier_call = mmt_memory_cb,
};

int mmt_hotplug_register(void)
{
	if (!hotplug) {
		pr_info("hotplug=N: memory onlined or offlined later is not followed\n");
		return 0;
	}
	return register_memory_notifier(&mmt_memory_nb);
}

/* Without mmt_lock: the work takes it. */
void mmt_hotplug_unregister(void)
{
	if (!hotplug)
		return;
	unregister_memory_notifier(&mmt_memory_nb);
	cancel_delayed_work_sync(&mmt_hotplug_work);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: memory hotplug.
 *
 * A memory notifier queues one work per burst of MEM_ONLINE / MEM_OFFLINE
 * events (reported after the fact; a DIMM's blocks come one at a time),
 * which hands the change to the function given at registration (the
 * engine's mmt_topology_changed(), which takes mmt_lock).  The
 * notifier takes no lock and never fails: an offline operation, which
 * migrates the pages away itself, is never held up or refused.  While a
 * block goes offline (MEM_GOING_OFFLINE until MEM_OFFLINE or
 * MEM_CANCEL_OFFLINE, and MMT_HOTPLUG_SETTLE_MS after, which bridges the
 * gap to the next block of a DIMM), mmt_offline_hold() is true and the
 * kdamonds of the lower nodes hold promotion (mmt_kdamond.c): the offline
 * migrates the block's pages to the other nodes and needs their free
 * memory, which promotion would take; demotion goes on, making room in the
 * upper nodes (the isolated block takes no new page).
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/memory.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/workqueue.h>

#include "mmt_compat.h"
#include "mmt_hotplug.h"

/* the events of one operation arrive within this; act once after them */
#define MMT_HOTPLUG_SETTLE_MS	1000

static bool hotplug = true;
module_param(hotplug, bool, 0400);
MODULE_PARM_DESC(hotplug,
	"Follow memory hotplug (default Y; N: keep the memory seen at enable)");

/* blocks between MEM_GOING_OFFLINE and MEM_OFFLINE or its cancel */
static atomic_t mmt_offlining = ATOMIC_INIT(0);
/* jiffies until which the last offline's hold lasts */
static unsigned long mmt_offline_until;

/* Whether memory is going offline, or went offline within the settle time. */
bool mmt_offline_hold(void)
{
	return atomic_read(&mmt_offlining) ||
	       time_before(jiffies, READ_ONCE(mmt_offline_until));
}

/* what a change calls, once per burst of events */
static void (*mmt_changed)(void);

static void mmt_hotplug_fn(struct work_struct *work)
{
	mmt_changed();
}

static DECLARE_DELAYED_WORK(mmt_hotplug_work, mmt_hotplug_fn);

static int mmt_memory_cb(struct notifier_block *nb, unsigned long action,
			 void *arg)
{
	switch (action) {
	case MEM_GOING_OFFLINE:
		atomic_inc(&mmt_offlining);
		break;
	case MEM_OFFLINE:
	case MEM_CANCEL_OFFLINE:
		/* not below 0: loaded while a block was going offline */
		atomic_dec_if_positive(&mmt_offlining);
		WRITE_ONCE(mmt_offline_until, jiffies +
			   msecs_to_jiffies(MMT_HOTPLUG_SETTLE_MS));
		break;
	}
	if (action == MEM_ONLINE || action == MEM_OFFLINE)
		mod_delayed_work(system_dfl_wq, &mmt_hotplug_work,
				 msecs_to_jiffies(MMT_HOTPLUG_SETTLE_MS));
	return NOTIFY_OK;
}

static struct notifier_block mmt_memory_nb = {
	.notifier_call = mmt_memory_cb,
};

/* Follow memory hotplug: @changed is called after each burst of events. */
int mmt_hotplug_register(void (*changed)(void))
{
	mmt_changed = changed;
	WRITE_ONCE(mmt_offline_until, jiffies);
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

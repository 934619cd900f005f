// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the output parameters (kdamond_pids, bytes_*), status and its
 * debugfs copy.  Reads struct mmt_node under mmt_lock and mmt_stat_lock and
 * the controller's view (mmt_loop_show()); changes nothing.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "mmt_damon.h"
#include "mmt_hook.h"
#include "mmt_logic.h"
#include "mmt_loop.h"
#include "mmt_nodes.h"
#include "mmt_status.h"

/* Read-only outputs: one "nid:value" pair per tiered node. */
enum mmt_out {
	MMT_OUT_PIDS,
	MMT_OUT_PROMOTED,
	MMT_OUT_DEMOTED,
	MMT_OUT_TRIED,
	MMT_OUT_FAILED,
	MMT_OUT_NR_TRIED,
	MMT_OUT_NR_PROMOTED,
	MMT_OUT_NR_DEMOTED,
	MMT_OUT_QT_EXCEEDS,
};

static long mmt_out_value(struct mmt_node *n, enum mmt_out what)
{
	switch (what) {
	case MMT_OUT_PIDS:
		return mmt_damon_kdamond_pid(n->ctx);
	case MMT_OUT_PROMOTED:
		return n->tier == MMT_TIER_LOWER ? n->seen.sch[0].stat.sz_applied : 0;
	case MMT_OUT_DEMOTED:
		/* bandwidth mode: hot pages pushed down to a lower node */
		if (n->bw)
			return n->seen.sch[1].stat.sz_applied;
		return n->tier == MMT_TIER_UPPER ? n->seen.sch[0].stat.sz_applied : 0;
	case MMT_OUT_TRIED:
		return n->seen.sch[0].stat.sz_tried;
	case MMT_OUT_FAILED:
		/* passed the filters but did not move */
		return mmt_stat_failed(&n->seen.sch[0].stat);
	case MMT_OUT_NR_TRIED:
		return n->seen.sch[0].stat.nr_tried;
	case MMT_OUT_NR_PROMOTED:
		return n->tier == MMT_TIER_LOWER ? n->seen.sch[0].stat.nr_applied : 0;
	case MMT_OUT_NR_DEMOTED:
		if (n->bw)
			return n->seen.sch[1].stat.nr_applied;
		return n->tier == MMT_TIER_UPPER ? n->seen.sch[0].stat.nr_applied : 0;
	case MMT_OUT_QT_EXCEEDS:
		/* both schemes of a bandwidth-mode context */
		return n->seen.sch[0].stat.qt_exceeds +
		       (n->bw ? n->seen.sch[1].stat.qt_exceeds : 0);
	}
	return 0;
}

static int mmt_out_get(char *buf, const struct kernel_param *kp)
{
	enum mmt_out what = (enum mmt_out)(unsigned long)kp->arg;
	int i, len = 0;

	mutex_lock(&mmt_lock);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		long v;

		if (what == MMT_OUT_PIDS) {
			v = mmt_out_value(n, what);
		} else {
			spin_lock(&mmt_stat_lock);
			v = mmt_out_value(n, what);
			spin_unlock(&mmt_stat_lock);
		}
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s%d:%ld",
				 i ? " " : "", n->nid, v);
	}
	mutex_unlock(&mmt_lock);
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops mmt_out_ops = {
	.get = mmt_out_get,
};

#define MMT_OUTPUT(name, what, desc)					\
	module_param_cb(name, &mmt_out_ops, (void *)(what), 0400);	\
	MODULE_PARM_DESC(name, desc)

MMT_OUTPUT(kdamond_pids, MMT_OUT_PIDS,
	   "nid:pid of each node's kdamond (-22 when not running)");
MMT_OUTPUT(bytes_promoted, MMT_OUT_PROMOTED,
	   "nid:bytes promoted out of each lower node since enable");
MMT_OUTPUT(bytes_demoted, MMT_OUT_DEMOTED,
	   "nid:bytes demoted out of each upper node (bandwidth mode: pushed down to each lower node) since enable");
MMT_OUTPUT(bytes_tried, MMT_OUT_TRIED,
	   "nid:bytes of regions each node's scheme tried since enable");
MMT_OUTPUT(bytes_failed, MMT_OUT_FAILED,
	   "nid:bytes that passed the filters but did not migrate (-95: not counted by this kernel)");
/* DAMON_RECLAIM's counters' names: nr_*_regions, nr_quota_exceeds */
MMT_OUTPUT(nr_tried_regions, MMT_OUT_NR_TRIED,
	   "nid:regions each node's scheme tried since enable");
MMT_OUTPUT(nr_promoted_regions, MMT_OUT_NR_PROMOTED,
	   "nid:regions promoted out of each lower node since enable");
MMT_OUTPUT(nr_demoted_regions, MMT_OUT_NR_DEMOTED,
	   "nid:regions demoted out of each upper node (bandwidth mode: pushed down to each lower node) since enable");
MMT_OUTPUT(nr_quota_exceeds, MMT_OUT_QT_EXCEEDS,
	   "nid:times each node's schemes hit their quota since enable");

/*
 * Each class (mmt_class.h): its share and whether its cgroup was found; on
 * each lower node, what its promotion moved and the class's used memory of
 * the target against its goal; on each upper node, its used memory there,
 * what its demotion and the room scheme moved, and whether the room scheme
 * is on.  mmt_lock held.
 */
static void mmt_status_classes(struct seq_buf *sb)
{
	const struct mmt_cfg *cfg = &mmt_running_cfg;
	int c, i;

	for (c = 0; c < cfg->nr_classes; c++) {
		const char *path = mmt_class_path(c);

		seq_buf_printf(sb, "class=%s share_bp=%lu state=%s\n", path,
			       cfg->class_share_bp[c],
			       cfg->class_id[c] ? "active" : "idle");
		for (i = 0; i < mmt_nr_nodes; i++) {
			struct mmt_node *n = mmt_nodes[i];
			const struct mmt_scheme_seen *a, *b;

			spin_lock(&mmt_stat_lock);
			a = &n->seen.cls[c][0];
			b = &n->seen.cls[c][1];
			if (n->bw || c >= n->nr_classes)
				;
			else if (n->tier == MMT_TIER_LOWER)
				seq_buf_printf(sb, "class=%s node=%d target=%d promoted=%llu target_used_bp=%lu goal_bp=%lu\n",
					       path, n->nid, n->target,
					       (u64)a->stat.sz_applied,
					       a->goal_current, a->goal_target);
			else
				seq_buf_printf(sb, "class=%s node=%d used_bp=%lu demoted=%llu room_demoted=%llu room=%s\n",
					       path, n->nid, MMT_BP_MAX -
					       min(a->goal_current, MMT_BP_MAX),
					       (u64)a->stat.sz_applied,
					       (u64)b->stat.sz_applied,
					       b->goal_current ? "off" : "on");
			spin_unlock(&mmt_stat_lock);
		}
	}
}

/* The whole status: running configuration, nodes, pairs; mmt_lock held. */
static void mmt_status_write(struct seq_buf *sb)
{
	int i;

	seq_buf_printf(sb, "running=%d used_bp=%lu free_bp=%lu quota=%lu controller=%d period_ms=%lu mode=%s upper_share_bp=%lu upper_nodes=%*pbl lower_nodes=%*pbl skip_nodes=%*pbl classes=%d\n",
		       mmt_running(), mmt_running_cfg.promote_target_used_bp,
		       mmt_running_cfg.demote_target_free_bp,
		       mmt_running_cfg.quota_mb_per_s,
		       mmt_running_cfg.controller, mmt_running_cfg.period_ms,
		       mmt_running_cfg.bandwidth ? "bandwidth" : "capacity",
		       mmt_running_cfg.upper_share_bp,
		       nodemask_pr_args(&mmt_running_cfg.upper_nodes),
		       nodemask_pr_args(&mmt_running_cfg.lower_nodes),
		       nodemask_pr_args(&mmt_running_cfg.skip_nodes),
		       mmt_running_cfg.nr_classes);
	/* who does what on this kernel: DAMON itself or the module */
	seq_buf_printf(sb, "kernel hook=%s node_goals=%s eligible_goal=%s goal_tuner=%s intervals=%s prime=%s classes=%s\n",
		       MMT_HOOK_NAME, MMT_FEED_NODE_MEM ? "module" : "damon",
		       MMT_FEED_ELIGIBLE ? "module" : "damon",
		       MMT_EMULATE_TEMPORAL ? "module" : "damon",
		       MMT_TUNE_INTERVALS ? "module" : "damon",
		       MMT_PRIME ? "walk" : "first_window",
		       MMT_CLASSES ? "damon" : "none");
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		unsigned long score;

		spin_lock(&mmt_stat_lock);
		/* DAMOS's convention: 10000 is on target; 0 before a sample */
		if (mmt_goal_score(n->seen.sch[0].goal_current,
				   n->seen.sch[0].goal_target, &score))
			score = 0;
		seq_buf_printf(sb, "node=%d tier=%s action=%s target=%d goal=%s goal_target=%lu goal_current=%lu score=%lu esz=%lu sample_us=%lu aggr_us=%lu nr_regions=%u prime=%s state=%s err=%d\n",
			       n->nid,
			       n->tier == MMT_TIER_UPPER ? "upper" : "lower",
			       n->tier == MMT_TIER_UPPER ? "demote" : "promote",
			       n->target,
			       n->tier == MMT_TIER_UPPER ? "free_bp" :
			       n->bw ? "eligible_bp" : "used_bp",
			       n->seen.sch[0].goal_target, n->seen.sch[0].goal_current,
			       score, n->seen.esz, n->seen.sample_us, n->seen.aggr_us,
			       n->seen.nr_regions, n->seen.prime ?: "none",
			       n->stopped ?: "running",
			       n->stop_err);
		/* bandwidth mode: the scheme moving hot pages down */
		if (n->bw)
			seq_buf_printf(sb, "node=%d scheme=push target=%d goal=eligible_bp goal_target=%lu goal_current=%lu pushed=%llu\n",
				       n->nid, n->nid, n->seen.sch[1].goal_target,
				       n->seen.sch[1].goal_current,
				       (u64)n->seen.sch[1].stat.sz_applied);
		spin_unlock(&mmt_stat_lock);
	}
	mmt_status_classes(sb);
	mmt_loop_show(sb);
}

/* What the status parameter ends with when a page cannot hold it all. */
#define MMT_STATUS_CUT "truncated: one page holds this much; every node is in /sys/kernel/debug/mm_tiering/status\n"

/*
 * The status parameter: one page (the limit of a parameter's read).  Cut,
 * it ends at the last whole line, followed by MMT_STATUS_CUT: never
 * silently.
 */
static int mmt_status_get(char *buf, const struct kernel_param *kp)
{
	size_t room = PAGE_SIZE - sizeof(MMT_STATUS_CUT);
	struct seq_buf sb;
	char *end;

	seq_buf_init(&sb, buf, room);
	mutex_lock(&mmt_lock);
	mmt_status_write(&sb);
	mutex_unlock(&mmt_lock);
	if (!seq_buf_has_overflowed(&sb))
		return seq_buf_used(&sb);
	/* each line is one print: the last newline ends the last whole one */
	for (end = buf + room; end > buf && end[-1] != '\n'; end--)
		;
	memcpy(end, MMT_STATUS_CUT, sizeof(MMT_STATUS_CUT));
	return end - buf + sizeof(MMT_STATUS_CUT) - 1;
}

/* The debugfs copy of status: every line, however many nodes. */
static int mmt_status_show(struct seq_file *m, void *v)
{
	size_t size = PAGE_SIZE;
	struct seq_buf sb;
	char *buf;

	for (;;) {
		buf = kvmalloc(size, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		seq_buf_init(&sb, buf, size);
		mutex_lock(&mmt_lock);
		mmt_status_write(&sb);
		mutex_unlock(&mmt_lock);
		if (!seq_buf_has_overflowed(&sb))
			break;
		kvfree(buf);
		size *= 2;
	}
	seq_write(m, buf, seq_buf_used(&sb));
	kvfree(buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmt_status);

/*
 * The heat histograms the controller compares (mmt_ctl.c, "Heat"): per
 * node, KiB per heat bucket, bucket 0 (not seen accessed) first.
 */
static int mmt_heat_show(struct seq_file *m, void *v)
{
	int i, j;

	mutex_lock(&mmt_lock);
	for (i = 0; i < mmt_nr_nodes; i++) {
		struct mmt_node *n = mmt_nodes[i];
		u64 heat[MMT_NR_HEAT];

		spin_lock(&mmt_stat_lock);
		memcpy(heat, n->seen.heat, sizeof(heat));
		spin_unlock(&mmt_stat_lock);
		seq_printf(m, "node=%d tier=%s heat_kib=", n->nid,
			   n->tier == MMT_TIER_UPPER ? "upper" : "lower");
		for (j = 0; j < MMT_NR_HEAT; j++)
			seq_printf(m, "%s%llu", j ? "," : "", heat[j] >> 10);
		seq_putc(m, '\n');
	}
	mutex_unlock(&mmt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmt_heat);

static struct dentry *mmt_debugfs;

/* /sys/kernel/debug/mm_tiering/status; from module_init(). */
void mmt_status_debugfs_create(void)
{
	mmt_debugfs = debugfs_create_dir("mm_tiering", NULL);
	debugfs_create_file("status", 0400, mmt_debugfs, NULL,
			    &mmt_status_fops);
	debugfs_create_file("heat", 0400, mmt_debugfs, NULL, &mmt_heat_fops);
}

/* Removed without mmt_lock: a reader of the file may hold it. */
void mmt_status_debugfs_remove(void)
{
	debugfs_remove_recursive(mmt_debugfs);
	mmt_debugfs = NULL;
}

static const struct kernel_param_ops mmt_status_ops = {
	.get = mmt_status_get,
};

/*
 * What runs, one line per node, with the goal values DAMON last measured.
 */
module_param_cb(status, &mmt_status_ops, NULL, 0400);
MODULE_PARM_DESC(status, "Running configuration and per-node state");


// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the input parameters.
 *
 * Each setter checks its value against its rule (mmt_logic.c) and, when it
 * is refused, returns -EINVAL and says in the log what was needed and what
 * was kept.  The values are only read: mmt_inputs() copies them for enable
 * and commit_inputs (mmt_engine.c), which apply them.  Calls
 * nothing of the module but the checks.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mmt_class.h"
#include "mmt_compat.h"
#include "mmt_logic.h"
#include "mmt_params.h"

/* Length of @val without its trailing newline, for messages. */
int mmt_len(const char *val)
{
	int len = strlen(val);

	return len && val[len - 1] == '\n' ? len - 1 : len;
}

/* An unsigned long input parameter and its range rule. */
struct mmt_ulong_param {
	unsigned long *val;
	int (*check)(unsigned long v);
	const char *need;
};

static int mmt_set_ulong(const char *val, const struct kernel_param *kp)
{
	const struct mmt_ulong_param *p = kp->arg;
	unsigned long v;

	if (kstrtoul(val, 0, &v) || p->check(v)) {
		pr_warn("%s: invalid value '%.*s': need %s; kept %lu\n",
			kp->name, mmt_len(val), val, p->need, *p->val);
		return -EINVAL;
	}
	*p->val = v;
	return 0;
}

static int mmt_get_ulong(char *buf, const struct kernel_param *kp)
{
	const struct mmt_ulong_param *p = kp->arg;

	return sprintf(buf, "%lu\n", *p->val);
}

static const struct kernel_param_ops mmt_ulong_ops = {
	.set = mmt_set_ulong,
	.get = mmt_get_ulong,
};

#define MMT_ULONG_PARAM(name, check, need, desc)			\
	static struct mmt_ulong_param mmt_param_##name = {		\
		&name, check, need					\
	};								\
	module_param_cb(name, &mmt_ulong_ops, &mmt_param_##name, 0600); \
	MODULE_PARM_DESC(name, desc)

/*
 * Promotion goal: the used memory of a promotion target node, in basis
 * points.  Lower nodes promote hot pages while their target is below it.
 * 1..10000, default 9970 (99.7 %, the TPP-DAMON recipe).
 */
static unsigned long promote_target_used_bp __read_mostly = 9970;
MMT_ULONG_PARAM(promote_target_used_bp, mmt_check_bp, "basis points 1..10000",
	"Promote while the target node's used memory is below this, in bp (default 9970)");

/*
 * Demotion goal: the free memory of an upper node, in basis points.  Upper
 * nodes demote cold pages while their free memory is below it.  1..10000,
 * default 50 (0.5 %, the TPP-DAMON recipe).
 */
static unsigned long demote_target_free_bp __read_mostly = 50;
MMT_ULONG_PARAM(demote_target_free_bp, mmt_check_bp, "basis points 1..10000",
	"Demote while the node's free memory is below this, in bp (default 50)");

/*
 * Migration budget of each scheme, in MiB per second, charged per 100 ms.
 * 1..1048576, default 200.
 */
static unsigned long quota_mb_per_s __read_mostly = 200;
MMT_ULONG_PARAM(quota_mb_per_s, mmt_check_quota_mb, "MiB/s 1..1048576",
	"Migration budget of each scheme in MiB/s (default 200)");

/*
 * Control period of the feedback controller, in milliseconds.  100..60000,
 * default 1000.
 */
static unsigned long control_period_ms __read_mostly = 1000;
MMT_ULONG_PARAM(control_period_ms, mmt_check_period_ms, "milliseconds 100..60000",
	"Control period of the feedback controller in ms (default 1000)");

static int mmt_set_bool(const char *val, const struct kernel_param *kp)
{
	int err = param_set_bool(val, kp);

	if (err)
		pr_warn("%s: invalid value '%.*s': need Y or N; kept %c\n",
			kp->name, mmt_len(val), val,
			*(bool *)kp->arg ? 'Y' : 'N');
	return err;
}

static const struct kernel_param_ops mmt_bool_ops = {
	.set = mmt_set_bool,
	.get = param_get_bool,
};

/*
 * Y (default) runs the in-kernel feedback controller (mmt_loop.c): promotion
 * threshold, room made by demotion, ping-pong damping and back-off tuned
 * every control period.  N runs the static recipe: the DAMOS goals with a
 * fixed per-scheme budget and the thresholds as typed ("accessed at all" /
 * "not accessed").
 */
static bool controller __read_mostly = true;
module_param_cb(controller, &mmt_bool_ops, &controller, 0600);
MODULE_PARM_DESC(controller,
	"Y: feedback controller (default); N: static recipe");

/*
 * What the module distributes.  "capacity" (default): upper nodes hold as
 * much of the hot memory as their free-memory goal allows.  "bandwidth": hot
 * memory is split between each upper node and its lower node by target
 * shares (node_eligible_mem_bp quota goals; one context per lower node
 * monitors both nodes), so that both nodes' bandwidth serves it.
 */
static bool mode_bandwidth __read_mostly;

static int mmt_set_mode(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "capacity")) {
		mode_bandwidth = false;
	} else if (sysfs_streq(val, "bandwidth")) {
		mode_bandwidth = true;
	} else {
		pr_warn("mode: invalid value '%.*s': need capacity or bandwidth; kept %s\n",
			mmt_len(val), val,
			mode_bandwidth ? "bandwidth" : "capacity");
		return -EINVAL;
	}
	return 0;
}

static int mmt_get_mode(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%s\n", mode_bandwidth ? "bandwidth" : "capacity");
}

static const struct kernel_param_ops mmt_mode_ops = {
	.set = mmt_set_mode,
	.get = mmt_get_mode,
};

module_param_cb(mode, &mmt_mode_ops, NULL, 0600);
MODULE_PARM_DESC(mode,
	"capacity (default): fill upper nodes; bandwidth: split hot memory by shares");

/*
 * Bandwidth mode: the share of hot memory each upper node holds, in basis
 * points; 0 (default) takes it from HMAT read bandwidth (72:26 GB/s gives
 * 7347), MMT_SHARE_MIN_BP..MMT_SHARE_MAX_BP (151..9849) overrides it.
 */
static unsigned long upper_share_bp __read_mostly;
MMT_ULONG_PARAM(upper_share_bp, mmt_check_share_bp,
	"0 (from HMAT) or basis points 151..9849",
	"Bandwidth mode: upper node's share of hot memory in bp (0: HMAT)");

/*
 * The admin's tiers: node lists (as "0,2-3"; empty: none).  By default the
 * machine decides (memory tiers' abstract distances, else CPUs); a list
 * that names nodes is its whole tier (mmt_pick_of()), skip_nodes are left
 * alone.  A write checks the list's form and ids; that the lists do not
 * overlap is checked where they apply (enable, commit_inputs, plan), so
 * that a node can be moved from one list to another in two writes.
 */
static nodemask_t upper_nodes, lower_nodes, skip_nodes;

static int mmt_set_nodes(const char *val, const struct kernel_param *kp)
{
	nodemask_t *mask = kp->arg, m;
	int err;

	err = nodelist_parse(val, m);
	if (!err && find_next_bit(nodes_addr(m), MAX_NUMNODES,
				  nr_node_ids) < MAX_NUMNODES)
		err = -ERANGE;
	if (err) {
		pr_warn("%s: invalid value '%.*s': need a node list such as 0,2-3 (ids below %u) or nothing; kept '%*pbl'\n",
			kp->name, mmt_len(val), val, nr_node_ids,
			nodemask_pr_args(mask));
		return -EINVAL;
	}
	*mask = m;
	return 0;
}

static int mmt_get_nodes(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%*pbl\n", nodemask_pr_args((nodemask_t *)kp->arg));
}

static const struct kernel_param_ops mmt_nodes_ops = {
	.set = mmt_set_nodes,
	.get = mmt_get_nodes,
};

module_param_cb(upper_nodes, &mmt_nodes_ops, &upper_nodes, 0600);
MODULE_PARM_DESC(upper_nodes,
	"Nodes of the upper tier, as 0,2-3 (default: memory tiers or CPUs decide)");
module_param_cb(lower_nodes, &mmt_nodes_ops, &lower_nodes, 0600);
MODULE_PARM_DESC(lower_nodes,
	"Nodes of the lower tier, as 0,2-3 (default: memory tiers or CPUs decide)");
module_param_cb(skip_nodes, &mmt_nodes_ops, &skip_nodes, 0600);
MODULE_PARM_DESC(skip_nodes, "Memory nodes to leave alone, as 0,2-3 (default none)");

/*
 * Whether @cfg's node lists can apply: no node in two of them.  Says which
 * nodes are named twice, for @who (enable, commit_inputs).  Return: 0 or
 * -EINVAL.
 */
int mmt_check_node_lists(const struct mmt_cfg *cfg, const char *who)
{
	static const char * const names[] = {
		"upper_nodes", "lower_nodes", "skip_nodes"
	};
	const nodemask_t *l[] = {
		&cfg->upper_nodes, &cfg->lower_nodes, &cfg->skip_nodes
	};
	nodemask_t both;
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++) {
			nodes_and(both, *l[i], *l[j]);
			if (nodes_empty(both))
				continue;
			if (who)
				pr_warn("%s: node(s) %*pbl both in %s and in %s: refused; a node is in one list at most\n",
					who, nodemask_pr_args(&both),
					names[i], names[j]);
			return -EINVAL;
		}
	return 0;
}

bool mmt_node_lists_equal(const struct mmt_cfg *a, const struct mmt_cfg *b)
{
	return nodes_equal(a->upper_nodes, b->upper_nodes) &&
	       nodes_equal(a->lower_nodes, b->lower_nodes) &&
	       nodes_equal(a->skip_nodes, b->skip_nodes);
}

/*
 * Per-cgroup classes (mmt_class.h): "PATH:SHARE_BP[,PATH:SHARE_BP]...",
 * empty (default) for none.  A write checks the list's form (mmt_class.c)
 * and that each cgroup exists with a memory controller of its own; an
 * enable or commit_inputs reads the cgroups' ids anew, so that a cgroup
 * removed and made again under the same path is found.  The list is read
 * under mmt_class_mutex: an enable from a memory event reads it without
 * the parameters' lock.
 */
static struct mmt_classes mmt_class_list, mmt_class_running;
static DEFINE_MUTEX(mmt_class_mutex);

/* @cls as the parameter reads, into @buf of @size.  Return: its length. */
static int mmt_classes_print(const struct mmt_classes *cls, char *buf,
			     size_t size)
{
	int i, len = 0;

	for (i = 0; i < cls->nr; i++)
		len += scnprintf(buf + len, size - len, "%s%s:%lu",
				 i ? "," : "", cls->path[i], cls->share_bp[i]);
	return len;
}

/* Why @cls cannot be the classes on this machine now, or NULL. */
static const char *mmt_classes_here(const struct mmt_classes *cls, int *bad)
{
	int i, err;
	u64 id;

	for (i = 0; i < cls->nr; i++) {
		*bad = i;
		err = mmt_cgroup_id(cls->path[i], &id);
		if (err == -ENOENT)
			return "no such cgroup";
		if (err)
			return "its memory is charged to a parent cgroup: enable the memory controller in the parent's cgroup.subtree_control";
	}
	return NULL;
}

static int mmt_set_classes(const char *val, const struct kernel_param *kp)
{
	const char *why = NULL;
	struct mmt_classes *cls;
	int bad = -1, err = 0;
	char *kept;

	cls = kzalloc_obj(*cls);
	kept = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!cls || !kept) {
		err = -ENOMEM;
		goto out;
	}
	if (mmt_classes_parse(val, cls, &why))
		err = -EINVAL;
	else if (cls->nr && !MMT_CLASSES)
		why = MMT_CLASSES_MISSING;
	else
		why = mmt_classes_here(cls, &bad);
	if (why && !err)
		err = cls->nr && !MMT_CLASSES ? -EOPNOTSUPP : -EINVAL;
	mutex_lock(&mmt_class_mutex);
	if (err) {
		mmt_classes_print(&mmt_class_list, kept, PAGE_SIZE);
		pr_warn("classes: invalid value '%.*s': %s%s%s; kept '%s'\n",
			mmt_len(val), val, bad >= 0 ? cls->path[bad] : "",
			bad >= 0 ? ": " : "", why, kept);
	} else {
		mmt_class_list = *cls;
	}
	mutex_unlock(&mmt_class_mutex);
out:
	kfree(kept);
	kfree(cls);
	return err;
}

static int mmt_get_classes(char *buf, const struct kernel_param *kp)
{
	int len;

	mutex_lock(&mmt_class_mutex);
	len = mmt_classes_print(&mmt_class_list, buf, PAGE_SIZE - 1);
	mutex_unlock(&mmt_class_mutex);
	buf[len++] = '\n';
	return len;
}

static const struct kernel_param_ops mmt_classes_ops = {
	.set = mmt_set_classes,
	.get = mmt_get_classes,
};

module_param_cb(classes, &mmt_classes_ops, NULL, 0600);
MODULE_PARM_DESC(classes,
	"Per-cgroup classes: PATH:SHARE_BP,... of an upper node's memory (default none)");

/*
 * Whether @cfg's classes can apply (capacity mode only), saying so for
 * @who (enable, commit_inputs; NULL: silent); classes whose cgroup is gone
 * are named, and idle.  Return: 0 or -EINVAL.
 */
int mmt_check_classes(const struct mmt_cfg *cfg, const char *who)
{
	int i;

	if (cfg->nr_classes && cfg->bandwidth) {
		if (who)
			pr_warn("%s: classes work in capacity mode: refused; set classes to nothing or mode to capacity\n",
				who);
		return -EINVAL;
	}
	mutex_lock(&mmt_class_mutex);
	for (i = 0; who && i < cfg->nr_classes; i++)
		if (!cfg->class_id[i])
			pr_warn("%s: class %s: no such cgroup (or no memory controller of its own) now: idle until a commit finds it\n",
				who, mmt_class_list.path[i]);
	mutex_unlock(&mmt_class_mutex);
	return 0;
}

/* The classes just read by mmt_inputs() now run (enable, commit_inputs). */
void mmt_classes_applied(void)
{
	mutex_lock(&mmt_class_mutex);
	mmt_class_running = mmt_class_list;
	mutex_unlock(&mmt_class_mutex);
}

/*
 * Running class @i's path, for the status (the running list changes only
 * under the engine's lock, which the status holds).
 */
const char *mmt_class_path(int i)
{
	return mmt_class_running.path[i];
}

/* The input parameters as they are now. */
void mmt_inputs(struct mmt_cfg *cfg)
{
	int i;

	cfg->promote_target_used_bp = promote_target_used_bp;
	cfg->demote_target_free_bp = demote_target_free_bp;
	cfg->quota_mb_per_s = quota_mb_per_s;
	cfg->controller = controller;
	cfg->period_ms = control_period_ms;
	cfg->bandwidth = mode_bandwidth;
	cfg->upper_share_bp = upper_share_bp;
	cfg->upper_nodes = upper_nodes;
	cfg->lower_nodes = lower_nodes;
	cfg->skip_nodes = skip_nodes;
	mutex_lock(&mmt_class_mutex);
	cfg->nr_classes = mmt_class_list.nr;
	for (i = 0; i < cfg->nr_classes; i++) {
		mmt_cgroup_id(mmt_class_list.path[i], &cfg->class_id[i]);
		cfg->class_share_bp[i] = mmt_class_list.share_bp[i];
	}
	mutex_unlock(&mmt_class_mutex);
}


// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the tiers the inputs give on this machine.
 *
 * Reads what the kernel says of each memory node (CPUs, abstract distance,
 * NUMA distances) and hands it, with the admin's node lists, to the pure
 * planner (mmt_plan_tiers() in mmt_logic.c).  Read at enable, on memory
 * events and by commit_inputs (mmt_engine.c), and by the plan parameter,
 * which shows it.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/memory-tiers.h>
#include <linux/moduleparam.h>
#include <linux/nodemask.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include "mmt_compat.h"
#include "mmt_logic.h"
#include "mmt_params.h"
#include "mmt_plan.h"

/* The node's abstract distance if a tiering algorithm (HMAT) knows it. */
static int mmt_node_adist(int nid)
{
	int adist = MEMTIER_ADISTANCE_DRAM;

	if (mt_calc_adistance(nid, &adist) != NOTIFY_STOP || adist <= 0)
		return 0;
	return adist;
}

/*
 * Whether node @nid has CPUs, online or not (cpu_to_node() keeps an offline
 * CPU's node): DRAM whose socket has all its CPUs offline is still the fast
 * memory next to them, not a lower tier (N_CPU follows CPU hotplug).
 */
static bool mmt_node_has_cpus(int nid)
{
	int cpu;

	for_each_present_cpu(cpu)
		if (cpu_to_node(cpu) == nid)
			return true;
	return false;
}

/* What the kernel says of the memory nodes now, and @cfg's picks. */
static void mmt_read_topo(struct mmt_topo *topo, const struct mmt_cfg *cfg,
			  bool quiet)
{
	bool any_up = !nodes_empty(cfg->upper_nodes);
	bool any_low = !nodes_empty(cfg->lower_nodes);
	int nid, i, j;

	for_each_node_state(nid, N_MEMORY) {
		if (topo->nr == MMT_MAX_NODES) {
			if (!quiet)
				pr_warn("node %d not tiered: at most %d memory nodes are\n",
					nid, MMT_MAX_NODES);
			continue;
		}
		i = topo->nr++;
		topo->nid[i] = nid;
		topo->has_cpu[i] = mmt_node_has_cpus(nid);
		topo->adist[i] = mmt_node_adist(nid);
		topo->pick[i] = mmt_pick_of(node_isset(nid, cfg->upper_nodes),
					    node_isset(nid, cfg->lower_nodes),
					    node_isset(nid, cfg->skip_nodes),
					    any_up, any_low);
	}
	for (i = 0; i < topo->nr; i++)
		for (j = 0; j < topo->nr; j++)
			topo->dist[i][j] = node_distance(topo->nid[i],
							 topo->nid[j]);
}

/**
 * mmt_read_plan() - the tiers of the memory nodes now.
 * @plan:	filled in
 * @cfg:	the inputs whose node lists name tiers (mmt_pick_of())
 * @quiet:	say nothing in the log (the plan parameter, checks)
 *
 * The machine decides for the nodes the lists do not name.
 * Return: 0, -EINVAL (no upper tier) or -ENOMEM.
 */
int mmt_read_plan(struct mmt_plan *plan, const struct mmt_cfg *cfg,
		  bool quiet)
{
	struct mmt_topo *topo;
	int err;

	topo = kzalloc_obj(*topo);
	if (!topo)
		return -ENOMEM;
	mmt_read_topo(topo, cfg, quiet);
	err = mmt_plan_tiers(topo, plan);
	kfree(topo);
	if (quiet)
		return err;
	if (err)
		pr_err("no upper tier: no memory node has CPUs, or the node lists name none: nothing to promote to\n");
	else
		pr_info("tiers from %s%s\n", plan->by_adist ?
			"memory tiering abstract distances (top tier is upper)" :
			"CPUs (nodes with CPUs are upper)",
			!nodes_empty(cfg->upper_nodes) ||
			!nodes_empty(cfg->lower_nodes) ||
			!nodes_empty(cfg->skip_nodes) ?
			", as upper_nodes, lower_nodes and skip_nodes name them" :
			"");
	return err;
}

/**
 * mmt_plan_check() - whether @cfg's node lists give tiers on this machine.
 * @cfg:	the inputs about to apply
 * @who:	what asks, for the log
 *
 * Return: 0, or -EINVAL (the lists overlap, or leave no upper or no lower
 * tier among the memory nodes now), said in the log; -ENOMEM.
 */
int mmt_plan_check(const struct mmt_cfg *cfg, const char *who)
{
	struct mmt_plan *plan;
	int err;

	err = mmt_check_node_lists(cfg, who);
	if (err)
		return err;
	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_plan(plan, cfg, true);
	if (err != -ENOMEM && (err || !plan->nr_lower)) {
		pr_warn("%s: the node lists leave no %s tier among memory nodes %*pbl: refused\n",
			who, err ? "upper" : "lower",
			nodemask_pr_args(&node_states[N_MEMORY]));
		err = -EINVAL;
	}
	kfree(plan);
	return err;
}

/*
 * The plan parameter: the tiers the input parameters give on this machine
 * now, one line per memory node (what an enable or a commit would run).
 */
static int mmt_plan_show(char *buf, const struct kernel_param *kp)
{
	static const char * const tiers[] = {
		[MMT_TIER_NONE] = "none",
		[MMT_TIER_UPPER] = "upper",
		[MMT_TIER_LOWER] = "lower",
	};
	struct mmt_plan *plan;
	struct mmt_cfg cfg;
	int i, len, err;

	mmt_inputs(&cfg);
	if (mmt_check_node_lists(&cfg, NULL))
		return sysfs_emit(buf, "invalid: a node is in two of upper_nodes, lower_nodes and skip_nodes\n");
	plan = kzalloc_obj(*plan);
	if (!plan)
		return -ENOMEM;
	err = mmt_read_plan(plan, &cfg, true);
	len = sysfs_emit(buf, "from=%s upper=%d lower=%d%s\n",
			 plan->by_adist ? "memory_tiers" : "cpus",
			 plan->nr_upper, plan->nr_lower,
			 err ? " invalid: no upper tier" :
			 !plan->nr_lower ? " idle: no lower tier" : "");
	for (i = 0; i < plan->nr; i++)
		len += sysfs_emit_at(buf, len, "node=%d tier=%s target=%d\n",
				     plan->nid[i], tiers[plan->tier[i]],
				     err ? -1 : plan->target[i]);
	kfree(plan);
	return len;
}

static const struct kernel_param_ops mmt_plan_ops = {
	.get = mmt_plan_show,
};

module_param_cb(plan, &mmt_plan_ops, NULL, 0400);
MODULE_PARM_DESC(plan,
	"The tiers the inputs give on this machine now (read-only)");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering pure logic: arithmetic, validation and tier planning.
 *
 * Nothing in here touches kernel state, allocates, or calls DAMON: the same
 * source is compiled into the module and into the KUnit tests.
 */
#ifndef _MMT_LOGIC_H
#define _MMT_LOGIC_H

#include <linux/types.h>

/* 10000 basis points make 100 %. */
#define MMT_BP_MAX		10000UL

/* Largest migration budget accepted, in MiB per second (1 TiB/s). */
#define MMT_QUOTA_MB_MAX	(1UL << 20)

/*
 * Memory nodes the planner tiers, whatever their ids (up to the kernel's
 * nr_node_ids: 1024 on Debian, where CXL nodes can get high ids); a machine
 * with more memory nodes has the first 64 tiered and the others named in
 * the log.
 */
#define MMT_MAX_NODES		64

int mmt_bp_of(u64 part, u64 total, unsigned long *bp);
u64 mmt_bp_apply(u64 total, unsigned long bp);
u64 mmt_quota_bytes(unsigned long mb_per_s, unsigned long interval_ms);

/*
 * Headroom kept above an upper node's high watermark by the demotion goal,
 * in basis points of the node: 1 %.  Below the high watermark kswapd runs
 * and GFP_NOWAIT promotion allocations start failing, so a free goal under
 * it could never be reached by promotion nor triggered for demotion.  The
 * same headroom above the zones' floors bounds admission
 * (mmt_free_floor()): what others allocate during one quota interval of
 * promotion.
 */
#define MMT_WMARK_HEADROOM_BP	100UL

/**
 * struct mmt_goals - effective quota goals for one upper node.
 * @free_bp:	demotion runs while the node's free memory is below this
 * @used_bp:	promotion into the node runs while its used memory is below
 * @raised:	@free_bp was raised above the requested value
 */
struct mmt_goals {
	unsigned long free_bp;
	unsigned long used_bp;
	bool raised;
};

int mmt_effective_goals(unsigned long used_bp, unsigned long free_bp,
			u64 total_pages, u64 high_wmark_pages,
			struct mmt_goals *goals);

/*
 * Admission of promotion into an upper node.  A zone's free pages above its
 * high watermark and above the reserve it keeps against allocations that
 * could have used a higher zone (lowmem_reserve, highatomic) are the pages
 * a movable allocation can take without waking kswapd or eating into what
 * kernel allocations need; the rest of the node's free pages, although
 * DAMON's node_mem_free_bp counts them, are not room.
 */
u64 mmt_zone_unusable(u64 free, u64 high, u64 reserve);
u64 mmt_free_floor(u64 unusable, u64 managed);
u64 mmt_admit_bytes(u64 free, u64 floor);
unsigned long mmt_admit_quota(unsigned long quota_sz, u64 admit,
			      unsigned long page_size);

u64 mmt_counter_delta(u64 now, u64 last);
int mmt_goal_score(unsigned long current_value, unsigned long target,
		   unsigned long *score);
unsigned long mmt_tune_sample_us(unsigned long sample_us, u64 access_events,
				 u64 max_events, unsigned long goal_bp,
				 unsigned long min_us, unsigned long max_us);
int mmt_bw_shares(const u64 *bw, int nr, unsigned long *share_bp);
int mmt_bw_pair_share(unsigned long upper_bp, u64 low_w, u64 lows_w,
		      unsigned long *share_bp);

int mmt_check_bp(unsigned long bp);
int mmt_check_quota_mb(unsigned long mb_per_s);
int mmt_check_period_ms(unsigned long ms);
/*
 * Bandwidth mode: the distribution schemes stop within +-1.5 % of the target
 * share, so that at the target neither runs; a share leaves each node of
 * the pair more than that.
 */
#define MMT_BW_DEADBAND_BP	150UL
#define MMT_SHARE_MIN_BP	(MMT_BW_DEADBAND_BP + 1)
#define MMT_SHARE_MAX_BP	(MMT_BP_MAX - MMT_BW_DEADBAND_BP - 1)

int mmt_check_share_bp(unsigned long bp);

enum mmt_tier {
	MMT_TIER_NONE,		/* not a memory node, or left alone */
	MMT_TIER_UPPER,		/* DRAM-like: top memory tier, or has CPUs */
	MMT_TIER_LOWER,		/* CXL-like: lower tiers, or no CPUs */
};

/*
 * What the admin named a memory node (upper_nodes, lower_nodes, skip_nodes):
 * nothing (the machine decides), a tier, or left alone.
 */
enum mmt_pick {
	MMT_PICK_AUTO,
	MMT_PICK_UPPER,
	MMT_PICK_LOWER,
	MMT_PICK_SKIP,
};

enum mmt_pick mmt_pick_of(bool in_upper, bool in_lower, bool in_skip,
			  bool any_upper, bool any_lower);

/* Abstract distances per memory tier, as in <linux/memory-tiers.h>. */
#define MMT_ADIST_CHUNK_BITS	7

/**
 * struct mmt_topo - what the planner needs to know of the machine.
 * @nr:		memory nodes (N_MEMORY), 1..MMT_MAX_NODES; the arrays are by
 *		slot 0..nr-1, not by node id
 * @nid:	the node id of each slot, ascending
 * @has_cpu:	node has CPUs (N_CPU)
 * @adist:	abstract distance (memory tiering), 0 when unknown
 * @pick:	what the admin named the node (mmt_pick_of()); MMT_PICK_AUTO
 *		(0): the abstract distances or the CPUs decide
 * @dist:	node_distance() table, by slot
 */
struct mmt_topo {
	int nr;
	int nid[MMT_MAX_NODES];
	bool has_cpu[MMT_MAX_NODES];
	int adist[MMT_MAX_NODES];
	enum mmt_pick pick[MMT_MAX_NODES];
	u8 dist[MMT_MAX_NODES][MMT_MAX_NODES];
};

/**
 * struct mmt_plan - the tiering plan derived from a topology.
 * @nr:		memory nodes, as in the topology
 * @nid:	the node id of each slot, as in the topology
 * @tier:	tier of each slot; MMT_TIER_NONE: left alone (skipped)
 * @target:	migration target of each slot, a node id: the promotion
 *		target of a lower node, the demotion target of an upper node,
 *		or -1
 * @nr_upper:	number of upper-tier nodes
 * @nr_lower:	number of lower-tier nodes
 * @by_adist:	tiers come from abstract distances, not from CPUs
 */
struct mmt_plan {
	int nr;
	int nid[MMT_MAX_NODES];
	enum mmt_tier tier[MMT_MAX_NODES];
	int target[MMT_MAX_NODES];
	int nr_upper;
	int nr_lower;
	bool by_adist;
};

int mmt_plan_tiers(const struct mmt_topo *topo, struct mmt_plan *plan);
int mmt_plan_slot(const struct mmt_plan *plan, int nid);

#endif /* _MMT_LOGIC_H */

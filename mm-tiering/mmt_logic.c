// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering pure logic: arithmetic, validation and tier planning.
 *
 * Every function here is a pure function of its arguments, so that it can be
 * tested exhaustively by KUnit (kunit/) and reused unchanged by the module.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "mmt_logic.h"

/**
 * mmt_bp_of() - @part as basis points of @total, rounded down.
 * @part:	the part, any value (parts above @total give more than 10000)
 * @total:	the whole; zero is an error, never a division
 * @bp:	result, saturated at ULONG_MAX
 *
 * Return: 0, or -EINVAL when @total is zero.
 */
int mmt_bp_of(u64 part, u64 total, unsigned long *bp)
{
	u64 q, r;

	if (!total)
		return -EINVAL;
	q = div64_u64_rem(part, total, &r);
	if (q > ULONG_MAX / MMT_BP_MAX) {
		*bp = ULONG_MAX;
		return 0;
	}
	/* r < total: the 128-bit product divided by total is below 10000 */
	*bp = q * MMT_BP_MAX + mul_u64_u64_div_u64(r, MMT_BP_MAX, total);
	return 0;
}

/**
 * mmt_bp_apply() - @bp basis points of @total, rounded down, without overflow.
 */
u64 mmt_bp_apply(u64 total, unsigned long bp)
{
	u64 q = div64_u64(total, MMT_BP_MAX);
	u64 r = total - q * MMT_BP_MAX;

	if (bp > MMT_BP_MAX)
		bp = MMT_BP_MAX;
	return q * bp + div64_u64(r * bp, MMT_BP_MAX);
}

/**
 * mmt_quota_bytes() - bytes allowed per @interval_ms by a @mb_per_s budget.
 *
 * Saturates at ULONG_MAX; at least one page (4096 bytes) when the budget is
 * not zero, so that a small budget never rounds down to "no quota".
 */
u64 mmt_quota_bytes(unsigned long mb_per_s, unsigned long interval_ms)
{
	u64 per_s = (u64)mb_per_s << 20;
	u64 b;

	if (!mb_per_s || !interval_ms)
		return 0;
	if (per_s >> 20 != mb_per_s || per_s > U64_MAX / interval_ms)
		return ULONG_MAX;
	b = div64_u64(per_s * interval_ms, 1000);
	if (b > ULONG_MAX)
		return ULONG_MAX;
	return b < 4096 ? 4096 : b;
}

/**
 * mmt_effective_goals() - the goals an upper node can actually reach.
 * @used_bp:		requested promotion goal (used memory of the node)
 * @free_bp:		requested demotion goal (free memory of the node)
 * @total_pages:	the node's managed pages; zero is an error
 * @high_wmark_pages:	sum of the node's zone high watermarks
 * @goals:		result
 *
 * The requested goals come from the TPP-DAMON recipe (99.7 % used, 0.5 %
 * free), sized for nodes of hundreds of GiB.  On a small node the kernel's
 * watermarks alone exceed 0.5 %: free memory never drops that low, so the
 * demotion goal is always met, nothing is demoted, and promotion stalls when
 * its allocations hit the watermark.  The free goal is therefore raised to
 * the high watermark plus MMT_WMARK_HEADROOM_BP, and the used goal lowered by
 * as much, keeping the overlap the user chose (used + free - 10000; 20 bp in
 * the recipe) so that promotion and demotion do not stop each other.
 *
 * Example: a 1000 MiB node with a 48 MiB high watermark (480 bp): free
 * 50 -> 580 bp, used 9970 -> 9440 bp (10000 - 580 + 20).
 *
 * Return: 0, or -EINVAL for a zero @total_pages or an invalid goal.
 */
int mmt_effective_goals(unsigned long used_bp, unsigned long free_bp,
			u64 total_pages, u64 high_wmark_pages,
			struct mmt_goals *goals)
{
	unsigned long wmark_bp, floor_bp;
	long overlap;

	if (mmt_check_bp(used_bp) || mmt_check_bp(free_bp) ||
	    mmt_bp_of(high_wmark_pages, total_pages, &wmark_bp))
		return -EINVAL;
	overlap = (long)(used_bp + free_bp) - (long)MMT_BP_MAX;
	floor_bp = wmark_bp + MMT_WMARK_HEADROOM_BP;
	if (floor_bp > MMT_BP_MAX)
		floor_bp = MMT_BP_MAX;
	goals->raised = free_bp < floor_bp;
	goals->free_bp = goals->raised ? floor_bp : free_bp;
	if (goals->raised) {
		long used = (long)MMT_BP_MAX - (long)goals->free_bp + overlap;

		goals->used_bp = clamp(used, 1L, (long)used_bp);
	} else {
		goals->used_bp = used_bp;
	}
	return 0;
}

/**
 * mmt_zone_unusable() - of a zone's @free pages, those promotion must leave.
 * @free:	the zone's free pages
 * @high:	its high watermark (with any boost: kswapd works to it)
 * @reserve:	what it keeps back from a movable allocation: its
 *		lowmem_reserve for the highest zone such an allocation may
 *		use, and its highatomic reserve
 *
 * A zone whose free pages are at or below @high + @reserve gives a movable
 * allocation nothing without waking kswapd or taking from kernel
 * allocations; all its free pages are then unusable.
 *
 * Example: a ZONE_DMA with 2095 free pages, a high watermark of 40 and 957
 * pages reserved against ZONE_MOVABLE (a 1 GiB node's ZONE_DMA32 over the
 * ratio 256): 997 of them are unusable, 1098 are room.
 *
 * Return: the unusable pages, at most @free.
 */
u64 mmt_zone_unusable(u64 free, u64 high, u64 reserve)
{
	u64 keep = high + reserve;

	if (keep < high)	/* overflow: nothing is usable */
		return free;
	return min(free, keep);
}

/**
 * mmt_free_floor() - the free memory an upper node keeps, in bytes.
 * @unusable:	bytes of its free memory promotion cannot take (the sum of
 *		mmt_zone_unusable() over its zones)
 * @managed:	bytes of the node
 *
 * The unusable bytes, and MMT_WMARK_HEADROOM_BP of the node above them for
 * what others allocate while a quota interval of promotion runs (a process
 * bound to the node, the kernel).  Promotion is admitted only above it
 * (mmt_admit_bytes()); the demotion goal is never below it, so that
 * demotion makes the room promotion is admitted to.
 *
 * Example: a 1 GiB node (262144 pages) with 3500 unusable free pages keeps
 * 3500 + 2621 = 6121 pages free.
 *
 * Return: the floor, at most @managed.
 */
u64 mmt_free_floor(u64 unusable, u64 managed)
{
	u64 floor = unusable + mmt_bp_apply(managed, MMT_WMARK_HEADROOM_BP);

	return min(floor, managed);
}

/**
 * mmt_admit_bytes() - bytes promotion may move into a node now.
 * @free:	the node's free bytes
 * @floor:	its floor, mmt_free_floor()
 *
 * Return: the free bytes above the floor, or 0.
 */
u64 mmt_admit_bytes(u64 free, u64 floor)
{
	return free > floor ? free - floor : 0;
}

/**
 * mmt_admit_quota() - a promoting scheme's quota under admission.
 * @quota_sz:	its quota per quota interval (DAMOS: 0 is no limit)
 * @admit:	bytes admitted now, mmt_admit_bytes()
 * @page_size:	the smallest quota that is not "no limit"
 *
 * A quota interval of promotion moves at most the admitted bytes: DAMOS
 * charges a scheme's quota as it migrates, so the node's free memory stays
 * above the floor whatever the quota was.  Nothing admitted: one page, the
 * least quota DAMOS takes as a limit.
 *
 * Return: the quota to apply, never 0.
 */
unsigned long mmt_admit_quota(unsigned long quota_sz, u64 admit,
			      unsigned long page_size)
{
	u64 sz = quota_sz ? quota_sz : ULONG_MAX;

	sz = min(sz, admit);
	return sz < page_size ? page_size : (unsigned long)sz;
}

/**
 * mmt_counter_delta() - what a cumulative counter counted since @last.
 * @now:	its value now
 * @last:	its value at the last reading
 *
 * A DAMOS scheme's stats count from the scheme's creation: a commit that
 * recreates it starts them from zero again, and @now is then below @last.
 * What it counted since is @now; a plain difference would wrap to nearly
 * 2^64 bytes moved in one period.
 *
 * Return: @now - @last, or @now when the counter started again.
 */
u64 mmt_counter_delta(u64 now, u64 last)
{
	return now >= last ? now - last : now;
}

/**
 * mmt_goal_score() - a quota goal's score in DAMOS's convention.
 *
 * DAMOS scores a goal as current * 10000 / target: 10000 means "on target",
 * less means the scheme should do more, more means it overshoots.
 *
 * Return: 0, or -EINVAL for a zero @target (DAMOS would divide by it).
 */
int mmt_goal_score(unsigned long current_value, unsigned long target,
		   unsigned long *score)
{
	return mmt_bp_of(current_value, target, score);
}

/*
 * DAMON's feedback loop (damon_feed_loop_next_input() of mm/damon/core.c):
 * the next input from the last one and a score whose goal is 10000.
 */
static unsigned long mmt_feed_loop_next(unsigned long last, unsigned long score)
{
	const unsigned long goal = MMT_BP_MAX, min_input = MMT_BP_MAX;
	unsigned long diff, comp;

	if (score == goal)
		return last;
	if (score >= goal * 2)
		return min_input;
	diff = score > goal ? score - goal : goal - score;
	if (last < ULONG_MAX / diff)
		comp = last * diff / goal;
	else
		comp = last / goal * diff;
	if (score > goal)
		return max(last - comp, min_input);
	return last < ULONG_MAX - comp ? last + comp : ULONG_MAX;
}

/**
 * mmt_tune_sample_us() - the next sampling interval, as DAMON's own
 * interval tuning (damon_attrs.intervals_goal, kdamond_tune_intervals())
 * computes it, for kernels that lack it.
 * @sample_us:		the sampling interval now
 * @access_events:	sum over regions of bytes x accesses seen in the last
 *			aggregation
 * @max_events:		the same if every sample had seen an access
 * @goal_bp:		accesses aimed at, in bp of @max_events
 * @min_us:		floor of the result
 * @max_us:		ceiling of the result
 *
 * Fewer accesses than aimed at lengthen the interval (up to twice), more
 * shorten it (down to half).
 *
 * Return: the sampling interval in [@min_us, @max_us].
 */
unsigned long mmt_tune_sample_us(unsigned long sample_us, u64 access_events,
				 u64 max_events, unsigned long goal_bp,
				 unsigned long min_us, unsigned long max_us)
{
	u64 target = mul_u64_u64_div_u64(max_events, goal_bp, MMT_BP_MAX) ?: 1;
	unsigned long score, adapt, next;

	/* twice the goal or more all score the same (and cannot overflow) */
	if (access_events / 2 >= target)
		score = 2 * MMT_BP_MAX;
	else
		score = mul_u64_u64_div_u64(access_events, MMT_BP_MAX, target);
	adapt = mmt_feed_loop_next(100000000, score) / MMT_BP_MAX;
	/* DAMON rescales [1, 10000] to [5000, 10000]: never below half */
	if (adapt <= MMT_BP_MAX)
		adapt = MMT_BP_MAX / 2 + adapt / 2;
	next = sample_us * adapt / MMT_BP_MAX;
	return clamp(next, min_us, max(max_us, min_us));
}

/**
 * mmt_bw_shares() - split 10000 bp among nodes in proportion to bandwidth.
 * @bw:		per-node bandwidth, any unit (HMAT read bandwidth in MB/s)
 * @nr:		number of nodes, 1..MMT_MAX_NODES
 * @share_bp:	result; sums to exactly 10000
 *
 * Each node gets floor(10000 * bw / sum); the few basis points that flooring
 * leaves go one each to the fastest nodes (ties to the lower index).
 * 72 and 26 GB/s give 7347 and 2653 bp.
 *
 * Return: 0; -EINVAL for a bad @nr or a sum that overflows; -ENODATA when a
 * node's bandwidth is unknown (zero): shares must then come from elsewhere.
 */
int mmt_bw_shares(const u64 *bw, int nr, unsigned long *share_bp)
{
	unsigned long left = MMT_BP_MAX;
	bool given[MMT_MAX_NODES] = { };
	u64 sum = 0;
	int i;

	if (nr < 1 || nr > MMT_MAX_NODES)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (!bw[i])
			return -ENODATA;
		if (sum > U64_MAX - bw[i])
			return -EINVAL;
		sum += bw[i];
	}
	for (i = 0; i < nr; i++) {
		mmt_bp_of(bw[i], sum, &share_bp[i]);
		left -= share_bp[i];
	}
	while (left) {
		int best = -1;

		for (i = 0; i < nr; i++)
			if (!given[i] && (best < 0 || bw[i] > bw[best]))
				best = i;
		given[best] = true;
		share_bp[best]++;
		left--;
	}
	return 0;
}

/**
 * mmt_bw_pair_share() - the upper node's share in one lower node's context.
 * @upper_bp:	the upper node's share of the hot memory of all its nodes
 * @low_w:	this lower node's weight among the upper node's lower nodes
 * @lows_w:	the sum of the weights of all of them, @low_w included
 * @share_bp:	result: the upper node's share of the hot memory of the
 *		upper node and this lower node
 *
 * Bandwidth mode runs one context per lower node, over that node and its
 * upper node, and node_eligible_mem_bp measures the upper node's share of
 * the hot memory of those two.  For the upper node to hold u of all the hot
 * memory and the lower nodes the rest in proportion w_i of their weights,
 * context i must hold u / (u + (1 - u) w_i).  With one lower node that is
 * u; with HMAT bandwidths as the weights and u their share, it is
 * bw_up / (bw_up + bw_i), the two-node split of mmt_bw_shares().
 * 6000 bp on the upper node and two equal lower nodes (2000 bp each):
 * 6000 / (6000 + 2000) = 7500 bp in each context.  Rounded down, clamped to
 * MMT_SHARE_MIN_BP..MMT_SHARE_MAX_BP (the deadband).
 *
 * Return: 0; -EINVAL for @upper_bp outside 1..9999, a zero weight, @low_w
 * above @lows_w, or @lows_w above 2^40.
 */
int mmt_bw_pair_share(unsigned long upper_bp, u64 low_w, u64 lows_w,
		      unsigned long *share_bp)
{
	u64 num, den;

	if (!upper_bp || upper_bp >= MMT_BP_MAX || !low_w || low_w > lows_w ||
	    lows_w > (1ULL << 40))
		return -EINVAL;
	/* u * W / (u * W + (1 - u) * w_i), in bp: below 2^54 each */
	num = (u64)upper_bp * lows_w;
	den = num + (u64)(MMT_BP_MAX - upper_bp) * low_w;
	mmt_bp_of(num, den, share_bp);
	*share_bp = clamp_t(unsigned long, *share_bp, MMT_SHARE_MIN_BP,
			    MMT_SHARE_MAX_BP);
	return 0;
}

/* A basis-point target: 1..10000 (zero would be a divisor in DAMOS). */
int mmt_check_bp(unsigned long bp)
{
	return bp >= 1 && bp <= MMT_BP_MAX ? 0 : -EINVAL;
}

/* A migration budget: 1..MMT_QUOTA_MB_MAX MiB/s. */
int mmt_check_quota_mb(unsigned long mb_per_s)
{
	return mb_per_s >= 1 && mb_per_s <= MMT_QUOTA_MB_MAX ? 0 : -EINVAL;
}

/* A control period: 100..60000 ms (shorter than DAMON's sampling is noise). */
int mmt_check_period_ms(unsigned long ms)
{
	return ms >= 100 && ms <= 60000 ? 0 : -EINVAL;
}

/*
 * Bandwidth mode's upper share: 0 (from HMAT) or MMT_SHARE_MIN_BP..
 * MMT_SHARE_MAX_BP: each distribution scheme's goal is its node's share less
 * the deadband, and a goal of 0 bp is no goal (DAMON refuses it).
 */
int mmt_check_share_bp(unsigned long bp)
{
	return !bp || (bp >= MMT_SHARE_MIN_BP && bp <= MMT_SHARE_MAX_BP) ?
	       0 : -EINVAL;
}

/* Nearest node of @want tier to slot @from, a node id; ties: lowest id. */
static int mmt_nearest(const struct mmt_topo *topo,
		       const struct mmt_plan *plan, int from, enum mmt_tier want)
{
	int i, best = -1;

	for (i = 0; i < topo->nr; i++) {
		if (plan->tier[i] != want)
			continue;
		if (best < 0 || topo->dist[from][i] < topo->dist[from][best])
			best = i;
	}
	return best < 0 ? -1 : topo->nid[best];
}

/* True when every memory node has a known abstract distance. */
static bool mmt_all_adist(const struct mmt_topo *topo, int *top)
{
	int i, tier;

	*top = INT_MAX;
	for (i = 0; i < topo->nr; i++) {
		if (topo->adist[i] <= 0)
			return false;
		tier = topo->adist[i] >> MMT_ADIST_CHUNK_BITS;
		if (tier < *top)
			*top = tier;
	}
	return *top != INT_MAX;
}

/**
 * mmt_pick_of() - what the admin's node lists make of one memory node.
 * @in_upper:	the node is in upper_nodes
 * @in_lower:	the node is in lower_nodes
 * @in_skip:	the node is in skip_nodes
 * @any_upper:	upper_nodes names any node
 * @any_lower:	lower_nodes names any node
 *
 * A list that names nodes is the whole of its tier: with upper_nodes set,
 * the other memory nodes are lower (or, with lower_nodes set too, left
 * alone), and the other way round.  skip_nodes are always left alone.
 * The lists must not overlap (the caller refuses that).
 *
 * Return: the node's pick.
 */
enum mmt_pick mmt_pick_of(bool in_upper, bool in_lower, bool in_skip,
			  bool any_upper, bool any_lower)
{
	if (in_skip)
		return MMT_PICK_SKIP;
	if (in_upper)
		return MMT_PICK_UPPER;
	if (in_lower)
		return MMT_PICK_LOWER;
	if (any_upper && any_lower)
		return MMT_PICK_SKIP;
	if (any_upper)
		return MMT_PICK_LOWER;
	if (any_lower)
		return MMT_PICK_UPPER;
	return MMT_PICK_AUTO;
}

/**
 * mmt_plan_tiers() - split memory nodes into tiers and pick targets.
 *
 * When every memory node has an abstract distance (the kernel's memory
 * tiering, e.g. from HMAT), the upper tier is the top memory tier: the nodes
 * whose distance falls in the lowest 128-wide chunk, as memory tiers are
 * formed.  Otherwise the upper tier is the memory nodes with CPUs and the
 * lower tier those without.  A node the admin named (@topo->pick) takes
 * the named tier, or is left alone (MMT_TIER_NONE, no target).  Each lower
 * node promotes to its nearest upper node, each upper node demotes to its
 * nearest lower node (by node distance, ties to the lowest id).  Node ids
 * are only carried: any id works.
 *
 * Return: 0, or -EINVAL when the upper tier is empty (no memory node has
 * CPUs, or none is named or left upper) or @topo->nr is outside
 * 1..MMT_MAX_NODES.  A plan without lower nodes is valid: nr_lower is 0,
 * targets -1.
 */
int mmt_plan_tiers(const struct mmt_topo *topo, struct mmt_plan *plan)
{
	int i, top;
	bool upper;

	plan->nr = 0;
	plan->nr_upper = 0;
	plan->nr_lower = 0;
	if (topo->nr < 1 || topo->nr > MMT_MAX_NODES)
		return -EINVAL;
	plan->nr = topo->nr;
	plan->by_adist = mmt_all_adist(topo, &top);
	for (i = 0; i < topo->nr; i++) {
		plan->nid[i] = topo->nid[i];
		plan->target[i] = -1;
		if (topo->pick[i] == MMT_PICK_SKIP) {
			plan->tier[i] = MMT_TIER_NONE;
			continue;
		}
		if (topo->pick[i] != MMT_PICK_AUTO)
			upper = topo->pick[i] == MMT_PICK_UPPER;
		else if (plan->by_adist)
			upper = topo->adist[i] >> MMT_ADIST_CHUNK_BITS == top;
		else
			upper = topo->has_cpu[i];
		plan->tier[i] = upper ? MMT_TIER_UPPER : MMT_TIER_LOWER;
		if (upper)
			plan->nr_upper++;
		else
			plan->nr_lower++;
	}
	if (!plan->nr_upper)
		return -EINVAL;
	if (!plan->nr_lower)
		return 0;
	for (i = 0; i < topo->nr; i++)
		if (plan->tier[i] != MMT_TIER_NONE)
			plan->target[i] = mmt_nearest(topo, plan, i,
					plan->tier[i] == MMT_TIER_UPPER ?
					MMT_TIER_LOWER : MMT_TIER_UPPER);
	return 0;
}

/* The slot of node @nid in @plan, or -1 when it is not a memory node. */
int mmt_plan_slot(const struct mmt_plan *plan, int nid)
{
	int i;

	for (i = 0; i < plan->nr; i++)
		if (plan->nid[i] == nid)
			return i;
	return -1;
}

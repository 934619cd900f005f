// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: one DAMON context per memory node.
 *
 * An upper-tier node gets a DAMOS_MIGRATE_COLD scheme that demotes its
 * unaccessed pages to its demotion target while the node's free memory is
 * below demote_target_free_bp.  A lower-tier node gets a DAMOS_MIGRATE_HOT
 * scheme that promotes its accessed pages to its promotion target while that
 * target's used memory is below promote_target_used_bp.  This is the
 * TPP-DAMON recipe of samples/damon/mtier.c, for any number of nodes.
 */
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/numa.h>
#include <linux/string.h>

#include "mmt_compat.h"
#include "mmt_ctx.h"
#include "mmt_damon.h"
#include "mmt_hmat.h"

static const struct damon_attrs mmt_attrs = {
	.sample_interval = 5 * USEC_PER_MSEC,
	.aggr_interval = 100 * USEC_PER_MSEC,
	.ops_update_interval = 1 * USEC_PER_SEC,
	/*
	 * At least 100 regions, so that one region spans at most 1 % of the
	 * node.  With mtier's 10, a 1 GiB node has 100 MiB regions: the few
	 * hot pages left among demoted cold ones are then almost never the
	 * sampled page, and the last 2-10 % of a hot set stayed unpromoted.
	 */
	.min_nr_regions = 100,
	.max_nr_regions = 1000,
};

static struct damos *mmt_new_scheme(bool promote, int target,
				    const struct mmt_cfg *cfg,
				    unsigned long reset_ms)
{
	struct damos_access_pattern pattern = {
		.min_sz_region = PAGE_SIZE,
		.max_sz_region = ULONG_MAX,
		/* promote what was accessed at all, demote what was not */
		.min_nr_accesses = promote ? 1 : 0,
		.max_nr_accesses = promote ? UINT_MAX : 0,
		.min_age_region = 0,
		.max_age_region = UINT_MAX,
	};
	struct damos_quota quota = {
		/*
		 * Capacity mode charges the budget per 100 ms rather than per
		 * second, so the on/off goal tuner overshoots a goal by at
		 * most a tenth of a second's budget (20 MiB at 200 MiB/s);
		 * bandwidth mode's distribution schemes per MMT_BW_RESET_MS,
		 * as often as their goal is read.
		 */
		.reset_interval = reset_ms,
		/* the whole budget of one reset interval */
		.sz = mmt_quota_bytes(cfg->quota_mb_per_s, reset_ms),
		.weight_sz = 0,
		.weight_nr_accesses = 100,
		.weight_age = 100,
	};
	struct damos_watermarks wmarks = { .metric = DAMOS_WMARK_NONE };

	/*
	 * The TEMPORAL tuner runs the scheme at the full budget while the goal
	 * is unmet and stops it once met; the default CONSIST tuner grows the
	 * quota from one byte and moved nothing useful in 4 minutes here.
	 */
	mmt_quota_set_temporal(&quota);
	return mmt_call(damon_new_scheme)(&pattern,
			promote ? DAMOS_MIGRATE_HOT : DAMOS_MIGRATE_COLD,
			MMT_QUOTA_INTERVAL_MS * USEC_PER_MSEC, &quota, &wmarks,
			target);
}

/*
 * Node @nid's online memory ranges in address order, the first @max of
 * them into @r.  Return: how many there are.
 */
static int mmt_node_walk(int nid, struct damon_addr_range *r, int max)
{
	unsigned long start = node_start_pfn(nid), end = node_end_pfn(nid);
	unsigned long pfn, last_end = 0;
	int nr = 0;

	for (pfn = ALIGN_DOWN(start, PAGES_PER_SECTION); pfn < end;
	     pfn += PAGES_PER_SECTION) {
		unsigned long s = max(pfn, start);
		unsigned long e = min(pfn + PAGES_PER_SECTION, end);
		struct page *page = pfn_to_online_page(s);

		if (!page || page_to_nid(page) != nid)
			continue;
		if (!nr || last_end != PFN_PHYS(s)) {
			if (nr < max)
				r[nr].start = PFN_PHYS(s);
			nr++;
		}
		if (nr <= max)
			r[nr - 1].end = PFN_PHYS(e);
		last_end = PFN_PHYS(e);
	}
	return nr;
}

/**
 * mmt_node_ranges() - node @nid's online memory as physical address ranges
 * @nid:	the memory node
 * @rs:	filled in address order, as many ranges as there are
 *
 * Found a memory section at a time over the node's span: holes, offline
 * memory blocks and other nodes' sections inside the span are not the
 * node's memory and are left out (DAMON would count them as idle bytes and
 * the controller as room; in bandwidth mode the regions of two nodes must
 * not overlap).  Process context (allocates).
 *
 * Return: 0, or -ENOMEM (then @rs is empty).  Free with mmt_ranges_free().
 */
int mmt_node_ranges(int nid, struct mmt_ranges *rs)
{
	int want = 8, nr;

	for (;;) {
		rs->r = kmalloc_array(want, sizeof(*rs->r), GFP_KERNEL);
		if (!rs->r) {
			rs->nr = 0;
			return -ENOMEM;
		}
		nr = mmt_node_walk(nid, rs->r, want);
		if (nr <= want)
			break;
		/* more than room for: again with room for all (and growth) */
		kfree(rs->r);
		want = nr + 8;
	}
	rs->nr = nr;
	return 0;
}

void mmt_ranges_free(struct mmt_ranges *rs)
{
	kfree(rs->r);
	rs->r = NULL;
	rs->nr = 0;
}

bool mmt_ranges_equal(const struct mmt_ranges *a, const struct mmt_ranges *b)
{
	return a->nr == b->nr &&
	       (!a->nr || !memcmp(a->r, b->r, a->nr * sizeof(*a->r)));
}

/**
 * mmt_bytes_on_node() - bytes of physical range [@start, @end) that are
 * online memory of node @nid, found a memory section at a time as
 * mmt_node_ranges() does.  Takes no lock (kdamond context).
 */
unsigned long mmt_bytes_on_node(unsigned long start, unsigned long end,
				int nid)
{
	unsigned long pfn = ALIGN_DOWN(PHYS_PFN(start), PAGES_PER_SECTION);
	unsigned long bytes = 0;

	for (; PFN_PHYS(pfn) < end; pfn += PAGES_PER_SECTION) {
		unsigned long s = max(PFN_PHYS(pfn), start);
		unsigned long e = min(PFN_PHYS(pfn + PAGES_PER_SECTION), end);
		struct page *page = pfn_to_online_page(PHYS_PFN(s));

		if (page && page_to_nid(page) == nid)
			bytes += e - s;
	}
	return bytes;
}

/* Reject filters: pages of @skip (already on the target), pages not young. */
static int mmt_bw_filters(struct damos *s, const struct mmt_ranges *skip)
{
	struct damos_filter *f;
	int i;

	for (i = 0; i < skip->nr; i++) {
		f = mmt_new_reject_filter(DAMOS_FILTER_TYPE_ADDR, true);
		if (!f)
			return -ENOMEM;
		f->addr_range = skip->r[i];
		mmt_call(damos_add_filter)(s, f);
	}
	f = mmt_new_reject_filter(DAMOS_FILTER_TYPE_YOUNG, false);
	if (!f)
		return -ENOMEM;
	mmt_call(damos_add_filter)(s, f);
	mmt_filters_default_allow(s);
	return 0;
}

/*
 * The two distribution schemes of mmt_bw_schemes(), each with its goal and
 * the filters that skip the pages already on its target.
 */
static int mmt_bw_add_schemes(struct damon_ctx *ctx, int nid, int upper,
			      unsigned long share, const struct mmt_cfg *cfg,
			      const struct mmt_ranges *r_up,
			      const struct mmt_ranges *r_low)
{
	struct damos *schemes[2];
	int i, err;

	for (i = 0; i < 2; i++) {
		schemes[i] = mmt_new_scheme(true, i ? nid : upper, cfg,
					    MMT_BW_RESET_MS);
		if (!schemes[i]) {
			/* the context owns what it holds; the caller frees it */
			mmt_call(damon_set_schemes)(ctx, schemes, i);
			return -ENOMEM;
		}
	}
	mmt_call(damon_set_schemes)(ctx, schemes, 2);
	for (i = 0; i < 2; i++) {
		bool up = i == 0;
		struct damos_quota_goal *g;

		g = mmt_call(damos_new_quota_goal)(
				mmt_goal_damos_metric(MMT_GOAL_ELIGIBLE_BP),
				(up ? share : MMT_BP_MAX - share) -
				MMT_BW_DEADBAND_BP);
		if (!g)
			return -ENOMEM;
		mmt_goal_set_nid(g, up ? upper : nid);
		mmt_call(damos_add_quota_goal)(&schemes[i]->quota, g);
		err = mmt_bw_filters(schemes[i], up ? r_up : r_low);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Bandwidth mode, the context of lower node @nid: it monitors @nid and its
 * upper node @upper together (one target, both nodes' ranges), so that
 * node_eligible_mem_bp -- computed over a context's own regions -- sees the
 * whole hot set.  Two migrate_hot schemes share the hot pattern: one moves
 * hot pages of @nid up until @upper holds its share of them, the other moves
 * hot pages of @upper down until @nid holds the rest.  Each stops within
 * MMT_BW_DEADBAND_BP of its share, so that at the target neither runs.
 * With several lower nodes behind @upper (@lowers), each context splits
 * its own two nodes (mmt_upper_share()); together they split the whole.
 */
static int mmt_bw_schemes(struct damon_ctx *ctx, struct damon_target *t,
			  int nid, int upper, const nodemask_t *lowers,
			  const struct mmt_cfg *cfg,
			  const struct mmt_ranges *r_low)
{
	struct damon_addr_range *ranges;
	struct mmt_ranges r_up;
	unsigned long share;
	int i, j, k, err;

	err = mmt_upper_share(upper, nid, lowers, cfg, &share);
	if (err)
		return err;
	err = mmt_node_ranges(upper, &r_up);
	if (err)
		return err;
	ranges = kmalloc_array(r_low->nr + r_up.nr, sizeof(*ranges),
			       GFP_KERNEL);
	if (!ranges) {
		mmt_ranges_free(&r_up);
		return -ENOMEM;
	}
	/* both nodes' ranges merged in address order (they never overlap) */
	for (i = j = k = 0; i < r_low->nr || j < r_up.nr; k++) {
		if (j == r_up.nr || (i < r_low->nr &&
				     r_low->r[i].start < r_up.r[j].start))
			ranges[k] = r_low->r[i++];
		else
			ranges[k] = r_up.r[j++];
	}
	/* replaces the single-node regions set by the caller */
	err = mmt_set_regions(t, ranges, k);
	kfree(ranges);
	if (!err)
		err = mmt_bw_add_schemes(ctx, nid, upper, share, cfg, &r_up,
					 r_low);
	mmt_ranges_free(&r_up);
	return err;
}

/**
 * mmt_node_pages() - pages of node @nid's populated zones: managed, free,
 * the sum of their high watermarks, and the free pages a promotion cannot
 * take.  The one zone walk of the module; lock-free (kdamond context).
 *
 * A promotion allocates as a movable user page would (GFP_HIGHUSER_MOVABLE):
 * from each zone only above its high watermark (below it kswapd wakes, and
 * kernel allocations, which only the node's lower zones can serve when its
 * other memory is ZONE_MOVABLE, run short) and above what the zone keeps
 * back from allocations that could use a higher zone (lowmem_reserve[] for
 * the highest zone a movable allocation may use) or for high-order atomic
 * ones.  The same rule as the kernel's watermark check, read at one time.
 *
 * Free pages are the zones' NR_FREE_PAGES, as the watermark check counts
 * them, without those waiting on the CPUs' free lists: the pages demotion
 * frees wait there (on a CPU that frees many, towards an eighth of the
 * zone) and promotion, allocating on another CPU, cannot take them.
 * Counted as free, admission let promotion take the zones' own free pages
 * in their place, and the OOM killer took the process filling a node whose
 * other memory was ZONE_MOVABLE.  Demotion then stops above its goal by
 * what the lists held, which reaches the node's free pages as they drain.
 */
void mmt_node_pages(int nid, struct mmt_pages *pages)
{
	enum zone_type movable = gfp_zone(GFP_HIGHUSER_MOVABLE);
	pg_data_t *pgdat = NODE_DATA(nid);
	int z;

	memset(pages, 0, sizeof(*pages));
	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		u64 free, reserve;

		if (!populated_zone(zone))
			continue;
		free = zone_page_state(zone, NR_FREE_PAGES);
		reserve = max(READ_ONCE(zone->lowmem_reserve[movable]), 0L) +
			  READ_ONCE(zone->nr_reserved_highatomic);
		pages->managed += zone_managed_pages(zone);
		pages->free += free;
		pages->high += high_wmark_pages(zone);
		pages->unusable += mmt_zone_unusable(free,
						     high_wmark_pages(zone),
						     reserve);
	}
}

/**
 * mmt_node_floor() - the free pages a node keeps from promotion, and the
 * least its demotion goal asks for: mmt_free_floor() of its zones' pages.
 */
u64 mmt_node_floor(const struct mmt_pages *pages)
{
	return mmt_free_floor(pages->unusable, pages->managed);
}

/**
 * mmt_node_goals() - effective goals of upper node @nid under @cfg.
 *
 * Reads the node's managed pages and zone high watermarks; the arithmetic
 * and its reasons are in mmt_effective_goals().
 */
int mmt_node_goals(int nid, const struct mmt_cfg *cfg, struct mmt_goals *goals)
{
	struct mmt_pages pages;

	mmt_node_pages(nid, &pages);
	return mmt_effective_goals(cfg->promote_target_used_bp,
				   cfg->demote_target_free_bp, pages.managed,
				   pages.high, goals);
}

/* Every region, whatever its size, accesses and age. */
static const struct damos_access_pattern mmt_any_pattern = {
	.min_sz_region = PAGE_SIZE,
	.max_sz_region = ULONG_MAX,
	.min_nr_accesses = 0,
	.max_nr_accesses = UINT_MAX,
	.min_age_region = 0,
	.max_age_region = UINT_MAX,
};

/*
 * The priming walk: a page that nobody has checked since it was last
 * touched counts as young (its idle flag is clear), and after a load most
 * pages are such, however long ago they were touched.  The young filters
 * of the first walk would then promote every page they see and demote
 * none, and demotion would start only at its second walk over the node
 * (seconds, and more as nodes grow).  This scheme young-checks every page
 * of the node once, MMT_PRIME_MB_PER_INTERVAL at a time, which leaves the
 * pages old; then it stops.  DAMOS_STAT: it moves nothing and does not
 * reset the regions' age.  Its filter is added once the context owns it.
 * NULL where the kernel cannot stop a scheme (mmt_compat.h) or out of
 * memory.
 */
static struct damos *mmt_prime_scheme(void)
{
	struct damos_access_pattern pattern = mmt_any_pattern;
	struct damos_quota quota = {
		.reset_interval = MMT_QUOTA_INTERVAL_MS,
		.sz = MMT_PRIME_MB_PER_INTERVAL * SZ_1M,
	};
	struct damos_watermarks wmarks = { .metric = DAMOS_WMARK_NONE };
	struct damos *s;

	if (!MMT_PRIME)
		return NULL;
	s = mmt_call(damon_new_scheme)(&pattern, DAMOS_STAT,
			MMT_QUOTA_INTERVAL_MS * USEC_PER_MSEC, &quota, &wmarks,
			NUMA_NO_NODE);
	if (s)
		mmt_scheme_once(s);
	return s;
}

/* Reject filter @type (matching @matching) on @s; a memcg one for @id. */
static int mmt_reject(struct damos *s, enum damos_filter_type type,
		      bool matching, u64 id)
{
	struct damos_filter *f = mmt_new_reject_filter(type, matching);

	if (!f)
		return -ENOMEM;
	if (type == DAMOS_FILTER_TYPE_MEMCG)
		mmt_filter_set_memcg(f, id);
	mmt_call(damos_add_filter)(s, f);
	/* reject filters only: what none matches is allowed (mmt_compat.h) */
	mmt_filters_default_allow(s);
	return 0;
}

/* A goal of @metric (mmt_compat.h) on node @nid for @s, at @target. */
static int mmt_add_goal(struct damos *s, enum mmt_goal_metric metric,
			int nid, unsigned long target)
{
	struct damos_quota_goal *g;

	g = mmt_call(damos_new_quota_goal)(mmt_goal_damos_metric(metric),
					   target);
	if (!g)
		return -ENOMEM;
	mmt_goal_set_nid(g, nid);
	/* a switch starts met: the scheme is off until switched on */
	if (metric == MMT_GOAL_SWITCH)
		g->current_value = target;
	mmt_call(damos_add_quota_goal)(&s->quota, g);
	return 0;
}

/* A goal on cgroup @id's memory of node @nid (its used or free bp). */
static int mmt_add_memcg_goal(struct damos *s, bool used, int nid, u64 id,
			      unsigned long target)
{
	struct damos_quota_goal *g;

	g = mmt_call(damos_new_quota_goal)(DAMOS_QUOTA_USER_INPUT, target);
	if (!g)
		return -ENOMEM;
	mmt_goal_set_memcg(g, used, nid, id);
	mmt_call(damos_add_quota_goal)(&s->quota, g);
	return 0;
}

/*
 * Class @i's schemes of @nid's context (mmt_ctx.h), owned
 * by the context: on a lower node one that promotes the class's young
 * pages into @target while the class holds less than @goal_bp of it,
 * whatever the target's own promotion goal; on an upper node one that
 * demotes its pages that are not young while it holds more than its goal
 * and the band (mmt_class_demote_free_bp()) and the node is below its free
 * goal, and the room scheme.
 */
static int mmt_class_config(struct damos **s, bool promote, int nid,
			    int target, const struct mmt_cfg *cfg, int i,
			    unsigned long goal_bp,
			    const struct mmt_goals *goals)
{
	u64 id = cfg->class_id[i];
	int j;

	/* DAMON refuses a goal of 0 at a commit */
	goal_bp = max(goal_bp, 1UL);
	/*
	 * the memcg filter first: DAMOS stops at the first filter that
	 * matches, and the young check clears the accessed bits of the pages
	 * it checks, which other schemes read
	 */
	if (promote)
		return mmt_reject(s[0], DAMOS_FILTER_TYPE_MEMCG, false, id) ?:
		       mmt_reject(s[0], DAMOS_FILTER_TYPE_YOUNG, false, 0) ?:
		       mmt_add_memcg_goal(s[0], true, target, id, goal_bp);
	if (mmt_reject(s[0], DAMOS_FILTER_TYPE_MEMCG, false, id) ||
	    mmt_reject(s[0], DAMOS_FILTER_TYPE_YOUNG, true, 0) ||
	    mmt_add_memcg_goal(s[0], false, nid, id,
			       max(mmt_class_demote_free_bp(goal_bp), 1UL)) ||
	    mmt_add_goal(s[0], MMT_GOAL_FREE_BP, nid, goals->free_bp))
		return -ENOMEM;
	for (j = 0; j < cfg->nr_classes; j++)
		if (mmt_reject(s[1], DAMOS_FILTER_TYPE_MEMCG, true,
			       cfg->class_id[j]))
			return -ENOMEM;
	/* off (met) until a lower node's kdamond says the class waits */
	return mmt_add_goal(s[1], MMT_GOAL_SWITCH, nid, MMT_BP_MAX) ?:
	       mmt_add_memcg_goal(s[1], true, nid, id, goal_bp) ?:
	       mmt_add_goal(s[1], MMT_GOAL_FREE_BP, nid,
			    goals->free_bp + MMT_CLASS_ROOM_BP);
}

/* A capacity-mode migrating scheme (mmt_new_scheme()). */
static struct damos *mmt_migrator(bool promote, int target,
				  const struct mmt_cfg *cfg)
{
	struct damos *s = mmt_new_scheme(promote, target, cfg,
					 MMT_QUOTA_INTERVAL_MS);

	/* walk more than it moves: a page's "young" is then recent (compat) */
	if (s)
		mmt_quota_fail_charge(&s->quota, promote ?
				      MMT_FAIL_CHARGE_PROMOTE :
				      MMT_FAIL_CHARGE_DEMOTE);
	return s;
}

/*
 * The room a class waits for: while class @c holds less than its goal of
 * upper node @nid and has young pages waiting on a lower node
 * (mmt_kdamond.c sets the switch goal), this scheme demotes the node's
 * accessed memory of no class, least accessed first, into @target (the
 * node's own demotion target) until the node's free memory is
 * MMT_CLASS_ROOM_BP above the floor promotion keeps.  Pages of any class
 * are rejected.  Regions read as never accessed are left to the node's own
 * demotion, which keeps the floor: DAMOS walks a quota's worth of the
 * coldest regions only, and memory that cannot move (free huge pages,
 * kernel memory) reads coldest of all, so a walk that included them would
 * never reach the memory that can make the room.  Otherwise the node's
 * own demotion: its budget, its charge for what does not move.
 */
static struct damos *mmt_room_scheme(int target, const struct mmt_cfg *cfg)
{
	struct damos *s = mmt_migrator(false, target, cfg);

	if (s) {
		s->pattern.min_nr_accesses = 1;
		s->pattern.max_nr_accesses = UINT_MAX;
	}
	return s;
}

/*
 * A capacity-mode context's schemes into @s, not yet configured, the
 * classes' from @base on (mmt_ctx.h).  Return: how many were
 * allocated (fewer than wanted: out of memory).
 */
static int mmt_capacity_alloc(bool promote, int target,
			      const struct mmt_cfg *cfg, struct damos **s,
			      int *base)
{
	int per = promote ? 1 : 2, nr = 0, i;

	s[nr] = mmt_migrator(promote, target, cfg);
	if (!s[nr])
		return 0;
	/* the migrating scheme first: the module's state follows it */
	s[++nr] = mmt_prime_scheme();
	if (s[nr])
		nr++;
	*base = nr;
	for (i = 0; i < cfg->nr_classes * per; i++) {
		s[nr] = i % per ? mmt_room_scheme(target, cfg) :
			mmt_migrator(promote, target, cfg);
		if (!s[nr])
			break;
		nr++;
	}
	return nr;
}

/*
 * Capacity mode: promotion (@promote) into @target until its used memory
 * reaches the goal, or demotion of @nid's cold pages until its free memory
 * does; the priming walk; each class's schemes (mmt_ctx.h).
 * Return: 0 or -ENOMEM (the context owns what it holds).
 */
static int mmt_capacity_schemes(struct damon_ctx *ctx, int nid, bool promote,
				int target, const struct mmt_cfg *cfg,
				const struct mmt_goals *goals)
{
	struct damos *schemes[MMT_MAX_SCHEMES];
	unsigned long class_goal[MMT_MAX_CLASSES];
	int per = promote ? 1 : 2, base = 0, nr, i, err;

	nr = mmt_capacity_alloc(promote, target, cfg, schemes, &base);
	if (!nr)
		return -ENOMEM;
	mmt_call(damon_set_schemes)(ctx, schemes, nr);
	if (nr < base + cfg->nr_classes * per)
		return -ENOMEM;
	if (base > 1) {
		/* the check of a young page clears its accessed bits */
		err = mmt_reject(schemes[1], DAMOS_FILTER_TYPE_YOUNG, true, 0);
		if (err)
			return err;
	}

	/* promotion fills its target, demotion frees its own node */
	err = mmt_add_goal(schemes[0], promote ? MMT_GOAL_USED_BP :
			   MMT_GOAL_FREE_BP, promote ? target : nid,
			   promote ? goals->used_bp : goals->free_bp);
	/*
	 * the classes' pages leave an upper node by their own schemes only;
	 * before the young filter, whose check would clear their accessed
	 * bits (mmt_class_config())
	 */
	for (i = 0; !err && !promote && i < cfg->nr_classes; i++)
		err = mmt_reject(schemes[0], DAMOS_FILTER_TYPE_MEMCG, true,
				 cfg->class_id[i]);
	/*
	 * promote only pages seen young, never demote a young page: reject
	 * the pages that are not young, or those that are (a reject filter
	 * means the same whatever the unmatched default is)
	 */
	if (!err)
		err = mmt_reject(schemes[0], DAMOS_FILTER_TYPE_YOUNG, !promote,
				 0);
	mmt_class_goals(cfg->class_share_bp, cfg->nr_classes, goals->used_bp,
			class_goal);
	for (i = 0; !err && i < cfg->nr_classes; i++)
		err = mmt_class_config(schemes + base + i * per, promote, nid,
				       target, cfg, i, class_goal[i], goals);
	return err;
}

/**
 * mmt_build_ctx() - a paddr DAMON context for node @nid, not started.
 * @nid:	the memory node monitored (its online memory, mmt_node_ranges())
 * @tier:	MMT_TIER_UPPER (demotes) or MMT_TIER_LOWER (promotes)
 * @target:	node that pages migrate to
 * @lowers:	(lower tier) the lower nodes that promote into @target, @nid
 *		among them: bandwidth mode's shares
 * @cfg:	validated inputs
 *
 * Return: the context, or an ERR_PTR(): -EINVAL for an invalid node or
 * (bandwidth mode) no share, -ENOMEM.
 */
struct damon_ctx *mmt_build_ctx(int nid, enum mmt_tier tier, int target,
				const nodemask_t *lowers,
				const struct mmt_cfg *cfg)
{
	bool promote = tier == MMT_TIER_LOWER;
	struct mmt_ranges ranges = { };
	struct mmt_goals goals;
	struct damon_target *t;
	struct damon_attrs attrs;
	struct damon_ctx *ctx;
	int err = -ENOMEM;

	if (nid < 0 || nid >= nr_node_ids || !node_state(nid, N_MEMORY) ||
	    target < 0 || target >= nr_node_ids ||
	    !node_state(target, N_MEMORY))
		return ERR_PTR(-EINVAL);
	/* both goals are about the upper node of the pair */
	if (mmt_node_goals(promote ? target : nid, cfg, &goals))
		return ERR_PTR(-EINVAL);

	ctx = mmt_call(damon_new_ctx)();
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	attrs = mmt_attrs;
	/*
	 * Auto-tune sampling and aggregation intervals aiming at 4 % observed
	 * accesses within 3 aggregations, sampling in [5 ms, 10 s]: the seed
	 * recipe's --monitoring_intervals_goal 4% 3 5ms 10s.
	 */
	mmt_attrs_intervals_goal(&attrs, MMT_TUNE_ACCESS_BP, MMT_TUNE_AGGRS,
				 MMT_MIN_SAMPLE_US, MMT_MAX_SAMPLE_US);
	if (mmt_call(damon_set_attrs)(ctx, &attrs))
		goto fail;
	if (mmt_call(damon_select_ops)(ctx, DAMON_OPS_PADDR))
		goto fail;

	t = mmt_call(damon_new_target)();
	if (!t)
		goto fail;
	mmt_call(damon_add_target)(ctx, t);
	if (mmt_node_ranges(nid, &ranges))
		goto fail;
	if (!ranges.nr || mmt_set_regions(t, ranges.r, ranges.nr))
		goto fail;

	if (promote && cfg->bandwidth)
		err = mmt_bw_schemes(ctx, t, nid, target, lowers, cfg,
				     &ranges);
	else
		err = mmt_capacity_schemes(ctx, nid, promote, target, cfg,
					   &goals);
	if (err)
		goto fail;
	mmt_ranges_free(&ranges);
	return ctx;
fail:
	mmt_ranges_free(&ranges);
	mmt_call(damon_destroy_ctx)(ctx);
	return ERR_PTR(err);
}

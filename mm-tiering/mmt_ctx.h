/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_tiering: building DAMON contexts for one memory node.
 */
#ifndef _MMT_CTX_H
#define _MMT_CTX_H

#include <linux/damon.h>
#include <linux/nodemask.h>

#include "mmt_class.h"
#include "mmt_logic.h"
#include "mmt_params.h"

/* Quota and apply period of every scheme, in milliseconds. */
#define MMT_QUOTA_INTERVAL_MS	100
/*
 * Bytes a capacity-mode scheme walks but does not migrate (filtered: not
 * young on promotion, young on demotion) are charged to its quota at a
 * fraction, where the kernel can (mmt_quota_fail_charge()).  The walk then
 * comes back to a page sooner, and the young filter's window (the time
 * since the page's accessed bit was last cleared) shrinks.  Promotion walks
 * fast: a page young within a short window is hot.  Demotion walks slower:
 * a page idle for a longer window is cold, and warm pages are not swapped
 * for warm ones.  Chosen on the bench's zipf and tail
 * (Documentation/bench.rst).
 */
#define MMT_FAIL_CHARGE_PROMOTE	32
#define MMT_FAIL_CHARGE_DEMOTE	8
/*
 * The priming walk (mmt_prime_scheme()): bytes it young-checks per quota
 * interval, so that a kdamond never blocks on a whole node in one pass.
 */
#define MMT_PRIME_MB_PER_INTERVAL	128
/* Floor of DAMON's self-tuned sampling interval, in microseconds. */
#define MMT_MIN_SAMPLE_US	5000
/* ... and its ceiling */
#define MMT_MAX_SAMPLE_US	10000000
/*
 * DAMON's interval tuning aims at this share of the possible accesses
 * seen, in bp, re-tuning every MMT_TUNE_AGGRS aggregations.
 */
#define MMT_TUNE_ACCESS_BP	400
#define MMT_TUNE_AGGRS		3

/*
 * Bandwidth mode: the distribution schemes' goals are evaluated and their
 * quota charged once a second (node_eligible_mem_bp reads every folio of the
 * hot regions); MMT_BW_DEADBAND_BP (mmt_logic.h) around the target share.
 */
#define MMT_BW_RESET_MS		1000

/*
 * A context's schemes in capacity mode: the node's own (index 0), the
 * priming walk where the kernel has it, then each class's (mmt_class.h):
 * on a lower node its promotion; on an upper node its demotion and the
 * room scheme, which demotes memory of no class while the class waits for
 * room.  A class waits while its promotion moved pages in the last
 * MMT_CLASS_WAIT_JIFFIES and it is below its goal; the room scheme then
 * keeps the upper node's free memory MMT_CLASS_ROOM_BP above the floor
 * promotion is admitted to.
 */
#define MMT_MAX_SCHEMES		(2 + 2 * MMT_MAX_CLASSES)
#define MMT_CLASS_WAIT_JIFFIES	(2 * HZ)
#define MMT_CLASS_ROOM_BP	300UL

/* Pages of a node's populated zones (mmt_node_pages()). */
struct mmt_pages {
	u64 managed;
	u64 free;
	u64 high;	/* sum of the zones' high watermarks */
	/* of @free, what promotion must leave (mmt_zone_unusable()) */
	u64 unusable;
};

/*
 * A node's online memory as address ranges, as many as it has
 * (mmt_node_ranges()); @r is allocated, freed with mmt_ranges_free().
 */
struct mmt_ranges {
	int nr;
	struct damon_addr_range *r;
};

int mmt_node_ranges(int nid, struct mmt_ranges *rs);
void mmt_ranges_free(struct mmt_ranges *rs);
bool mmt_ranges_equal(const struct mmt_ranges *a, const struct mmt_ranges *b);
void mmt_node_pages(int nid, struct mmt_pages *pages);
u64 mmt_node_floor(const struct mmt_pages *pages);
unsigned long mmt_bytes_on_node(unsigned long start, unsigned long end,
				int nid);
int mmt_node_goals(int nid, const struct mmt_cfg *cfg,
		   struct mmt_goals *goals);
struct damon_ctx *mmt_build_ctx(int nid, enum mmt_tier tier, int target,
				 const nodemask_t *lowers,
				 const struct mmt_cfg *cfg);

#endif /* _MMT_CTX_H */

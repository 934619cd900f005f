// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering controller laws.
 *
 * Model.  An upper node U and the lower nodes that promote into it form one
 * tier pair.  Per control period (about a second) the pair moves P bytes up
 * (promotion) and D bytes down (demotion).  U's free memory follows
 *
 *	free(t + 1) = free(t) + D(t) - P(t) - other(t)
 *
 * where other(t) is whatever the rest of the system allocates on U.  The
 * demotion goal is a free level F; promotion may fill U up to it.
 *
 * Strategy.
 *
 * 1. Step law (mmt_pi_step).  The demotion budget of the next period is a
 *    PI law on the shortfall e = F - free, clamped to [0, budget]: with
 *    kp = 1 it demotes exactly the shortfall (what an oracle would), far
 *    from the goal it saturates at the budget (as fast as allowed), near it
 *    the step shrinks with the error (no overshoot).  The integral term
 *    removes the offset left by a steady other(t) or promotion.  Anti-windup:
 *    the integral does not grow while the output is saturated in the
 *    direction of the error, nor while the goal is raised for promotion
 *    (a transient, not an offset; it may still shrink towards zero), and
 *    |integral| is bounded, so a long saturated start (e.g. 15 minutes of
 *    an unreachable goal) does not keep the law saturated once the goal
 *    becomes reachable, nor does a fill's integral outlive it.  While
 *    hot bytes wait for room, demotion's quota runs at the whole budget
 *    instead (mmt_step's demote_rate), and the goal, raised by them and
 *    checked every quota interval, is what stops it.  The raise is the
 *    share of them promotion would take: the waiting bytes are whole
 *    regions', and promotion's last walk measured how many of the bytes
 *    it tried were young (mmt_young_share()).
 *
 * 2. Ping-pong damping (mmt_pingpong_update).  DAMON does not say which
 *    pages it moved, so ping-pong is bounded from volumes: within a window
 *    of MMT_PP_WINDOW periods, a legitimate exchange (a new hot set
 *    promoted, cold pages demoted to make room) never needs to move more
 *    than the upper node's capacity C each way.  If both directions moved
 *    more than C, at least min(sum P, sum D) - C bytes were moved twice:
 *    that is ping-pong, and the detector trips.  It also trips on churn
 *    below that volume: a window in which nearly every period moved pages
 *    both ways (a legitimate exchange is a burst after a shift, churn never
 *    stops while the pattern stands still).  Each trip raises a damping
 *    level (the caller widens the gap between hot and cold thresholds and
 *    halves the budget per level, mmt_pp_budget) and starts a fresh window;
 *    relax_periods quiet periods in a row lower it by one: hysteresis, so
 *    that it neither flaps nor stays damped forever.
 *
 * 3. Static back-off (mmt_backoff_update).  When placement has converged
 *    (idle_periods periods in a row moving less than idle_bytes while the
 *    demand stays under wake_bytes) the caller cuts the migration budget and
 *    monitoring cost; one period whose demand reaches wake_bytes resumes.
 *
 * 4. Heat and the promotion threshold (mmt_heat_bucket, mmt_pick_heat).
 *    The static recipe promotes what was "accessed at all" and demotes
 *    what was "not accessed": on a full upper node under a long tail of
 *    lukewarm accesses that swaps lukewarm pages for lukewarm pages, and
 *    they come back a minute later.  Each region gets a heat: its accessed
 *    samples per second, estimated as p / ((1 - p) S) from the share p of
 *    samples that saw an access in an interval S (Poisson accesses give
 *    p = 1 - e^(-rate S), and -ln(1 - p) >= p / (1 - p) would be exact),
 *    bucketed by powers of two (MMT_NR_HEAT buckets, 0 = never seen).  Per
 *    second, contexts that sample every 5 ms and every second compare.  The
 *    threshold T is the lowest bucket whose bytes on the lower nodes fit in
 *    the room plus the upper node's bytes colder than T - gap: promotion
 *    then only displaces colder pages, by a margin of gap buckets (1 plus
 *    the damping level), and demotion is limited to buckets below T - gap.
 *    With room to spare T = 1: everything accessed comes up (fast start).
 *    Idle regions of the upper node (not seen accessed for MMT_IDLE_US,
 *    mmt_region_idle) count as colder than any bucket, with no margin:
 *    what was seen accessed at all may displace them.
 *
 * Worked example.  Budget 20 MiB per period, F = 60 MiB, free = 0,
 * kp = 1.0, ki = 0.1, nothing else allocating.  Period 1: e = 60, the law
 * asks 60 + 6 = 66, which is saturated in the direction of e, so the 60 is
 * not integrated and the output is 20 MiB.  Periods 2 and 3 (e = 40, 20)
 * likewise give 20 MiB each.  Period 4: e = 0, output 0.  The goal is
 * reached in three periods and not exceeded.  Had the law integrated while
 * saturated, period 4 would still ask 0 + 0.1 * 120 = 12 MiB: a 12 MiB
 * overshoot, and more after a longer saturated start.
 *
 * Worked example of the threshold.  The upper node is full (room 0) and
 * holds 300 MiB never seen accessed (bucket 0) and 700 MiB at bucket 8; the
 * lower node holds a 50 MiB lukewarm tail at bucket 1 and a 100 MiB hot set
 * at bucket 4; gap 1.  T = 1 would need all 150 MiB to fit in room 0 plus
 * the upper node's bytes colder than bucket 0: nothing, no.  T = 2 needs the
 * 100 MiB at bucket 2 or above to fit in the 300 MiB below bucket 1: yes.
 * The hot set comes up displacing idle pages; the tail stays (KUnit
 * mmt_pick_heat_test).
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "mmt_ctl.h"
#include "mmt_logic.h"

/* PI gains on the distance to the demotion goal: 1.0 (deadbeat), 0.1. */
#define MMT_KP_MILLI		1000
#define MMT_KI_MILLI		100
/*
 * Bandwidth mode: gain on the share error (in bytes), no integral.  The
 * share is measured once a second and acted on over the next, a delay in
 * the loop: a deadbeat gain oscillates (measured +-4 % around the target),
 * 0.4 without integral settles.
 */
#define MMT_BW_KP_MILLI		400
/* Ping-pong: a period moving under 1 MiB either way is quiet ... */
#define MMT_PP_MIN_BYTES	(1ULL << 20)
/* ... 30 quiet periods in a row relax one level ... */
#define MMT_PP_RELAX		30
/* ... and 28 of 32 periods moving both ways is churn (a shift is a burst). */
#define MMT_PP_BUSY		28
/* Back-off: 10 periods moving under 1/256 of the budget each ... */
#define MMT_BO_IDLE_PERIODS	10
#define MMT_BO_IDLE_SHIFT	8
/*
 * ... ends when hot bytes waiting (or a shortfall) reach 1/16 of it: a new
 * hot set is far more, and DAMON's noise on a static one (a few MiB of
 * regions flickering hot) does not wake it.
 */
#define MMT_BO_WAKE_SHIFT	4
/* The smallest amount a law deals in: one (4 KiB) page. */
#define MMT_MIN_BYTES		4096ULL

/* Errors are clamped to +-2^45 bytes (32 TiB) so gain products fit s64. */
#define MMT_ERR_MAX	(1LL << 45)

/**
 * mmt_pi_step() - next output of a PI law with anti-windup.
 * @pi:		gains and state; gains in 1/1000, at most 10000 (10.0)
 * @err:	error of this period (goal minus measure), in bytes
 * @lo:		lowest output
 * @hi:		highest output (>= @lo)
 *
 * Return: the output, within [@lo, @hi].
 */
s64 mmt_pi_step(struct mmt_pi *pi, s64 err, s64 lo, s64 hi)
{
	s64 p, u, integ;

	err = clamp(err, -MMT_ERR_MAX, MMT_ERR_MAX);
	p = div_s64(pi->kp_milli * err, 1000);
	integ = clamp(pi->integ + err, -pi->integ_max, pi->integ_max);
	u = p + div_s64(pi->ki_milli * integ, 1000);
	/*
	 * saturated the error's way, or a transient error: integrate only
	 * towards zero.  Holding the integral there (plain conditional
	 * integration) kept the one a fill banked for minutes of free memory
	 * far above the goal: 20 MiB more demoted at every later exchange
	 * (perturb).
	 */
	if ((u > hi || pi->shrink_only) && err > 0)
		integ = min(integ, max_t(s64, pi->integ, 0));
	else if ((u < lo || pi->shrink_only) && err < 0)
		integ = max(integ, min_t(s64, pi->integ, 0));
	pi->integ = integ;
	u = p + div_s64(pi->ki_milli * integ, 1000);
	return clamp(u, lo, hi);
}

/* Sum of the first @n entries of a ring (the valid ones). */
static u64 mmt_ring_sum(const u64 *ring, unsigned int n)
{
	u64 s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += ring[i];
	return s;
}

/*
 * A full window in which at least @cfg->busy_periods periods moved
 * @cfg->min_bytes or more both ways.  A new hot set is exchanged in a burst
 * (a shift of 200 MiB at 20 MiB per period takes about ten periods, and then
 * nothing needs to move); an exchange that never ends while the pattern is
 * stable is lukewarm pages swapped for lukewarm pages.
 */
static bool mmt_pp_busy(const struct mmt_pingpong *pp,
			const struct mmt_pp_cfg *cfg)
{
	unsigned int i, busy = 0;

	if (!cfg->busy_periods || pp->filled < MMT_PP_WINDOW)
		return false;
	for (i = 0; i < MMT_PP_WINDOW; i++)
		busy += pp->prom[i] >= cfg->min_bytes &&
			pp->dem[i] >= cfg->min_bytes;
	return busy >= cfg->busy_periods;
}

/**
 * mmt_pingpong_update() - feed one period's volumes, get the damping level.
 * @pp:		state; zero-initialised at start
 * @cfg:	tuning
 * @promoted:	bytes promoted in the period
 * @demoted:	bytes demoted in the period
 *
 * Return: the damping level after this period.
 */
unsigned int mmt_pingpong_update(struct mmt_pingpong *pp,
				 const struct mmt_pp_cfg *cfg,
				 u64 promoted, u64 demoted)
{
	u64 sp, sd;

	pp->prom[pp->pos] = promoted;
	pp->dem[pp->pos] = demoted;
	pp->pos = (pp->pos + 1) % MMT_PP_WINDOW;
	if (pp->filled < MMT_PP_WINDOW)
		pp->filled++;

	if (promoted < cfg->min_bytes || demoted < cfg->min_bytes) {
		if (++pp->quiet >= cfg->relax_periods && pp->level) {
			pp->level--;
			pp->quiet = 0;
		}
	} else {
		pp->quiet = 0;
	}
	sp = mmt_ring_sum(pp->prom, pp->filled);
	sd = mmt_ring_sum(pp->dem, pp->filled);
	if (min(sp, sd) <= cfg->capacity &&
	    !mmt_pp_busy(pp, cfg))
		return pp->level;
	if (pp->level < MMT_PP_MAX_LEVEL)
		pp->level++;
	/* judge the damped behaviour on a fresh window */
	memset(pp->prom, 0, sizeof(pp->prom));
	memset(pp->dem, 0, sizeof(pp->dem));
	pp->filled = 0;
	pp->pos = 0;
	return pp->level;
}

/* The migration budget under damping level @level: halved per level. */
u64 mmt_pp_budget(u64 budget, unsigned int level)
{
	return level >= 64 ? 0 : budget >> level;
}

/**
 * mmt_backoff_update() - feed one period, get whether to back off.
 * @bo:		state; zero-initialised at start
 * @cfg:	tuning
 * @moved:	bytes migrated in the period, both directions
 * @demand:	bytes that want moving: eligible hot bytes on lower nodes plus
 *		the free-goal shortfall of the upper node
 *
 * Return: true while backed off.
 */
bool mmt_backoff_update(struct mmt_backoff *bo, const struct mmt_bo_cfg *cfg,
			u64 moved, u64 demand)
{
	if (demand >= cfg->wake_bytes) {
		bo->backed_off = false;
		bo->idle = 0;
		return false;
	}
	if (bo->backed_off)
		return true;
	if (moved < cfg->idle_bytes) {
		if (++bo->idle >= cfg->idle_periods)
			bo->backed_off = true;
	} else {
		bo->idle = 0;
	}
	return bo->backed_off;
}

/**
 * mmt_heat_bucket() - heat bucket of a region.
 * @nr_accesses:	samples that saw it accessed in one aggregation
 * @max_nr:		samples per aggregation of its context
 * @aggr_us:		the aggregation interval of its context
 *
 * DAMON's nr_accesses counts samples per aggregation, and each context tunes
 * its own intervals: 5 accessed samples of 20 mean 50/s at 100 ms
 * aggregations and 1/s at 5 s ones.  Per second, the counts of an idle lower
 * node and a busy upper node can be compared -- except that a sample only
 * says "accessed at least once": a region accessed ten times a second looks
 * accessed in every 1 s sample, like one accessed a thousand times.  The
 * rate is therefore estimated from the share of samples that saw an access
 * (see below), and a region seen in every sample is put in the hottest
 * bucket (an idle lower node samples slowly, and its hottest region would
 * otherwise look colder than a lukewarm one of the busy upper node).
 *
 * Return: 0 .. MMT_NR_HEAT - 1.
 */
unsigned int mmt_heat_bucket(unsigned int nr_accesses, unsigned int max_nr,
			     unsigned long aggr_us)
{
	u64 rate;

	if (!nr_accesses || !aggr_us)
		return 0;
	/* seen in every sample: as hot as this context can tell */
	if (nr_accesses >= max_nr)
		return MMT_NR_HEAT - 1;
	/*
	 * A sample sees an access in its interval S with p = 1 - e^(-rate S)
	 * for Poisson accesses; rate = -ln(1 - p) / S >= p / ((1 - p) S) is
	 * estimated by the latter, with p = nr / max_nr and S = aggr / max_nr.
	 */
	rate = div64_u64((u64)nr_accesses * max_nr * 1000000,
			 (u64)(max_nr - nr_accesses) * aggr_us);
	/* seen accessed, however slowly: warmer than never */
	if (!rate)
		return 1;
	return min_t(unsigned int, fls64(rate), MMT_NR_HEAT - 1);
}

/**
 * mmt_heat_min_accesses() - least nr_accesses of bucket @bucket.
 * @bucket:	heat bucket, 1 .. MMT_NR_HEAT - 1
 * @max_nr:	samples per aggregation of the context
 * @aggr_us:	the aggregation interval of the context
 *
 * Return: the smallest nr_accesses whose bucket is @bucket or above (1 at
 * least; UINT_MAX for a bucket past the last).
 */
unsigned int mmt_heat_min_accesses(unsigned int bucket, unsigned int max_nr,
				   unsigned long aggr_us)
{
	unsigned int nr;

	if (bucket >= MMT_NR_HEAT)
		return UINT_MAX;
	if (bucket <= 1)
		return 1;
	/* at most max_nr + 1 steps: nr_accesses never exceeds max_nr */
	for (nr = 1; nr < max_nr; nr++)
		if (mmt_heat_bucket(nr, max_nr, aggr_us) >= bucket)
			return nr;
	return max_t(unsigned int, max_nr, 1);
}

/* Bytes of buckets [@from, @to) of @heat. */
u64 mmt_heat_sum(const u64 *heat, unsigned int from, unsigned int to)
{
	u64 s = 0;

	for (; from < to && from < MMT_NR_HEAT; from++)
		s += heat[from];
	return s;
}

/**
 * mmt_region_idle() - whether a region of the upper node is idle.
 * @bucket:	its heat bucket (mmt_heat_bucket())
 * @age:	DAMON's age of it, in aggregation intervals
 * @aggr_us:	the aggregation interval of its context
 *
 * Bucket 0 says "not seen accessed in this aggregation": one sample of a
 * random page per sampling interval, about twenty of them, which a
 * lukewarm region passes as often as not; bucket 1 on the lower node is
 * one accessed sample more.  That is why the gap between what is promoted
 * and what is demoted is a bucket at least.  A region that has not been
 * seen accessed for MMT_IDLE_US (its age; DAMON resets it when the
 * region's accesses change, and when a scheme other than DAMOS_STAT is
 * applied to it) has failed hundreds of samples: colder than anything
 * seen accessed at all, with no margin needed.
 *
 * How long is enough.  At 10 s, a lukewarm tail's regions are "idle" too:
 * on phase, whose cold set a uniform tail reads, node1 regions of it seen
 * accessed in one sample displaced node0 regions of it unseen for 10 s,
 * and most of the pages the controller moved twice were the cold set's.
 * At 30 s those were 13-20 % of the static recipe's (30-55 % at 10 s), but
 * on the bench (Documentation/bench.rst) node0 served 2.0-2.6 points less
 * of zipf, zipf80 and tail at 30 s, for 3-34 % fewer bytes.  Hits come
 * before bytes: 10 s.
 *
 * Return: true when idle.
 */
bool mmt_region_idle(unsigned int bucket, unsigned int age,
		     unsigned long aggr_us)
{
	return !bucket && (u64)age * aggr_us >= MMT_IDLE_US;
}

/**
 * mmt_pick_heat() - the promotion threshold, as a heat bucket.
 * @low:	bytes per heat bucket on the lower nodes
 * @up:		bytes per heat bucket on the upper node
 * @idle:	of @up's bucket 0, the bytes of idle regions
 *		(mmt_region_idle())
 * @room:	free bytes of the upper node above its goal
 * @gap:	buckets between what is promoted and what is demoted (>= 1)
 *
 * The lowest bucket T >= 1 such that everything at T or hotter on the lower
 * nodes fits in the room plus what the upper node holds colder than T - gap,
 * or idle: promote only what displaces colder pages, by a margin.  With a
 * plain "accessed at all" threshold, lukewarm pages of the lower node
 * displace lukewarm pages of the upper node, which come back the next
 * minute; idle pages do not come back.
 *
 * Return: T in 1 .. MMT_NR_HEAT (MMT_NR_HEAT: promote nothing).
 */
unsigned int mmt_pick_heat(const u64 *low, const u64 *up, u64 idle, u64 room,
			   unsigned int gap)
{
	unsigned int t;

	for (t = 1; t < MMT_NR_HEAT; t++) {
		u64 colder = t > gap ? mmt_heat_sum(up, 0, t - gap) : 0;

		/* bucket 0 holds the idle bytes: counted once */
		colder = max(colder, idle);

		if (mmt_heat_sum(low, t, MMT_NR_HEAT) <= room + colder)
			return t;
	}
	return MMT_NR_HEAT;
}

/**
 * mmt_pair_ctl_init() - a tier pair's controller at its start.
 * @c:		state to initialise
 * @integ_max:	bound of the PI laws' integrals (a period's budget)
 */
void mmt_pair_ctl_init(struct mmt_pair_ctl *c, u64 integ_max)
{
	memset(c, 0, sizeof(*c));
	c->pi.kp_milli = MMT_KP_MILLI;
	c->pi.ki_milli = MMT_KI_MILLI;
	c->pi.integ_max = (s64)min_t(u64, integ_max, MMT_ERR_MAX);
	c->young_bp = MMT_BP_MAX;
}

/*
 * The free goal in bytes, and the room above it: the bytes promotion is
 * admitted to (the kdamonds cap it at the floor, mmt_admit_bytes()).
 */
static u64 mmt_room(const struct mmt_obs *o, struct mmt_step *st)
{
	st->goal = max(mmt_bp_apply(o->managed, o->free_goal_bp), o->floor);
	return o->free > st->goal ? o->free - st->goal : 0;
}

/*
 * The back-off of a capacity-mode step: idle periods in a row cut migration
 * to nothing; demand (@waiting, the hot bytes at the threshold whether or
 * not promotion's flow caps the raise, plus a shortfall) wakes it.  Backed
 * off, what wakes it is also what has grown hot on the lower nodes by the
 * threshold of the back-off's start: a hot set that moved asks for nothing
 * (want) while the old one still looks hot on the upper node, whose heat
 * goes stale when sampled slowly (phase's second slice waited 40 s to
 * minutes for it).
 */
static void mmt_decide_backoff(struct mmt_pair_ctl *c, const struct mmt_obs *o,
			       struct mmt_step *st, u64 waiting)
{
	const struct mmt_bo_cfg bo_cfg = {
		.idle_bytes = max(o->budget >> MMT_BO_IDLE_SHIFT, MMT_MIN_BYTES),
		.idle_periods = MMT_BO_IDLE_PERIODS,
		.wake_bytes = max(o->budget >> MMT_BO_WAKE_SHIFT, MMT_MIN_BYTES),
	};
	bool was_backed_off = c->bo.backed_off;
	u64 demand;

	demand = waiting + (st->goal > o->free ? st->goal - o->free : 0);
	if (was_backed_off)
		demand = max(demand, mmt_heat_sum(o->low, c->bo_heat,
						  MMT_NR_HEAT));
	st->backoff = mmt_backoff_update(&c->bo, &bo_cfg,
					 o->moved_up + o->moved_down, demand);
	if (st->backoff && !was_backed_off)
		c->bo_heat = max(st->heat, 1U);
	if (st->backoff) {
		st->demote = 0;
		st->promote = 0;
	}
}

/* Room left above this (1/16 of the budget) says promotion had room. */
#define MMT_WANT_SLACK_SHIFT	4

/**
 * mmt_want_cap() - the most the demotion goal is raised for promotion.
 * @moved_up:	bytes promotion moved last period
 * @room:	free bytes of the upper node above its goal, now
 * @budget:	this period's budget
 *
 * The bytes waiting are those of whole regions, and promotion brings up
 * only their young pages: after perturb's exchanges 70 MB of regions stayed
 * at the threshold with 5 MB of hot pages in them, and the goal raised by
 * the 70 demoted 30 to 70 MB more than came up.  A promotion that left room
 * unused was not held back by room, and brings no more than its flow: the
 * raise is then twice that.  Where promotion used the room (a full upper
 * node), the raise is not capped: capped at all times by twice the flow,
 * with an eighth of the budget as its floor, a new hot set waited for room
 * period after period (tail: 82 % on node0 where it had 88).
 *
 * Return: the cap, U64_MAX for none.
 */
u64 mmt_want_cap(u64 moved_up, u64 room, u64 budget)
{
	if (moved_up > U64_MAX / 2 ||
	    room <= moved_up + (budget >> MMT_WANT_SLACK_SHIFT))
		return U64_MAX;
	return 2 * moved_up;
}

/* A promotion that walked less than this (256 pages) says nothing. */
#define MMT_YOUNG_MIN_TRIED	(1ULL << 20)

/**
 * mmt_young_share() - the share of the waiting bytes promotion would take.
 * @passed:	bytes promotion's young filter passed last period
 * @tried:	bytes of the regions it walked last period
 * @last_bp:	the share measured before, in basis points
 *
 * The bytes waiting are those of whole regions at the threshold, and
 * promotion takes only their young pages: on zipf80 the goal raised by all
 * of them made room that warm pages filled (2.2x the oracle's bytes), where
 * promotion's walks found 28-50 % of the bytes young.  The share measured in
 * the last walk is taken for the rest of the regions waiting.  It overrates
 * where the walk, hottest regions first and cut by the quota, saw only
 * regions hot throughout (skew's start: all young, and the raise several
 * times what came up next).  A walk too small to tell (a back-off, nothing
 * at the threshold) keeps the last share.
 *
 * Return: the share, in basis points (0 .. MMT_BP_MAX).
 */
unsigned long mmt_young_share(u64 passed, u64 tried, unsigned long last_bp)
{
	unsigned long bp;

	if (tried < MMT_YOUNG_MIN_TRIED)
		return last_bp;
	if (mmt_bp_of(min(passed, tried), tried, &bp))
		return last_bp;
	return bp;
}

/*
 * Promotion's budget follows what its walks find: below a quarter of young
 * bytes it shrinks with the share, to a 32nd of the budget.
 */
#define MMT_PROMOTE_YOUNG_GAIN	4
#define MMT_PROMOTE_MIN_SHIFT	5

/**
 * mmt_promote_budget() - the bytes promotion may use in a period.
 * @budget:	this period's budget
 * @young_bp:	the young share of promotion's last walk (mmt_young_share())
 *
 * Bytes a promoting scheme walks but its young filter rejects cost it a
 * fraction of its quota (MMT_FAIL_CHARGE_PROMOTE, 1/32), so that its walks
 * reach scattered hot pages; where the walk finds nothing young it then
 * covers 32 times the budget per period, for nothing, in the kdamond's
 * time.  PostgreSQL's buffer pool, accessed through translations the TLB
 * kept (no accessed bit set), read 0 % young while promotion walked the
 * whole lower node every 150 ms and pgbench ran at a sixth of its rate.
 * With the budget scaled by MMT_PROMOTE_YOUNG_GAIN times the young share,
 * a walk covers at most about 4 budgets at any share, and the budget at
 * none; at a quarter young or more (Zipf's walks find 28-50 %) nothing
 * changes.  A walk that finds young pages again raises it the next period.
 *
 * Return: the bytes, at least @budget / 32.
 */
u64 mmt_promote_budget(u64 budget, unsigned long young_bp)
{
	unsigned long bp = min_t(unsigned long, MMT_BP_MAX,
				 young_bp * MMT_PROMOTE_YOUNG_GAIN);

	return max(mmt_bp_apply(budget, bp), budget >> MMT_PROMOTE_MIN_SHIFT);
}

/**
 * mmt_decide() - one period of a tier pair in capacity mode.
 * @c:		the pair's state, updated
 * @o:		this period's observation
 * @st:		the decision
 *
 * Damping first (it sets the budget of the step), then the promotion
 * threshold and the bytes it wants, the demotion goal raised by them and the
 * PI step towards it, then the back-off, which may cut both to nothing.
 */
void mmt_decide(struct mmt_pair_ctl *c, const struct mmt_obs *o,
		struct mmt_step *st)
{
	const struct mmt_pp_cfg pp_cfg = {
		.capacity = o->managed,
		.min_bytes = MMT_PP_MIN_BYTES,
		.relax_periods = MMT_PP_RELAX,
		.busy_periods = MMT_PP_BUSY,
	};
	unsigned int gap;
	u64 room, b, waiting;

	memset(st, 0, sizeof(*st));
	room = mmt_room(o, st);
	st->level = mmt_pingpong_update(&c->pp, &pp_cfg, o->moved_up,
					o->moved_down);
	b = mmt_pp_budget(o->budget, st->level);

	/*
	 * promote the heat that displaces colder pages by a margin of
	 * 1 + level buckets; room for those bytes, one period's worth at most
	 */
	gap = 1 + st->level;
	st->heat = mmt_pick_heat(o->low, o->up, o->up_idle, room, gap);
	st->cold_below = st->heat > gap ? st->heat - gap : 0;
	waiting = mmt_heat_sum(o->low, st->heat, MMT_NR_HEAT);
	c->young_bp = mmt_young_share(o->passed_up, o->tried_up, c->young_bp);
	st->young_bp = c->young_bp;
	st->want = min3(mmt_bp_apply(waiting, c->young_bp), b,
			mmt_want_cap(o->moved_up, room, b));
	st->target = min(st->goal + st->want, o->managed);
	st->err = (s64)st->target - (s64)o->free;
	/*
	 * the integral is for a steady offset (something else allocating):
	 * the room a fill asks for is not one, and integrated it went on
	 * demoting 20 MiB a period after the fill (perturb)
	 */
	c->pi.shrink_only = st->want > 0;
	st->demote = mmt_pi_step(&c->pi, st->err, 0, b);
	st->promote = mmt_promote_budget(b, c->young_bp);

	mmt_decide_backoff(c, o, st, waiting);
	/*
	 * the law's bytes spread over the period's quota intervals arrived
	 * late: demotion fills its quota in only some of them (it runs out of
	 * matching regions, young pages are charged), and on skew it moved
	 * 19-31 MB a period where the law asked 43-91 while a hot set
	 * waited.  Then the whole budget per interval; the raised goal,
	 * checked every interval, stops it at the target.
	 */
	st->demote_rate = st->demote && st->want ? b : st->demote;
	if (mmt_bp_of(st->target, o->managed, &st->goal_bp))
		st->goal_bp = o->free_goal_bp;
}

/**
 * mmt_bw_move() - bandwidth mode: the bytes one lower node's context moves.
 * @o:		the observation of its context: @hot, @share, @share_low and
 *		@share_target
 * @budget:	its part of the pair's budget
 * @promote:	result: bytes up
 * @push:	result: bytes down, 0 when @promote is not
 *
 * The error in bytes is the share error times the hot bytes, and a P law
 * on it gives the bytes to move: the whole budget far from the target, the
 * remaining error near it, nothing within MMT_BW_DEADBAND_BP.  The two
 * shares add up to 10000 when DAMOS measured them; both read 0 when no
 * region matched at its last evaluation (e.g. just after a commit): hold.
 */
void mmt_bw_move(const struct mmt_obs *o, u64 budget, u64 *promote,
		 u64 *push)
{
	long err_bp;
	s64 err_bytes, u;

	err_bp = (long)o->share_target - (long)o->share;
	if (abs(err_bp) <= (long)MMT_BW_DEADBAND_BP ||
	    o->share + o->share_low < MMT_BP_MAX - MMT_BW_DEADBAND_BP)
		err_bp = 0;
	err_bytes = (s64)div_s64((s64)min_t(u64, o->hot, MMT_ERR_MAX) * err_bp,
				 MMT_BP_MAX);
	u = div_s64(MMT_BW_KP_MILLI * err_bytes, 1000);
	u = clamp_t(s64, u, -(s64)min_t(u64, budget, MMT_ERR_MAX),
		    (s64)min_t(u64, budget, MMT_ERR_MAX));
	*promote = u > 0 ? u : 0;
	*push = u < 0 ? -u : 0;
}

/**
 * mmt_decide_bw() - one period of a tier pair in bandwidth mode.
 * @c:		the pair's state, updated
 * @o:		this period's observation (the share fields filled: of the
 *		pair's only lower node, or of one of them)
 * @st:		the decision: @promote bytes up or @push bytes down, never
 *		both (mmt_bw_move() with the whole budget); @demote cold
 *		bytes for room, as in capacity mode
 *
 * With several lower nodes, the loop gives each its part of the budget
 * through mmt_bw_move() on its own context's shares.  No back-off: the
 * share, DAMON's node_eligible_mem_bp, is measured only while the lower
 * context samples actively.
 */
void mmt_decide_bw(struct mmt_pair_ctl *c, const struct mmt_obs *o,
		   struct mmt_step *st)
{
	memset(st, 0, sizeof(*st));
	mmt_room(o, st);
	mmt_bw_move(o, o->budget, &st->promote, &st->push);
	c->pi.shrink_only = false;

	/* room on the upper node, as in capacity mode, no heat threshold */
	st->heat = 1;
	st->target = st->goal;
	st->err = (s64)st->goal - (s64)o->free;
	st->demote = mmt_pi_step(&c->pi, st->err, 0, o->budget);
	st->demote_rate = st->demote;
	/* the demotion goal stays as committed */
	st->goal_bp = 0;
}

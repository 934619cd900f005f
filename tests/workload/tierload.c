// SPDX-License-Identifier: GPL-2.0
/*
 * tierload: the test workload of the mm-tiering bench (runs in the guest).
 *
 * Places a cold set on the upper node and a hot set on the lower node (or
 * interleaved over the lower nodes) by first touch under
 * set_mempolicy(MPOL_BIND or MPOL_INTERLEAVE), then returns to MPOL_DEFAULT
 * so that no policy pins the pages.  It then keeps reading the hot set,
 * prints once per interval how many pages of each set sit on each node
 * (move_pages(2) with no target nodes), and at the end verifies that every
 * byte of every page still holds its pattern.
 *
 * Usage: tierload [-u node] [-l nodes] [-H hot_mb] [-C cold_mb | -F free_mb]
 *                 [-t seconds] [-i interval_ms] [-w file] [-s file] [-x]
 *                 [-K slices -P phase_seconds] [-Z s_x100] [-W tail]
 *                 [-T tlb_pages] [-L] [-X pct -Y period_seconds]
 *                 [-S stride] [-G]
 *   -l  the lower node, or a list (1,2,3 or 1-3, nodes below 64): the hot
 *       buffer interleaved over them; the *_low counts are of all of them,
 *       and -X forces hot pages down to the first
 *   -C  cold set size; -F: size the cold set to leave free_mb free on the
 *       upper node (read from /sys/devices/system/node/nodeN/meminfo)
 *   -w  after setup, wait until @file exists before the timed run
 *   -s  end the timed run at the first sample after @file exists
 *   -K  the hot buffer holds K slices of hot_mb; only one is hot at a time
 *   -P  ... and the hot slice moves to the next one every phase_seconds
 *   -Z  Zipf: accesses over the whole RSS (hot buffer and cold set), page
 *       of rank r drawn with probability ~ 1/r^s, ranks a fixed random
 *       permutation of the pages (s = s_x100 / 100)
 *   -W  a long tail: after every 1024 hot pages read, read one cache line
 *       of each of @tail pages drawn uniformly from the whole RSS (every
 *       slice and the cold set), so that every page is lukewarm
 *   -T  flush the process's TLB after every @tlb_pages page reads (default
 *       1024; 0: never).  DAMON sees an access only when the CPU sets a
 *       page table entry's accessed bit, which it does on a TLB miss.  A
 *       real CPU's TLB holds about 2000 translations, so a pass over a hot
 *       set of 100000 pages misses on every page; QEMU's TCG TLB grows to
 *       millions of entries and keeps the whole hot set, so that without
 *       a flush (a migration's, a context switch's) the accessed bits stay
 *       clear and DAMON sees the hot set as idle -- bandwidth mode, at its
 *       target and moving nothing, read no accessed region for tens of
 *       seconds.  The flush models the small TLB.
 *   -L  transparent huge pages: the buffers are 2 MiB aligned and advised
 *       MADV_HUGEPAGE (default: MADV_NOHUGEPAGE, 4 KiB folios); the setup
 *       and verify lines report the process's AnonHugePages
 *   -X  perturbation, the seed's methodology at small scale: every
 *   -Y  period_seconds, move pct % of the hot set's pages (drawn at random)
 *       that sit on the upper node down to the lower node, and as many
 *       pages of the cold set (at random, from the lower node) up, with
 *       move_pages(2): a forced exchange that the tiering policy must undo
 *       (moved= and moved2= count the policy's moves only)
 *   -S  the samples read the node of every @stride-th page only (default
 *       1: every page) and count each page read for @stride: the counts,
 *       moved= and moved2= become estimates.  With nodes of 8 GiB a sample
 *       of every page (move_pages(2) over 2 million pages) takes seconds of
 *       the guest's CPU under TCG.  Not with -Z, whose share weighs every
 *       page by its rank.
 *   -G  writes while pages move: the hot pass (not -Z) stores into every
 *       hot page it reads, word 0 := its pattern ^ a count of the page's
 *       stores, and verify checks the last store of each page: a store lost
 *       by a migration (copied before it, the new page mapped after) fails
 *   -x  inject a one-byte corruption before verifying (checker control);
 *       with -G also a lost store, on another page
 *
 * Output lines (all start with "tierload"):
 *   tierload setup hot_pages=N cold_pages=N up_free_mb=N slices=N
 *            phase_ms=N thp_kb=N stride=N
 *       phase_ms: -P or -Y in ms (0: no phases); thp_kb: AnonHugePages;
 *       stride: -S
 *   tierload t=<ms> hot_up=N hot_low=N cold_up=N cold_low=N other=N
 *            up_free_mb=N phase=N upshare_bp=N moved=N moved2=N
 *            moved2_hot=N unknown=N reads=N nodes=N:pages,...
 *       hot_* count the hot slice only; upshare_bp: share of accesses
 *       served by the upper node; moved/moved2: pages seen to change node
 *       at least once / twice between samples (moved2_hot: of them,
 *       pages of the hot slices, every slice); other: pages on neither
 *       node; unknown: pages whose node could not be read (under migration:
 *       counted in no other field, their moves not counted); reads: the
 *       cache lines the timed run has read so far (its throughput, with
 *       t); nodes: the pages of every set on each node that holds any
 *   tierload oracle_bp=N oracle_low_pages=N
 *       best upshare_bp with the upper node's room, and how many pages of
 *       that best placement start on the lower node
 *   tierload perturb t=<ms> phase=N down=N up=N
 *       pages the perturbation moved down (hot) and up (cold)
 *   tierload ranks from=R to=R pages=N low=N low_bp=N low_unmoved=N moved2=N
 *            moved2_bp=N moved2_up=N
 *       -Z only, after the last sample, one line per band of ranks [from,
 *       to): the room's first 1/16, the next 1/16, 1/8, 1/4 and 1/2 (the
 *       ranks the oracle places on the upper node), then the rest.  low:
 *       its pages on a lower node at the last sample, low_bp their share of
 *       accesses, low_unmoved: of them, those never seen to move; moved2:
 *       its pages moved twice or more, moved2_bp their share of accesses,
 *       moved2_up: of them, those on the upper node
 *   tierload verify pages=N bad_pages=N sink=N thp_kb=N stores=N
 *       stores: -G's stores (0 without -G)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MPOL_DEFAULT	0
#define MPOL_BIND	2
#define MPOL_INTERLEAVE	3
#define MPOL_MF_MOVE	(1 << 1)
#define PAGE		4096UL
#define HPAGE		(2UL << 20)

static int use_thp;
/* -G: each hot page's count of stores, the last of which verify expects */
static uint32_t *stores;
/* -l: the lower nodes, a bit each */
static unsigned long low_mask;

static int is_low(int node)
{
	return node >= 0 && node < 64 && (low_mask >> node & 1);
}

/* -l's list: "1", "1,2,3", "1-3"; 0 when it is not one */
static unsigned long parse_nodes(const char *s)
{
	unsigned long m = 0;
	char *end;

	for (;;) {
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a > 63)
			return 0;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b > 63)
				return 0;
		}
		for (; a <= b; a++)
			m |= 1UL << a;
		if (!*end)
			return m;
		if (*end != ',')
			return 0;
		s = end + 1;
	}
}

static long set_policy(int mode, unsigned long nodes)
{
	unsigned long mask[16] = { 0 };

	if (mode == MPOL_DEFAULT)
		return syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	mask[0] = nodes;
	return syscall(SYS_set_mempolicy, mode, mask, 1024);
}

static uint64_t pattern(uint64_t set, uint64_t page, uint64_t word)
{
	uint64_t x = (set << 56) ^ (page << 20) ^ word;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static unsigned char *alloc_on(unsigned long nodes, size_t pages, int set)
{
	unsigned char *p;
	size_t i, w;

	/* -L: one huge page more, to start on a 2 MiB boundary */
	p = mmap(NULL, pages * PAGE + (use_thp ? HPAGE : 0),
		 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("tierload: mmap");
		exit(1);
	}
	if (use_thp) {
		p = (unsigned char *)(((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1));
		madvise(p, pages * PAGE, MADV_HUGEPAGE);
	} else {
		/* 4 KiB folios: every page is counted and moved on its own */
		madvise(p, pages * PAGE, MADV_NOHUGEPAGE);
	}
	if (set_policy(nodes & (nodes - 1) ? MPOL_INTERLEAVE : MPOL_BIND,
		       nodes)) {
		perror("tierload: set_mempolicy");
		exit(1);
	}
	for (i = 0; i < pages; i++) {
		uint64_t *q = (uint64_t *)(p + i * PAGE);

		for (w = 0; w < PAGE / 8; w++)
			q[w] = pattern(set, i, w);
	}
	set_policy(MPOL_DEFAULT, 0);
	return p;
}

static long node_free_mb(int node)
{
	char path[128], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo",
		 node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "MemFree:"))
			sscanf(strstr(line, "MemFree:") + 8, "%ld", &kb);
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

/* AnonHugePages of this process, in KiB (-1: unknown) */
static long thp_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "AnonHugePages:", 14))
			sscanf(line + 14, "%ld", &kb);
	fclose(f);
	return kb;
}

static int *status;

/* -S: the samples read every stride-th page and count it stride times */
static size_t stride = 1;

/*
 * Pages whose node move_pages() could not tell at the last call (a page
 * under migration has a migration entry instead of a page table entry:
 * -ENOENT): neither on a node nor moved.
 */
static long n_unknown;

/* Pages of both sets per node at the last sample (nodes=) */
#define MAX_NODES	64
static long n_on[MAX_NODES];

/*
 * Count the pages of [p, p + pages) on @up, the lower nodes and elsewhere,
 * reading every stride-th page (status[i]: page i * stride) and counting
 * each for stride.  Return how many pages were read.
 */
static size_t where(unsigned char *p, size_t pages, int up,
		    long *n_up, long *n_low, long *n_other)
{
	static void **addrs;
	static size_t cap;
	size_t i, n = (pages + stride - 1) / stride;

	if (cap < n) {
		free(addrs);
		free(status);
		addrs = malloc(n * sizeof(*addrs));
		status = malloc(n * sizeof(*status));
		cap = n;
	}
	for (i = 0; i < n; i++)
		addrs[i] = p + i * stride * PAGE;
	*n_up = *n_low = *n_other = 0;
	if (syscall(SYS_move_pages, 0, n, addrs, NULL, status, 0)) {
		perror("tierload: move_pages");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (status[i] == up)
			*n_up += stride;
		else if (is_low(status[i]))
			*n_low += stride;
		else if (status[i] >= 0)
			*n_other += stride;
		else
			n_unknown += stride;
	}
	return n;
}

/* " nodes=N:pages,..." (the nodes that hold pages of the sets) and the newline */
static void print_nodes(void)
{
	const char *sep = " nodes=";
	int n;

	for (n = 0; n < MAX_NODES; n++) {
		if (!n_on[n])
			continue;
		printf("%s%d:%ld", sep, n, n_on[n]);
		sep = ",";
	}
	printf("\n");
}

/* @gen: the pages' counts of stores into word 0 (-G), or NULL */
static long verify(unsigned char *p, size_t pages, int set,
		   const uint32_t *gen)
{
	long bad = 0;
	size_t i, w;

	for (i = 0; i < pages; i++) {
		uint64_t *q = (uint64_t *)(p + i * PAGE);

		for (w = 0; w < PAGE / 8; w++) {
			if (q[w] != (pattern(set, i, w) ^ (gen && !w ? gen[i] : 0))) {
				bad++;
				break;
			}
		}
	}
	return bad;
}

/*
 * Flush this process's TLB (-T): take write permission from a resident
 * 64-page buffer and give it back; Linux flushes a range of more than 33
 * pages with a flush of the whole address space.
 */
static void tlb_flush_all(void)
{
	static unsigned char *buf;
	const size_t len = 64 * PAGE;

	if (!buf) {
		buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (buf == MAP_FAILED) {
			buf = NULL;
			return;
		}
		memset(buf, 1, len);
	}
	mprotect(buf, len, PROT_READ);
	mprotect(buf, len, PROT_READ | PROT_WRITE);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Zipf over @n pages: weight[i] of page i (sums to 1), and the cumulative
 * weights by rank with the page of each rank, for sampling.
 */
static void zipf_setup(size_t n, double s, double *weight, double *cdf,
		       size_t *page_of_rank)
{
	double sum = 0, acc = 0;
	size_t r, j;

	for (r = 0; r < n; r++)
		page_of_rank[r] = r;
	for (r = n - 1; r > 0; r--) {	/* a fixed random permutation */
		size_t t;

		j = next_rand() % (r + 1);
		t = page_of_rank[r];
		page_of_rank[r] = page_of_rank[j];
		page_of_rank[j] = t;
	}
	for (r = 0; r < n; r++)
		sum += pow(r + 1, -s);
	for (r = 0; r < n; r++) {
		double w = pow(r + 1, -s) / sum;

		weight[page_of_rank[r]] = w;
		acc += w;
		cdf[r] = acc;
	}
}

static size_t zipf_draw(const double *cdf, size_t n)
{
	double u = (next_rand() >> 11) * (1.0 / 9007199254740992.0);
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * -Z: where the ranks are at the last sample (@last: node + 1 of each page,
 * @moves: its moves), in bands of the oracle's @room ranks: which ranks the
 * upper node misses, and which ranks the pages moved twice are.
 */
static void print_ranks(size_t all, size_t room, const double *weight,
			const size_t *page_of_rank, const unsigned char *last,
			const unsigned char *moves, int up)
{
	size_t to[6] = { room / 16, room / 8, room / 4, room / 2, room, all };
	size_t r = 0, b;

	for (b = 0; b < 6; b++) {
		size_t from = r, low = 0, low_unmoved = 0, m2 = 0, m2_up = 0;
		double w_low = 0, w_m2 = 0;

		for (; r < to[b] && r < all; r++) {
			size_t pg = page_of_rank[r];
			int on = last[pg] - 1;

			if (is_low(on)) {
				low++;
				low_unmoved += !moves[pg];
				w_low += weight[pg];
			}
			if (moves[pg] >= 2) {
				m2++;
				w_m2 += weight[pg];
				m2_up += on == up;
			}
		}
		printf("tierload ranks from=%zu to=%zu pages=%zu low=%zu low_bp=%ld low_unmoved=%zu moved2=%zu moved2_bp=%ld moved2_up=%zu\n",
		       from, r, r - from, low, lround(w_low * 10000), low_unmoved,
		       m2, lround(w_m2 * 10000), m2_up);
	}
}

/*
 * Move up to @n pages of [@p, @p + @pages) that sit on @from to @to, drawn
 * at random; return how many moved.  @last (the pages' last_node entries)
 * learns their new node: a forced move is not the policy's, and is not
 * counted in moved= or moved2=.
 */
static long move_random(unsigned char *p, size_t pages, size_t n, int from,
			int to, unsigned char *last)
{
	void **addrs = malloc(pages * sizeof(*addrs));
	int *nodes = malloc(pages * sizeof(*nodes));
	int *st = malloc(pages * sizeof(*st));
	size_t i, m = 0;
	long moved = 0;

	if (!addrs || !nodes || !st) {
		fprintf(stderr, "tierload: perturb: out of memory\n");
		exit(1);
	}
	for (i = 0; i < pages; i++)
		addrs[i] = p + i * PAGE;
	if (syscall(SYS_move_pages, 0, pages, addrs, NULL, st, 0)) {
		perror("tierload: move_pages");
		exit(1);
	}
	/* the candidates first, then a partial shuffle picks n of them */
	for (i = 0; i < pages; i++)
		if (st[i] == from)
			addrs[m++] = p + i * PAGE;
	if (n > m)
		n = m;
	for (i = 0; i < n; i++) {
		size_t j = i + next_rand() % (m - i);
		void *t = addrs[i];

		addrs[i] = addrs[j];
		addrs[j] = t;
		nodes[i] = to;
	}
	/* > 0: pages that could not move (busy, no room): not counted */
	if (n && syscall(SYS_move_pages, 0, n, addrs, nodes, st,
			 MPOL_MF_MOVE) < 0) {
		perror("tierload: move_pages (perturb)");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (st[i] != to)
			continue;
		moved++;
		last[((unsigned char *)addrs[i] - p) / PAGE] = to + 1;
	}
	free(addrs);
	free(nodes);
	free(st);
	return moved;
}

int main(int argc, char **argv)
{
	int up = 0, low = 1, corrupt = 0, opt;
	const char *go = NULL, *stop = NULL;
	long hot_mb = 64, cold_mb = -1, free_mb = -1, secs = 10, iv = 1000;
	long slices = 1, phase_s = 0, phase = 0, zipf = 0, tail = 0;
	long tlb_pages = 1024, since_flush = 0;
	long perturb_pct = 0, perturb_s = 0, perturbs = 0, stride_arg = 1;
	double *weight = NULL, *cdf = NULL;
	size_t *page_of_rank = NULL, all_pages;
	unsigned char *last_node = NULL, *moves = NULL;
	size_t hot_pages, cold_pages, i, room = 0;
	unsigned char *hot, *cold;
	long start, next, sink = 0, nstores = 0, reads = 0;
	int writes = 0;
	size_t cur = 0;

	while ((opt = getopt(argc, argv, "u:l:H:C:F:t:i:w:s:xK:P:Z:W:T:LX:Y:S:G")) != -1) {
		switch (opt) {
		case 'u':
			up = atoi(optarg);
			break;
		case 'l':
			low_mask = parse_nodes(optarg);
			if (!low_mask) {
				fprintf(stderr, "tierload: bad -l %s\n", optarg);
				return 2;
			}
			low = __builtin_ctzl(low_mask);
			break;
		case 'H':
			hot_mb = atol(optarg);
			break;
		case 'C':
			cold_mb = atol(optarg);
			break;
		case 'F':
			free_mb = atol(optarg);
			break;
		case 't':
			secs = atol(optarg);
			break;
		case 'i':
			iv = atol(optarg);
			break;
		case 'w':
			go = optarg;
			break;
		case 's':
			stop = optarg;
			break;
		case 'x':
			corrupt = 1;
			break;
		case 'K':
			slices = atol(optarg);
			break;
		case 'P':
			phase_s = atol(optarg);
			break;
		case 'Z':
			zipf = atol(optarg);
			break;
		case 'W':
			tail = atol(optarg);
			break;
		case 'T':
			tlb_pages = atol(optarg);
			break;
		case 'L':
			use_thp = 1;
			break;
		case 'X':
			perturb_pct = atol(optarg);
			break;
		case 'Y':
			perturb_s = atol(optarg);
			break;
		case 'S':
			stride_arg = atol(optarg);
			break;
		case 'G':
			writes = 1;
			break;
		default:
			fprintf(stderr, "tierload: bad usage\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!low_mask)
		low_mask = 1UL << low;
	if (up < 0 || up > 63 || is_low(up)) {
		fprintf(stderr, "tierload: bad upper node %d\n", up);
		return 2;
	}
	if (stride_arg < 1 || (zipf && stride_arg > 1)) {
		fprintf(stderr, "tierload: bad -S %ld (at least 1, and 1 with -Z)\n",
			stride_arg);
		return 2;
	}
	stride = stride_arg;
	hot_pages = hot_mb * 256;
	/* the hot set first: the cold set then fills what is left */
	if (slices < 1)
		slices = 1;
	hot = alloc_on(low_mask, hot_pages * slices, 1);
	if (cold_mb < 0) {
		long f = node_free_mb(up);

		cold_mb = f > free_mb ? f - (free_mb < 0 ? 0 : free_mb) : 0;
	}
	cold_pages = cold_mb * 256;
	cold = cold_pages ? alloc_on(1UL << up, cold_pages, 2) : NULL;
	if (writes && !zipf) {
		stores = calloc(hot_pages * slices, sizeof(*stores));
		if (!stores) {
			perror("tierload: calloc");
			return 1;
		}
	}
	if (perturb_pct <= 0 || perturb_s <= 0)
		perturb_pct = perturb_s = 0;
	printf("tierload setup hot_pages=%zu cold_pages=%zu up_free_mb=%ld slices=%ld phase_ms=%ld thp_kb=%ld stride=%zu\n",
	       hot_pages, cold_pages, node_free_mb(up), slices,
	       (phase_s ? phase_s : perturb_s) * 1000, thp_kb(), stride);
	/* page i < hot_pages * slices is in the hot buffer, then the cold set */
	all_pages = hot_pages * slices + cold_pages;
	last_node = calloc(all_pages, 1);
	moves = calloc(all_pages, 1);
	if (zipf) {
		/* the upper node holds the cold set and its free memory but
		 * about 20 MiB its watermarks keep free
		 */
		double best = 0;
		size_t low_top = 0;

		room = cold_pages + (size_t)(node_free_mb(up) > 20 ?
					     (node_free_mb(up) - 20) * 256 : 0);
		weight = malloc(all_pages * sizeof(*weight));
		cdf = malloc(all_pages * sizeof(*cdf));
		page_of_rank = malloc(all_pages * sizeof(*page_of_rank));
		zipf_setup(all_pages, zipf / 100.0, weight, cdf, page_of_rank);
		for (i = 0; i < all_pages && i < room; i++) {
			best += cdf[i] - (i ? cdf[i - 1] : 0);
			low_top += page_of_rank[i] < hot_pages * slices;
		}
		/* oracle_low_pages: pages the oracle must promote */
		printf("tierload oracle_bp=%ld oracle_low_pages=%zu\n",
		       (long)(best * 10000), low_top);
	} else {
		printf("tierload oracle_bp=10000 oracle_low_pages=%zu\n",
		       hot_pages);
	}

	while (go && access(go, F_OK))
		usleep(10000);
	start = now_ms();
	next = start;
	for (;;) {
		long t = now_ms();

		if (phase_s)
			phase = (t - start) / (phase_s * 1000);
		if (perturb_s && t - start < secs * 1000 &&
		    t - start >= (perturbs + 1) * perturb_s * 1000) {
			long d, u;

			d = move_random(hot, hot_pages,
					hot_pages * perturb_pct / 100, up, low,
					last_node);
			u = move_random(cold, cold_pages, d, low, up,
					last_node + hot_pages * slices);
			phase = ++perturbs;
			printf("tierload perturb t=%ld phase=%ld down=%ld up=%ld\n",
			       now_ms() - start, phase, d, u);
			continue;
		}
		if (t >= next) {
			long hu, hl, ho, cu = 0, cl = 0, co = 0;

			long moved = 0, moved2 = 0, moved2_hot = 0;
			double share = 0;
			size_t base, n_hot;

			n_hot = where(hot + (phase % slices) * hot_pages * PAGE,
				      hot_pages, up, &hu, &hl, &ho);
			if (!zipf)
				share = (double)hu / (n_hot * stride);
			/* every page: moves, and the Zipf share */
			n_unknown = 0;
			memset(n_on, 0, sizeof(n_on));
			for (base = 0; base < all_pages; base += hot_pages) {
				size_t n = all_pages - base < hot_pages ?
					   all_pages - base : hot_pages;
				unsigned char *a = base < hot_pages * slices ?
					hot + base * PAGE :
					cold + (base - hot_pages * slices) * PAGE;
				long x, y, z;

				n = where(a, n, up, &x, &y, &z);
				if (base >= hot_pages * slices) {
					cu += x;
					cl += y;
					co += z;
				}
				for (i = 0; i < n; i++) {
					unsigned char nd = status[i] + 1;
					size_t pg = base + i * stride;

					if (status[i] < 0)
						continue;
					if (status[i] < MAX_NODES)
						n_on[status[i]] += stride;
					if (last_node[pg] &&
					    last_node[pg] != nd &&
					    moves[pg] < 255)
						moves[pg]++;
					last_node[pg] = nd;
					moved += moves[pg] >= 1 ? stride : 0;
					moved2 += moves[pg] >= 2 ? stride : 0;
					if (pg < hot_pages * slices)
						moved2_hot += moves[pg] >= 2 ?
							      stride : 0;
					if (zipf && status[i] == up)
						share += weight[pg];
				}
			}
			printf("tierload t=%ld hot_up=%ld hot_low=%ld cold_up=%ld cold_low=%ld other=%ld up_free_mb=%ld phase=%ld upshare_bp=%ld moved=%ld moved2=%ld moved2_hot=%ld unknown=%ld reads=%ld",
			       t - start, hu, hl, cu, cl, ho + co,
			       node_free_mb(up), phase, (long)(share * 10000),
			       moved, moved2, moved2_hot, n_unknown, reads);
			print_nodes();
			next += iv;
			if (t - start >= secs * 1000 ||
			    (stop && !access(stop, F_OK)))
				break;
		}
		if (zipf) {
			/* as many page accesses as a pass over the hot set */
			for (i = 0; i < hot_pages; i++) {
				if (!(i & 1023))
					since_flush += 1024;
				if (tlb_pages && since_flush >= tlb_pages) {
					tlb_flush_all();
					since_flush = 0;
				}
				if (!(i & 1023) && now_ms() >= next)
					break;
				size_t pg = page_of_rank[zipf_draw(cdf,
								 all_pages)];

				reads++;

				sink += pg < hot_pages * slices ?
					hot[pg * PAGE + (i & 63) * 64] :
					cold[(pg - hot_pages * slices) * PAGE +
					     (i & 63) * 64];
			}
			continue;
		}
		/*
		 * One read per cache line keeps every hot page young.  The time
		 * is checked every 1024 pages so that samples stay on time; the
		 * pass resumes where it stopped, so every page is read alike.
		 */
		while (cur < hot_pages * PAGE) {
			size_t off = (phase % slices) * hot_pages * PAGE + cur;

			if (stores && !(cur & (PAGE - 1))) {
				size_t pg = off / PAGE;

				*(uint64_t *)(hot + off) =
					pattern(1, pg, 0) ^ ++stores[pg];
				nstores++;
			}
			sink += hot[off];
			reads++;
			cur += 64;
			if (cur & (1024 * PAGE - 1))
				continue;
			since_flush += 1024;
			if (tlb_pages && since_flush >= tlb_pages) {
				tlb_flush_all();
				since_flush = 0;
			}
			for (i = 0; i < (size_t)tail; i++) {
				size_t pg = next_rand() % all_pages;
				size_t off = (next_rand() & 63) * 64;

				sink += pg < hot_pages * slices ?
					hot[pg * PAGE + off] :
					cold[(pg - hot_pages * slices) * PAGE +
					     off];
			}
			reads += tail;
			if (now_ms() >= next)
				break;
		}
		if (cur >= hot_pages * PAGE)
			cur = 0;
	}
	if (zipf)
		print_ranks(all_pages, room, weight, page_of_rank, last_node,
			    moves, up);
	if (corrupt)
		hot[hot_pages / 2 * PAGE + 123] ^= 0x5a;
	/* a lost store: page 0's word 0 as it was before its last store */
	if (corrupt && stores && stores[0])
		*(uint64_t *)hot = pattern(1, 0, 0) ^ (stores[0] - 1);
	printf("tierload verify pages=%zu bad_pages=%ld sink=%ld thp_kb=%ld stores=%ld\n",
	       hot_pages * slices + cold_pages,
	       verify(hot, hot_pages * slices, 1, stores) +
	       verify(cold, cold_pages, 2, NULL),
	       sink & 1, thp_kb(), nstores);
	return 0;
}

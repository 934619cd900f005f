// SPDX-License-Identifier: GPL-2.0
/*
 * tierload: the test workload of the mm-tiering bench (runs in the guest).
 *
 * Places a cold set on the upper node and a hot set on the lower node by
 * first touch under set_mempolicy(MPOL_BIND), then returns to MPOL_DEFAULT
 * so that no policy pins the pages.  It then keeps reading the hot set,
 * prints once per interval how many pages of each set sit on each node
 * (move_pages(2) with no target nodes), and at the end verifies that every
 * byte of every page still holds its pattern.
 *
 * Usage: tierload [-u node] [-l node] [-H hot_mb] [-C cold_mb | -F free_mb]
 *                 [-t seconds] [-i interval_ms] [-w file] [-x]
 *                 [-K slices -P phase_seconds]
 *   -C  cold set size; -F: size the cold set to leave free_mb free on the
 *       upper node (read from /sys/devices/system/node/nodeN/meminfo)
 *   -w  after setup, wait until @file exists before the timed run
 *   -K  the hot buffer holds K slices of hot_mb; only one is hot at a time
 *   -P  ... and the hot slice moves to the next one every phase_seconds
 *   -x  inject a one-byte corruption before verifying (checker control)
 *
 * Output lines (all start with "tierload"):
 *   tierload setup hot_pages=N cold_pages=N
 *   tierload t=<ms> hot_up=N hot_low=N cold_up=N cold_low=N other=N
 *            up_free_mb=N phase=N   (hot_* count the hot slice only)
 *   tierload verify pages=N bad_pages=N
 */
#define _GNU_SOURCE
#include <errno.h>
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
#define PAGE		4096UL

static long set_policy(int mode, int node)
{
	unsigned long mask[16] = { 0 };

	if (mode == MPOL_DEFAULT)
		return syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	mask[node / 64] = 1UL << (node % 64);
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

static unsigned char *alloc_on(int node, size_t pages, int set)
{
	unsigned char *p;
	size_t i, w;

	p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("tierload: mmap");
		exit(1);
	}
	/* 4 KiB folios: every page is counted and moved on its own */
	madvise(p, pages * PAGE, MADV_NOHUGEPAGE);
	if (set_policy(MPOL_BIND, node)) {
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

/* Count the pages of [p, p + pages) on @up, @low and elsewhere. */
static void where(unsigned char *p, size_t pages, int up, int low,
		  long *n_up, long *n_low, long *n_other)
{
	static void **addrs;
	static int *status;
	static size_t cap;
	size_t i;

	if (cap < pages) {
		free(addrs);
		free(status);
		addrs = malloc(pages * sizeof(*addrs));
		status = malloc(pages * sizeof(*status));
		cap = pages;
	}
	for (i = 0; i < pages; i++)
		addrs[i] = p + i * PAGE;
	*n_up = *n_low = *n_other = 0;
	if (syscall(SYS_move_pages, 0, pages, addrs, NULL, status, 0)) {
		perror("tierload: move_pages");
		exit(1);
	}
	for (i = 0; i < pages; i++) {
		if (status[i] == up)
			(*n_up)++;
		else if (status[i] == low)
			(*n_low)++;
		else
			(*n_other)++;
	}
}

static long verify(unsigned char *p, size_t pages, int set)
{
	long bad = 0;
	size_t i, w;

	for (i = 0; i < pages; i++) {
		uint64_t *q = (uint64_t *)(p + i * PAGE);

		for (w = 0; w < PAGE / 8; w++) {
			if (q[w] != pattern(set, i, w)) {
				bad++;
				break;
			}
		}
	}
	return bad;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	int up = 0, low = 1, corrupt = 0, opt;
	const char *go = NULL;
	long hot_mb = 64, cold_mb = -1, free_mb = -1, secs = 10, iv = 1000;
	long slices = 1, phase_s = 0, phase = 0;
	size_t hot_pages, cold_pages, i;
	unsigned char *hot, *cold;
	long start, next, sink = 0;

	while ((opt = getopt(argc, argv, "u:l:H:C:F:t:i:w:xK:P:")) != -1) {
		switch (opt) {
		case 'u':
			up = atoi(optarg);
			break;
		case 'l':
			low = atoi(optarg);
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
		case 'x':
			corrupt = 1;
			break;
		case 'K':
			slices = atol(optarg);
			break;
		case 'P':
			phase_s = atol(optarg);
			break;
		default:
			fprintf(stderr, "tierload: bad usage\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	hot_pages = hot_mb * 256;
	/* the hot set first: the cold set then fills what is left */
	if (slices < 1)
		slices = 1;
	hot = alloc_on(low, hot_pages * slices, 1);
	if (cold_mb < 0) {
		long f = node_free_mb(up);

		cold_mb = f > free_mb ? f - (free_mb < 0 ? 0 : free_mb) : 0;
	}
	cold_pages = cold_mb * 256;
	cold = cold_pages ? alloc_on(up, cold_pages, 2) : NULL;
	printf("tierload setup hot_pages=%zu cold_pages=%zu up_free_mb=%ld slices=%ld\n",
	       hot_pages, cold_pages, node_free_mb(up), slices);

	while (go && access(go, F_OK))
		usleep(10000);
	start = now_ms();
	next = start;
	for (;;) {
		long t = now_ms();

		if (phase_s)
			phase = (t - start) / (phase_s * 1000);
		if (t >= next) {
			long hu, hl, ho, cu = 0, cl = 0, co = 0;

			where(hot + (phase % slices) * hot_pages * PAGE,
			      hot_pages, up, low, &hu, &hl, &ho);
			if (cold_pages)
				where(cold, cold_pages, up, low, &cu, &cl, &co);
			printf("tierload t=%ld hot_up=%ld hot_low=%ld cold_up=%ld cold_low=%ld other=%ld up_free_mb=%ld phase=%ld\n",
			       t - start, hu, hl, cu, cl, ho + co,
			       node_free_mb(up), phase);
			next += iv;
			if (t - start >= secs * 1000)
				break;
		}
		/* one read per cache line keeps every hot page young */
		for (i = 0; i < hot_pages * PAGE; i += 64)
			sink += hot[(phase % slices) * hot_pages * PAGE + i];
	}
	if (corrupt)
		hot[hot_pages / 2 * PAGE + 123] ^= 0x5a;
	printf("tierload verify pages=%zu bad_pages=%ld sink=%ld\n",
	       hot_pages * slices + cold_pages,
	       verify(hot, hot_pages * slices, 1) +
	       verify(cold, cold_pages, 2),
	       sink & 1);
	return 0;
}

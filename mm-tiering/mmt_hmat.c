// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the default hot-memory shares of bandwidth mode, from HMAT.
 *
 * The kernel keeps each node's HMAT access coordinates in node_devices[],
 * which modules cannot reach (not exported), and publishes the same numbers
 * in sysfs: /sys/devices/system/node/nodeN/access0/initiators/read_bandwidth
 * (MB/s, from the nearest initiator).  mmt_hmat_refresh() reads them there
 * into a cache once, from module_init(), where no lock is held.  Never from
 * a parameter handler: under mmt_lock a sysfs read closes a cycle that
 * lockdep reports (the stress suite's bandwidth_hmat_commit, when it was
 * read from commit_inputs): mmt_lock -> the seq_file
 * lock of read_bandwidth, while a read of a parameter (enabled) holds a
 * seq_file lock, then kernfs's of->mutex, the module's param_lock, and
 * takes mmt_lock.  Nor from the memory-hotplug work: tried, every read
 * failed there (a kernel thread resolves paths from the boot root, where
 * /sys need not be mounted).  So a node whose memory came after the load
 * has no bandwidth here: bandwidth mode needs upper_share_bp for it, or a
 * reload of the module.
 * mmt_upper_share() splits 10000 bp in proportion of the cached values
 * (mmt_bw_shares(), mmt_bw_pair_share() when several lower nodes promote
 * into one upper node).
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/nodemask.h>
#include <linux/slab.h>

#include "mmt_hmat.h"
#include "mmt_logic.h"
#include "mmt_params.h"

/* Each node's HMAT read bandwidth in MB/s, by node id; 0: unknown. */
static u64 mmt_bw_mbps[MAX_NUMNODES];

static int mmt_read_bw(int nid, u64 *mbps)
{
	char path[80], buf[24];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/access0/initiators/read_bandwidth",
		 nid);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return n ? n : -ENODATA;
	buf[n] = '\0';
	return kstrtou64(strim(buf), 10, mbps);
}

/**
 * mmt_hmat_refresh() - read every memory node's HMAT read bandwidth.
 *
 * From module_init() only (see the top of this file).
 */
void mmt_hmat_refresh(void)
{
	u64 mbps;
	int nid;

	for_each_node_state(nid, N_MEMORY) {
		if (mmt_read_bw(nid, &mbps))
			mbps = 0;
		WRITE_ONCE(mmt_bw_mbps[nid], mbps);
	}
}

/**
 * mmt_upper_share() - the share of hot memory upper node @upper should hold
 * in the context of its lower node @lower.
 * @upper:	the upper node
 * @lower:	one of its lower nodes
 * @lowers:	all the lower nodes that promote into @upper (@lower among them)
 * @cfg:	inputs: upper_share_bp overrides HMAT when not 0
 * @share_bp:	result, MMT_SHARE_MIN_BP..MMT_SHARE_MAX_BP
 *
 * Each lower node's context sees its own node and @upper, so its share is
 * of those two (mmt_bw_pair_share()).  From HMAT that is the two nodes'
 * split of their bandwidths, whatever the other lower nodes: every node
 * then holds hot memory in proportion to its bandwidth.  upper_share_bp is
 * the upper node's share of all of it, the rest split among @lowers by
 * their bandwidths (equally when HMAT gives none).
 *
 * Reads the bandwidths cached by mmt_hmat_refresh(): no file I/O, safe
 * under mmt_lock.
 *
 * Return: 0, or an error (and a log line) when HMAT gives no bandwidth.
 */
int mmt_upper_share(int upper, int lower, const nodemask_t *lowers,
		    const struct mmt_cfg *cfg, unsigned long *share_bp)
{
	unsigned long shares[2];
	bool known = true;
	u64 bw[2], w, sum = 0;
	int err, nid;

	if (upper < 0 || upper >= nr_node_ids || lower < 0 ||
	    lower >= nr_node_ids || !node_isset(lower, *lowers))
		return -EINVAL;
	if (cfg->upper_share_bp) {
		for_each_node_mask(nid, *lowers) {
			w = READ_ONCE(mmt_bw_mbps[nid]);
			known = known && w;
			sum += w;
		}
		/* a bandwidth unknown: equal weights */
		if (!known)
			return mmt_bw_pair_share(cfg->upper_share_bp, 1,
						 nodes_weight(*lowers),
						 share_bp);
		return mmt_bw_pair_share(cfg->upper_share_bp,
					 READ_ONCE(mmt_bw_mbps[lower]), sum,
					 share_bp);
	}
	bw[0] = READ_ONCE(mmt_bw_mbps[upper]);
	bw[1] = READ_ONCE(mmt_bw_mbps[lower]);
	err = bw[0] && bw[1] ? mmt_bw_shares(bw, 2, shares) : -ENODATA;
	if (err) {
		pr_warn("bandwidth mode: no HMAT read bandwidth for nodes %d and %d (%d); set upper_share_bp\n",
			upper, lower, err);
		return err;
	}
	*share_bp = clamp_t(unsigned long, shares[0], MMT_SHARE_MIN_BP,
			    MMT_SHARE_MAX_BP);
	return 0;
}

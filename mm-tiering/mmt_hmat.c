// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: the default hot-memory shares of bandwidth mode, from HMAT.
 *
 * The kernel keeps each node's HMAT access coordinates in node_devices[],
 * which modules cannot reach (not exported), and publishes the same numbers
 * in sysfs: /sys/devices/system/node/nodeN/access0/initiators/read_bandwidth
 * (MB/s, from the nearest initiator).  This file reads them there, once per
 * enable or commit, and splits 10000 bp in proportion (mmt_bw_shares()).
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "mmt_ctx.h"

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
 * mmt_upper_share() - the share of hot memory upper node @upper should hold.
 * @upper:	the upper node
 * @lower:	its lower node
 * @cfg:	inputs: upper_share_bp overrides HMAT when not 0
 * @share_bp:	result, 1..9999
 *
 * Return: 0, or an error (and a log line) when HMAT gives no bandwidth.
 */
int mmt_upper_share(int upper, int lower, const struct mmt_cfg *cfg,
		    unsigned long *share_bp)
{
	unsigned long shares[2];
	u64 bw[2];
	int err;

	if (cfg->upper_share_bp) {
		*share_bp = cfg->upper_share_bp;
		return 0;
	}
	err = mmt_read_bw(upper, &bw[0]);
	if (!err)
		err = mmt_read_bw(lower, &bw[1]);
	if (!err)
		err = mmt_bw_shares(bw, 2, shares);
	if (err) {
		pr_warn("bandwidth mode: no HMAT read bandwidth for nodes %d and %d (%d); set upper_share_bp\n",
			upper, lower, err);
		return err;
	}
	*share_bp = clamp_t(unsigned long, shares[0], 1, MMT_BP_MAX - 1);
	return 0;
}

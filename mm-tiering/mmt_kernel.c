// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering: refuse a kernel other than the one the module was built for.
 *
 * The module reads and writes DAMON's structures at the offsets of the
 * headers it was compiled against and calls DAMON functions found by name
 * at load time (Documentation/design.rst).  None of that is covered
 * by modversions, and the vermagic check compares only the release
 * (`uname -r`), which a distribution keeps across revisions that may change
 * DAMON (a stable fix that adds a field to struct damos).  The kernel's
 * version string (`uname -v`: build number, the package's version, its
 * date) changes with every build, so the build's copy of it, from the
 * headers, must equal the running kernel's.  modinfo shows it as
 * kernel_version.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <generated/utsversion.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "mmt_kernel.h"

static const char mmt_built_for[] = UTS_VERSION;

MODULE_INFO(kernel_version, UTS_VERSION);

/**
 * mmt_kernel_check() - is this the kernel the module was built for?
 *
 * Return: 0, or -ENOEXEC (what modprobe reports for a vermagic mismatch)
 * after saying in the log which kernel the build was for.
 */
int mmt_kernel_check(void)
{
	const char *running = init_uts_ns.name.version;

	if (!strcmp(running, mmt_built_for))
		return 0;
	pr_err("built for kernel '%s', this is '%s': not loading; rebuild: dkms install --force mm-tiering/%s\n",
	       mmt_built_for, running, MMT_VERSION);
	return -ENOEXEC;
}

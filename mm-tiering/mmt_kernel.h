/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MMT_KERNEL_H
#define _MMT_KERNEL_H

int mmt_kernel_check(void);

#endif /* _MMT_KERNEL_H */

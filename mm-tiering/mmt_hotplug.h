/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MMT_HOTPLUG_H
#define _MMT_HOTPLUG_H

#include <linux/types.h>

bool mmt_offline_hold(void);
int mmt_hotplug_register(void (*changed)(void));
void mmt_hotplug_unregister(void);

#endif /* _MMT_HOTPLUG_H */

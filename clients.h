/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The entry points of dmcore's clients -- the tree (export), the bridge
 * (control's are in control.h) -- for the module's bring-up in dm_core.c
 * and for each other. The core (base.h and the files below the client
 * floor) does not include this header: it never calls its clients.
 */
#ifndef _DMCORE_CLIENTS_H
#define _DMCORE_CLIENTS_H

#include <linux/types.h>

struct dmc_device;

/* bridge.c: the running kernel's PCI and platform buses, mirrored */
int dmc_bridge_init(void);
void dmc_bridge_exit(void);
/* bridge_shadow.c: the bridge's shadows and the worker that makes them */
void dmc_bridge_settle(void);
bool dmc_bridge_is_shadow(const struct dmc_device *dev);
bool dmc_bridge_owns_name(const char *name);

/* dmcfs.c: the filesystem "dmcore", a listener like any other */
struct dentry;
struct vfsmount;
int dmc_fs_init(void);
void dmc_fs_exit(void);
struct vfsmount *dmc_fs_submount(struct dentry *mountpoint);

/* sysfs_export.c: the tree, mounted at /sys/kernel/debug/dmcore */
int dmc_export_init(void);
void dmc_export_exit(void);

#endif /* _DMCORE_CLIENTS_H */

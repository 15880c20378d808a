// SPDX-License-Identifier: GPL-2.0
/*
 * The export: where the model's tree appears. The tree is the filesystem
 * "dmcore" (dmcfs.c, the counterpart of fs/kernfs and fs/sysfs), mounted
 * automatically at /sys/kernel/debug/dmcore the way tracefs appears under
 * debugfs/tracing, and mountable anywhere with "mount -t dmcore none DIR".
 * Its root has the tree's own files (tree_files.c). The core never calls
 * into this file or the filesystem: the filesystem is a dmc_listener, and
 * with export=0 none of it exists and the core runs the same.
 *
 * A mounted filesystem holds its module, so the automount expires: a
 * worker unmounts it once nobody used it for two of its rounds
 * (DMCFS_EXPIRY apart), and "umount /sys/kernel/debug/dmcore" does it at
 * once; "rmmod dmcore" is refused while it is mounted.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/workqueue.h>

#include "base.h"
#include "clients.h"

#define DMC_EXPORT_EXPIRY	(5 * HZ)

static struct dentry *dmc_export_mountpoint;
static LIST_HEAD(dmc_export_automounts);	/* namespace_sem (fs/namespace.c) */
static void dmc_export_expire(struct work_struct *work);
static DECLARE_DELAYED_WORK(dmc_export_expire_work, dmc_export_expire);

/* Unmount the automount once unused for two rounds; again while mounted. */
static void dmc_export_expire(struct work_struct *work)
{
	mark_mounts_for_expiry(&dmc_export_automounts);
	/* Read unlocked, as nfs_expire_automounts() does: a new mount reschedules. */
	if (!list_empty(&dmc_export_automounts))
		schedule_delayed_work(&dmc_export_expire_work, DMC_EXPORT_EXPIRY);
}

/*
 * debugfs's d_automount for /sys/kernel/debug/dmcore. The module
 * reference keeps a mount from being made for a module already going
 * away (the submount takes its own through the filesystem type).
 */
static struct vfsmount *dmc_export_automount(struct dentry *mntpt, void *data)
{
	struct vfsmount *mnt;

	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-ENODEV);
	mnt = dmc_fs_submount(mntpt);
	if (!IS_ERR(mnt)) {
		mntget(mnt);	/* finish_automount() wants two */
		mnt_set_expiry(mnt, &dmc_export_automounts);
		schedule_delayed_work(&dmc_export_expire_work, DMC_EXPORT_EXPIRY);
	}
	module_put(THIS_MODULE);
	return mnt;
}

/**
 * dmc_export_init() - make the tree: the filesystem and its automount
 *
 * dmcore's init calls this last, when nothing can fail any more, and its
 * exit calls dmc_export_exit() first: no file of the tree can be opened
 * while a failing load unwinds. A failure to create the mount point is
 * logged and leaves the filesystem to "mount -t dmcore".
 *
 * Context: module init, process context.
 * Return: 0, or a negative errno with nothing of the tree left.
 */
int dmc_export_init(void)
{
	struct dentry *d;
	int err;

	err = dmc_fs_init();
	if (err)
		return err;
	d = debugfs_create_automount("dmcore", NULL, dmc_export_automount, NULL);
	if (IS_ERR(d))
		pr_warn("dmcore: export: no /sys/kernel/debug/dmcore (%ld); mount -t dmcore instead\n",
			PTR_ERR(d));
	else
		dmc_export_mountpoint = d;
	return 0;
}

/**
 * dmc_export_exit() - take the tree down
 *
 * The first thing dmcore's exit does. No mount is left (a mount holds the
 * module, so rmmod got this far only without one), and no new automount
 * can be made (the module is going: dmc_export_automount() refuses).
 *
 * Context: module exit, process context.
 */
void dmc_export_exit(void)
{
	debugfs_remove(dmc_export_mountpoint);
	dmc_export_mountpoint = NULL;
	cancel_delayed_work_sync(&dmc_export_expire_work);
	dmc_fs_exit();
}

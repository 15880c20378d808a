// SPDX-License-Identifier: GPL-2.0
/*
 * Device links as devices: each link (link.c) owns a device of the class
 * "devlink", named "<supplier bus>:<supplier>--<consumer bus>:<consumer>"
 * (the bus, else the class, else nothing: Linux's dev_bus_name()), with
 * the attributes status, auto_remove_on, runtime_pm and sync_state_only,
 * as Linux shows links in /sys/class/devlink (drivers/base/core.c:
 * devlink_class, device_link_add() registering link->link_dev,
 * devlink_dev_release()).
 *
 * The symlinks - "supplier" and "consumer" in the link's directory,
 * "consumer:<bus>:<name>" in the supplier's and "supplier:<bus>:<name>"
 * in the consumer's - are derived, as the tree's other links: link.c
 * puts a link on its devices' devlink lists under dmc_tree_mutex once its
 * device is registered and takes it off when the link is unlinked, and a
 * device's walk_links() (device_sysfs.c) reads those lists.
 *
 * Lifetime: the link is embedded in its device. It is registered under
 * dmc_links_mutex, as Linux registers link_dev under its links lock, and
 * unregistered where link.c freed the link before (no core lock held),
 * which then puts both devices; its release frees the link, so a reader
 * holding the link's device (an open attribute) keeps the link's memory.
 *
 * link.c reaches this file through dmc_links_set_view()'s hooks: it calls
 * no symbol here, so that device_add.c (which deletes a device's links)
 * and this file (which adds and deletes devices) make no cycle.
 */

#include <linux/export.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "base.h"

static struct dmc_device_link *to_devlink(struct dmc_device *dev)
{
	return container_of(dev, struct dmc_device_link, link_dev);
}

/* The state, as Linux's status_show(); read without the links mutex. */
static ssize_t status_show(struct dmc_device *dev,
			   struct dmc_device_attribute *attr, char *buf)
{
	const char *output;

	switch (READ_ONCE(to_devlink(dev)->status)) {
	case DMC_DL_STATE_NONE:
		output = "not tracked";
		break;
	case DMC_DL_STATE_DORMANT:
		output = "dormant";
		break;
	case DMC_DL_STATE_AVAILABLE:
		output = "available";
		break;
	case DMC_DL_STATE_CONSUMER_PROBE:
		output = "consumer probing";
		break;
	case DMC_DL_STATE_ACTIVE:
		output = "active";
		break;
	case DMC_DL_STATE_SUPPLIER_UNBIND:
		output = "supplier unbinding";
		break;
	default:
		output = "unknown";
		break;
	}
	return sysfs_emit(buf, "%s\n", output);
}
static DMC_DEVICE_ATTR_RO(status);

static ssize_t auto_remove_on_show(struct dmc_device *dev,
				   struct dmc_device_attribute *attr, char *buf)
{
	u32 flags = READ_ONCE(to_devlink(dev)->flags);
	const char *output;

	if (flags & DMC_DL_FLAG_AUTOREMOVE_SUPPLIER)
		output = "supplier unbind";
	else if (flags & DMC_DL_FLAG_AUTOREMOVE_CONSUMER)
		output = "consumer unbind";
	else
		output = "never";
	return sysfs_emit(buf, "%s\n", output);
}
static DMC_DEVICE_ATTR_RO(auto_remove_on);

static ssize_t runtime_pm_show(struct dmc_device *dev,
			       struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  !!(READ_ONCE(to_devlink(dev)->flags) & DMC_DL_FLAG_PM_RUNTIME));
}
static DMC_DEVICE_ATTR_RO(runtime_pm);

static ssize_t sync_state_only_show(struct dmc_device *dev,
				    struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  !!(READ_ONCE(to_devlink(dev)->flags) & DMC_DL_FLAG_SYNC_STATE_ONLY));
}
static DMC_DEVICE_ATTR_RO(sync_state_only);

static struct dmc_attribute *devlink_attrs[] = {
	&dmc_dev_attr_status.attr,
	&dmc_dev_attr_auto_remove_on.attr,
	&dmc_dev_attr_runtime_pm.attr,
	&dmc_dev_attr_sync_state_only.attr,
	NULL,
};
DMC_ATTRIBUTE_GROUPS(devlink);

/*
 * The last reference on the link's device: free the link. Its devices
 * were put when it was deleted (link.c), so their references come back
 * then, whatever holds the link's device.
 */
static void devlink_dev_release(struct dmc_device *dev)
{
	kfree(to_devlink(dev));
}

struct dmc_class dmc_devlink_class = {
	.name = "devlink",
	.dev_groups = devlink_groups,
	.dev_release = devlink_dev_release,
};

/* Linux's dev_bus_name(): the bus, else the class, else "". */
static const char *dmc_dev_bus_name(const struct dmc_device *dev)
{
	return dev->bus ? dev->bus->name : dev->class ? dev->class->name : "";
}

/*
 * Is @name taken in @dev's directory by a child or a file? The symlink
 * would hide it. dmc_tree_mutex held.
 */
static bool dmc_devlink_name_taken(struct dmc_device *dev, const char *name)
{
	lockdep_assert_held(&dmc_tree_mutex);
	return dmc_kobject_has_child(&dev->kobj, name) ||
	       dmc_kobject_name_reserved(&dev->kobj, name);
}

/* Do @link's symlinks' names fit, and are they free? 0 or an errno. */
static int dmc_devlink_check_symlinks(struct dmc_device_link *link)
{
	char name[DMC_DEVLINK_SYMLINK_MAX];
	struct dmc_device *end;
	int i, err = 0;

	mutex_lock(&dmc_tree_mutex);
	for (i = 0; i < 2 && !err; i++) {
		end = i ? link->consumer : link->supplier;
		if (dmc_devlink_symlink_name(link, !i, name, sizeof(name)) >
		    DMC_NAME_MAX) {
			pr_err_ratelimited("dmcore: link_add: the link's name in '%s' would pass %u bytes\n",
					   dmc_dev_name(end), DMC_NAME_MAX);
			err = -ENAMETOOLONG;
		} else if (dmc_devlink_name_taken(end, name)) {
			pr_err_ratelimited("dmcore: link_add: '%s' has an entry '%s' already\n",
					   dmc_dev_name(end), name);
			err = -EEXIST;
		}
	}
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

/*
 * The view's add: name and register @link's device. dmc_links_mutex
 * held; @link's devices are set and referenced. On failure the device,
 * if initialized (link->has_dev), is left for dmc_devlink_discard().
 */
static int dmc_devlink_add(struct dmc_device_link *link)
{
	struct dmc_device *dev = &link->link_dev;
	const char *sb = dmc_dev_bus_name(link->supplier);
	const char *cb = dmc_dev_bus_name(link->consumer);
	const char *sn = dmc_dev_name(link->supplier);
	const char *cn = dmc_dev_name(link->consumer);
	size_t sup_len = strlen(sb) + 1 + strlen(sn);
	int err;

	lockdep_assert_held(&dmc_links_mutex);
	if (sup_len + 2 + strlen(cb) + 1 + strlen(cn) > DMC_NAME_MAX) {
		pr_err_ratelimited("dmcore: link_add: the name of the link '%s' -> '%s' would pass %u bytes\n",
				   cn, sn, DMC_NAME_MAX);
		return -ENAMETOOLONG;
	}
	dmc_device_initialize(dev);
	link->has_dev = true;	/* from now on its release frees the link */
	dev->class = &dmc_devlink_class;
	link->sup_len = sup_len;
	err = dmc_device_set_name(dev, "%s:%s--%s:%s", sb, sn, cb, cn);
	if (err)
		return err;
	err = dmc_devlink_check_symlinks(link);
	if (err)
		return err;
	err = dmc_device_add(dev);
	if (err) {
		pr_err_ratelimited("dmcore: link_add: no device for the link '%s': %d%s\n",
				   dev->kobj.name, err,
				   err == -EEXIST ? " (another link has that name)" : "");
		return err;
	}
	link->dev_added = true;
	return 0;
}

/* The view's discard: unregister, or only put, @link's device. */
static void dmc_devlink_discard(struct dmc_device_link *link)
{
	if (link->dev_added)
		dmc_device_unregister(&link->link_dev);
	else
		dmc_device_put(&link->link_dev);
}

static const struct dmc_devlink_view dmc_devlink_view_ops = {
	.add = dmc_devlink_add,
	.discard = dmc_devlink_discard,
};

/**
 * dmc_devlink_init() - register the class "devlink", as Linux's
 * devlink_class_init()
 *
 * Links added from now on are its devices, under devices/virtual/devlink,
 * made now. At load, before any device.
 *
 * Return: 0, -ENOMEM, or dmc_class_register()'s errno.
 */
int dmc_devlink_init(void)
{
	struct dmc_kobject *glue;
	int err;

	err = dmc_class_register(&dmc_devlink_class);
	if (err)
		return err;
	/*
	 * devices/virtual/devlink from the start: a glue directory stays
	 * until its class goes, so the objects alive after the first link
	 * are those alive before it (the torture run's census).
	 */
	glue = dmc_class_glue_dir(&dmc_devlink_class);
	if (!glue) {
		dmc_class_unregister(&dmc_devlink_class);
		return -ENOMEM;
	}
	dmc_class_glue_dir_put(&dmc_devlink_class, glue, false);
	dmc_links_set_view(&dmc_devlink_view_ops);
	return 0;
}

/**
 * dmc_devlink_exit() - unregister the class "devlink"
 *
 * At unload, once every device (so every link) is gone; waits for the
 * worker that unregisters the devices of links dropped last.
 */
void dmc_devlink_exit(void)
{
	dmc_links_flush_dead();	/* the worker's last unregistrations */
	dmc_links_set_view(NULL);
	dmc_class_unregister(&dmc_devlink_class);
}

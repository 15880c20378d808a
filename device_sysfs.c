// SPDX-License-Identifier: GPL-2.0
/*
 * A device as the tree and the event log show it: its attributes (uevent,
 * power/state, and the groups of its type, bus, class and its own), its
 * views (the "subsystem" link and its entries in its bus's devices/ and
 * its class's directory), the uevent ops of devices/ (only devices on a
 * bus or in a class send events, named after it) and devices/ itself.
 * The counterpart of the sysfs and uevent parts of drivers/base/core.c;
 * device.c holds the lifetime and calls dmc_device_add_links() and
 * dmc_device_remove_links() from add and delete.
 */

#include <linux/export.h>
#include <linux/sysfs.h>

#include "base.h"

/* ---- device attributes -------------------------------------------------- */

static ssize_t dmc_dev_attr_show(struct dmc_kobject *kobj,
				 struct dmc_attribute *attr, char *buf)
{
	struct dmc_device_attribute *da = container_of(attr, struct dmc_device_attribute,
						       attr);

	return da->show ? da->show(to_dmc_device(kobj), da, buf) : -EIO;
}

static ssize_t dmc_dev_attr_store(struct dmc_kobject *kobj,
				  struct dmc_attribute *attr, const char *buf,
				  size_t count)
{
	struct dmc_device_attribute *da = container_of(attr, struct dmc_device_attribute,
						       attr);

	return da->store ? da->store(to_dmc_device(kobj), da, buf, count) : -EIO;
}

static const struct dmc_sysfs_ops dmc_dev_sysfs_ops = {
	.show = dmc_dev_attr_show,
	.store = dmc_dev_attr_store,
};

/* uevent: read the variables an event would carry; write an action. */
static ssize_t uevent_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	return dmc_kobject_uevent_vars(&dev->kobj, buf, PAGE_SIZE);
}

static ssize_t uevent_store(struct dmc_device *dev, struct dmc_device_attribute *attr,
			    const char *buf, size_t count)
{
	return dmc_kobject_uevent_store(&dev->kobj, buf, count);
}
static DMC_DEVICE_ATTR(uevent, 0644, uevent_show, uevent_store);

/* power/state: "on" or "suspended"; write "suspend" or "resume". */
static ssize_t state_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  dmc_power_state_name(dmc_device_power_state(dev)));
}

static ssize_t state_store(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   const char *buf, size_t count)
{
	int err;

	if (sysfs_streq(buf, "suspend")) {
		err = dmc_device_suspend(dev);
	} else if (sysfs_streq(buf, "resume")) {
		err = dmc_device_resume(dev);
	} else {
		pr_err_ratelimited("dmcore: %s/power/state: write suspend or resume\n",
				   dmc_dev_name(dev));
		err = -EINVAL;
	}
	return err ?: count;
}
static DMC_DEVICE_ATTR(state, 0644, state_show, state_store);

static struct dmc_attribute *dmc_device_core_attrs[] = {
	&dmc_dev_attr_uevent.attr,
	NULL,
};

static struct dmc_attribute *dmc_device_power_attrs[] = {
	&dmc_dev_attr_state.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_device_core_group = {
	.attrs = dmc_device_core_attrs,
};

static const struct dmc_attribute_group dmc_device_power_group = {
	.name = "power",
	.attrs = dmc_device_power_attrs,
};

static const struct dmc_attribute_group *dmc_device_core_groups[] = {
	&dmc_device_core_group,
	&dmc_device_power_group,
	NULL,
};

/* Call @fn for each group of a NULL-terminated list, stopping at nonzero. */
int dmc_walk_group_list(struct dmc_kobject *kobj,
			const struct dmc_attribute_group **groups, void *data,
			int (*fn)(struct dmc_kobject *kobj,
				  const struct dmc_attribute_group *grp, void *data))
{
	int ret = 0;

	for (; groups && *groups && !ret; groups++)
		ret = fn(kobj, *groups, data);
	return ret;
}

/* A device's groups: the core's, its type's, its bus's, its class's, its own. */
static int dmc_device_walk_groups(struct dmc_kobject *kobj, void *data,
				  int (*fn)(struct dmc_kobject *kobj,
					    const struct dmc_attribute_group *grp,
					    void *data))
{
	struct dmc_device *dev = to_dmc_device(kobj);
	int ret;

	ret = dmc_walk_group_list(kobj, dmc_device_core_groups, data, fn);
	if (!ret && dev->type)
		ret = dmc_walk_group_list(kobj, dev->type->groups, data, fn);
	if (!ret && dev->bus)
		ret = dmc_walk_group_list(kobj, dev->bus->dev_groups, data, fn);
	if (!ret && dev->class)
		ret = dmc_walk_group_list(kobj, dev->class->dev_groups, data, fn);
	if (!ret)
		ret = dmc_walk_group_list(kobj, dev->groups, data, fn);
	return ret;
}

static const char * const dmc_device_link_names[] = {
	"driver", "subsystem", NULL
};

static void dmc_device_ktype_replay_links(struct dmc_kobject *kobj,
					  struct dmc_listener *l);

const struct dmc_kobj_type dmc_device_ktype = {
	.name = "device",
	.indexed_elsewhere = true,
	.release = dmc_device_release,
	.sysfs_ops = &dmc_dev_sysfs_ops,
	.walk_groups = dmc_device_walk_groups,
	.link_names = dmc_device_link_names,
	.replay_links = dmc_device_ktype_replay_links,
};

/*
 * The views of a device: its "subsystem" link, and its entry in its bus's
 * devices/ and its class's directory.
 */
void dmc_device_add_links(struct dmc_device *dev)
{
	struct dmc_subsys_private *bp = dev->bus ? dev->bus->p : NULL;
	struct dmc_subsys_private *cp = dev->class ? dev->class->p : NULL;

	if (bp) {
		dmc_sysfs_link(&dev->kobj, "subsystem", &bp->subsys.kobj);
		dmc_sysfs_link(&bp->devices_kset->kobj, dev->kobj.name, &dev->kobj);
	} else if (cp) {
		dmc_sysfs_link(&dev->kobj, "subsystem", &cp->subsys.kobj);
	}
	if (cp)
		dmc_sysfs_link(&cp->subsys.kobj, dev->kobj.name, &dev->kobj);
}

/*
 * Tell a listener registering now of the links @dev has (dmc_tree_replay(),
 * dmc_tree_mutex held). Each link is told when the state it follows is
 * set and before that state is cleared (its bus or class membership
 * and dead for the views; the bound driver's list for "driver"), so a
 * link told here twice (replayed, then announced) is possible, one never
 * told or told after its removal is not.
 */
void dmc_device_replay_links(struct dmc_listener *l, struct dmc_device *dev)
{
	struct dmc_subsys_private *bp = dev->bus ? dev->bus->p : NULL;
	struct dmc_subsys_private *cp = dev->class ? dev->class->p : NULL;
	struct dmc_driver_private *dp;
	bool on_bus, in_class;

	lockdep_assert_held(&dmc_tree_mutex);
	if (!dev->p || READ_ONCE(dev->p->dead))
		return;
	on_bus = bp && dmc_klist_node_attached(&dev->p->knode_bus);
	in_class = cp && dmc_klist_node_attached(&dev->p->knode_class);
	if (on_bus) {
		l->link_added(l, &dev->kobj, "subsystem", &bp->subsys.kobj);
		l->link_added(l, &bp->devices_kset->kobj, dev->kobj.name, &dev->kobj);
	} else if (!bp && in_class) {
		l->link_added(l, &dev->kobj, "subsystem", &cp->subsys.kobj);
	}
	if (in_class)
		l->link_added(l, &cp->subsys.kobj, dev->kobj.name, &dev->kobj);
	/*
	 * Not the last reference: the driver's directory leaves the tree
	 * (under the mutex held here) before its registration's is dropped.
	 */
	dp = dmc_device_driver_private_get(dev);
	if (dp && dmc_klist_node_attached(&dev->p->knode_driver) &&
	    dmc_kobject_in_tree(&dp->kobj)) {
		l->link_added(l, &dev->kobj, "driver", &dp->kobj);
		l->link_added(l, &dp->kobj, dev->kobj.name, &dev->kobj);
	}
	if (dp)
		dmc_kobject_put(&dp->kobj);
}

static void dmc_device_ktype_replay_links(struct dmc_kobject *kobj,
					  struct dmc_listener *l)
{
	dmc_device_replay_links(l, to_dmc_device(kobj));
}

void dmc_device_remove_links(struct dmc_device *dev)
{
	struct dmc_subsys_private *bp = dev->bus ? dev->bus->p : NULL;
	struct dmc_subsys_private *cp = dev->class ? dev->class->p : NULL;

	if (cp)
		dmc_sysfs_unlink(&cp->subsys.kobj, dev->kobj.name);
	if (bp)
		dmc_sysfs_unlink(&bp->devices_kset->kobj, dev->kobj.name);
	if (bp || cp)
		dmc_sysfs_unlink(&dev->kobj, "subsystem");
}

bool dmc_kobject_is_device(const struct dmc_kobject *kobj)
{
	return kobj->ktype == &dmc_device_ktype;
}

/* Only devices on a bus or in a class send events, as in Linux. */
static int dmc_dev_uevent_filter(const struct dmc_kobject *kobj)
{
	const struct dmc_device *dev;

	if (!dmc_kobject_is_device(kobj))
		return 0;
	dev = container_of(kobj, struct dmc_device, kobj);
	return dev->bus || dev->class;
}

static const char *dmc_dev_uevent_name(const struct dmc_kobject *kobj)
{
	const struct dmc_device *dev = container_of(kobj, struct dmc_device, kobj);

	if (dev->bus)
		return dev->bus->name;
	if (dev->class)
		return dev->class->name;
	return NULL;
}

static int dmc_dev_uevent(const struct dmc_kobject *kobj,
			  struct dmc_uevent_env *env)
{
	const struct dmc_device *dev = container_of(kobj, struct dmc_device, kobj);
	struct dmc_driver_private *dp;
	int err = 0;

	if (dev->type && dev->type->name)
		err = dmc_add_uevent_var(env, "DEVTYPE=%s", dev->type->name);
	/*
	 * Sent with or without the device lock, so the driver may be
	 * unbound, unregistered and freed under us: its name is taken from
	 * its private part, referenced.
	 */
	dp = err ? NULL : dmc_device_driver_private_get(dev);
	if (dp) {
		err = dmc_add_uevent_var(env, "DRIVER=%s", dp->kobj.name);
		dmc_kobject_put(&dp->kobj);
	}
	if (!err && dev->bus && dev->bus->uevent)
		err = dev->bus->uevent(dev, env);
	if (!err && dev->class && dev->class->dev_uevent)
		err = dev->class->dev_uevent(dev, env);
	if (!err && dev->type && dev->type->uevent)
		err = dev->type->uevent(dev, env);
	return err;
}

static const struct dmc_kset_uevent_ops dmc_device_uevent_ops = {
	.filter = dmc_dev_uevent_filter,
	.name = dmc_dev_uevent_name,
	.uevent = dmc_dev_uevent,
};

/* ---- the root: devices/ ---------------------------------------------------- */

struct dmc_kset *dmc_devices_kset;
struct dmc_kobject *dmc_virtual_dir;

/*
 * At load: devices/, the kset of every device (its uevent ops decide
 * which devices send events), and devices/virtual/, the parent of class
 * devices without one. Linux's devices_init() and virtual_device_parent().
 */
int dmc_devices_kset_init(void)
{
	dmc_devices_kset = __dmc_kset_create_and_add("devices", &dmc_device_uevent_ops,
						     NULL, false);
	if (!dmc_devices_kset)
		return -ENOMEM;
	dmc_virtual_dir = dmc_kobject_create_and_add("virtual",
						     &dmc_devices_kset->kobj);
	if (!dmc_virtual_dir) {
		dmc_kset_unregister(dmc_devices_kset);
		return -ENOMEM;
	}
	return 0;
}

void dmc_devices_kset_exit(void)
{
	dmc_kobject_del(dmc_virtual_dir);
	dmc_kobject_put(dmc_virtual_dir);
	dmc_kset_unregister(dmc_devices_kset);
}

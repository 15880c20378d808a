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

/* A suspend or resume runs callbacks that may delete devices: see dmc_attribute. */
static struct dmc_device_attribute dmc_dev_attr_state = {
	.attr = { .name = "state", .mode = 0644, .break_active = true },
	.show = state_show,
	.store = state_store,
};

/* devres: the managed resources (devres.c), oldest first: "name size". */
static ssize_t devres_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	return dmc_devres_show(dev, buf);
}
static DMC_DEVICE_ATTR(devres, 0444, devres_show, NULL);

/*
 * driver_override: the only driver that may bind the device, "(null)"
 * for any, as platform and PCI devices show it in Linux; write a name to
 * set it, an empty line to clear it (dmc_driver_set_override()).
 */
static ssize_t driver_override_show(struct dmc_device *dev,
				    struct dmc_device_attribute *attr, char *buf)
{
	ssize_t len;

	dmc_device_lock(dev);
	len = sysfs_emit(buf, "%s\n", dev->p->driver_override ?: "(null)");
	dmc_device_unlock(dev);
	return len;
}

static ssize_t driver_override_store(struct dmc_device *dev,
				     struct dmc_device_attribute *attr,
				     const char *buf, size_t count)
{
	int ret;

	ret = dmc_driver_set_override(dev, &dev->p->driver_override, buf, count);
	return ret ?: count;
}
static DMC_DEVICE_ATTR(driver_override, 0644, driver_override_show,
		       driver_override_store);

/*
 * state_synced: 1 once the driver's (or bus's) sync_state() was called for
 * this binding, or is about to be (link_state.c), as Linux's file; shown
 * for every device (Linux only with a sync_state()).
 */
static ssize_t state_synced_show(struct dmc_device *dev,
				 struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dmc_dev_state_synced(dev));
}
static DMC_DEVICE_ATTR(state_synced, 0444, state_synced_show, NULL);

static struct dmc_attribute *dmc_device_core_attrs[] = {
	&dmc_dev_attr_uevent.attr,
	&dmc_dev_attr_devres.attr,
	&dmc_dev_attr_driver_override.attr,
	&dmc_dev_attr_state_synced.attr,
	NULL,
};

static struct dmc_attribute *dmc_device_power_attrs[] = {
	&dmc_dev_attr_state.attr,
	/* runtime PM (runtime.c) */
	&dmc_dev_attr_runtime_status.attr,
	&dmc_dev_attr_control.attr,
	&dmc_dev_attr_runtime_usage.attr,
	&dmc_dev_attr_runtime_active_kids.attr,
	&dmc_dev_attr_runtime_enabled.attr,
	&dmc_dev_attr_autosuspend_delay_ms.attr,
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

/**
 * dmc_device_add_groups() - add attribute groups to a device
 * @dev: a device in the tree; the caller holds a reference
 * @groups: NULL-terminated groups, or NULL
 *
 * dmc_sysfs_create_groups() on the device's kobject, as Linux's
 * device_add_groups(); their attributes are struct dmc_device_attribute.
 * A driver's dev_groups are added so by the core after its probe.
 *
 * Context: may sleep.
 * Return: as dmc_sysfs_create_groups().
 */
int dmc_device_add_groups(struct dmc_device *dev,
			  const struct dmc_attribute_group **groups)
{
	return dmc_sysfs_create_groups(dev ? &dev->kobj : NULL, groups);
}
EXPORT_SYMBOL_GPL(dmc_device_add_groups);

/**
 * dmc_device_remove_groups() - remove groups added by dmc_device_add_groups()
 * @dev: the device
 * @groups: the same list, or NULL
 *
 * Context: as dmc_sysfs_remove_group(): waits for their running shows and
 * stores; none of them may take a lock the caller holds (at unbind, the
 * device lock).
 */
void dmc_device_remove_groups(struct dmc_device *dev,
			      const struct dmc_attribute_group **groups)
{
	if (dev)
		dmc_sysfs_remove_groups(&dev->kobj, groups);
}
EXPORT_SYMBOL_GPL(dmc_device_remove_groups);

/**
 * dmc_device_add_group() - dmc_sysfs_create_group() on a device
 * @dev: the device
 * @grp: the group
 *
 * Context: may sleep.
 * Return: as dmc_sysfs_create_group().
 */
int dmc_device_add_group(struct dmc_device *dev, const struct dmc_attribute_group *grp)
{
	return dmc_sysfs_create_group(dev ? &dev->kobj : NULL, grp);
}
EXPORT_SYMBOL_GPL(dmc_device_add_group);

/**
 * dmc_device_remove_group() - dmc_sysfs_remove_group() on a device
 * @dev: the device
 * @grp: the group
 *
 * Context: as dmc_sysfs_remove_group().
 */
void dmc_device_remove_group(struct dmc_device *dev, const struct dmc_attribute_group *grp)
{
	if (dev)
		dmc_sysfs_remove_group(&dev->kobj, grp);
}
EXPORT_SYMBOL_GPL(dmc_device_remove_group);

/**
 * dmc_device_create_file() - add one attribute to a device
 * @dev: the device
 * @attr: the attribute
 *
 * Context: may sleep.
 * Return: as dmc_sysfs_create_file().
 */
int dmc_device_create_file(struct dmc_device *dev,
			   const struct dmc_device_attribute *attr)
{
	return dmc_sysfs_create_file(dev ? &dev->kobj : NULL, attr ? &attr->attr : NULL);
}
EXPORT_SYMBOL_GPL(dmc_device_create_file);

/**
 * dmc_device_remove_file() - remove an attribute added by dmc_device_create_file()
 * @dev: the device
 * @attr: the attribute
 *
 * Context: as dmc_sysfs_remove_file().
 */
void dmc_device_remove_file(struct dmc_device *dev,
			    const struct dmc_device_attribute *attr)
{
	if (dev)
		dmc_sysfs_remove_file(&dev->kobj, attr ? &attr->attr : NULL);
}
EXPORT_SYMBOL_GPL(dmc_device_remove_file);

/**
 * dmc_device_create_bin_file() - add one binary attribute to a device
 * @dev: the device
 * @attr: the binary attribute
 *
 * Context: may sleep.
 * Return: as dmc_sysfs_create_bin_file().
 */
int dmc_device_create_bin_file(struct dmc_device *dev,
			       const struct dmc_bin_attribute *attr)
{
	return dmc_sysfs_create_bin_file(dev ? &dev->kobj : NULL, attr);
}
EXPORT_SYMBOL_GPL(dmc_device_create_bin_file);

/**
 * dmc_device_remove_bin_file() - remove a binary attribute of a device
 * @dev: the device
 * @attr: the binary attribute
 *
 * Context: as dmc_sysfs_remove_file().
 */
void dmc_device_remove_bin_file(struct dmc_device *dev,
				const struct dmc_bin_attribute *attr)
{
	if (dev)
		dmc_sysfs_remove_bin_file(&dev->kobj, attr);
}
EXPORT_SYMBOL_GPL(dmc_device_remove_bin_file);

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
	const struct dmc_attribute_group *online = dmc_device_online_group_of(dev);
	int ret;

	ret = dmc_walk_group_list(kobj, dmc_device_core_groups, data, fn);
	if (!ret && online)
		ret = fn(kobj, online, data);
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

static int dmc_device_walk_links(struct dmc_kobject *kobj, const char *name,
				 void *data,
				 int (*fn)(struct dmc_kobject *kobj, const char *name,
					   struct dmc_kobject *target, void *data));

const struct dmc_kobj_type dmc_device_ktype = {
	.name = "device",
	.indexed_elsewhere = true,
	.release = dmc_device_release,
	.sysfs_ops = &dmc_dev_sysfs_ops,
	.walk_groups = dmc_device_walk_groups,
	.link_names = dmc_device_link_names,
	.walk_links = dmc_device_walk_links,
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

/* ---- links, derived from the model (kobject_links.c) ---------------------- */

/*
 * Is @dev shown in its own links and in the directories that list
 * devices? Not once its deletion began (its links are withdrawn then).
 */
bool dmc_device_linkable(const struct dmc_device *dev)
{
	return dev->p && !READ_ONCE(dev->p->dead);
}

static struct dmc_device *dmc_device_of_node(struct dmc_klist_node *n, size_t off)
{
	return ((struct dmc_device_private *)((char *)n - off))->device;
}

/*
 * The walk_links() of a directory that lists devices (a bus's devices/, a
 * class, a driver): the devices on @k, whose nodes sit at @off in their
 * struct dmc_device_private, each a link named after the device to the
 * device; with @name only that one, through @k's index if it has one.
 * dmc_tree_mutex held: a device listed there and not dead is in the tree.
 */
int dmc_device_list_walk_links(struct dmc_kobject *dir, struct dmc_klist *k,
			       size_t off, const char *name, void *data,
			       int (*fn)(struct dmc_kobject *kobj, const char *name,
					 struct dmc_kobject *target, void *data))
{
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	struct dmc_device *dev;
	int ret = 0;

	lockdep_assert_held(&dmc_tree_mutex);
	if (name) {
		n = dmc_klist_find(k, name);
		if (!n)
			return 0;
		dev = dmc_device_of_node(n, off);
		if (dmc_device_linkable(dev))
			ret = fn(dir, dev->kobj.name, &dev->kobj, data);
		k->put(n);
		return ret;
	}
	dmc_klist_iter_start(k, &it);
	while (!ret && (n = dmc_klist_iter_next(&it))) {
		dev = dmc_device_of_node(n, off);
		if (dmc_device_linkable(dev))
			ret = fn(dir, dev->kobj.name, &dev->kobj, data);
	}
	dmc_klist_iter_exit(&it);
	return ret;
}

/*
 * The devlink symlinks (devlink.c): in a link's device "supplier" and
 * "consumer", in a supplier "consumer:<bus>:<name>" and in a consumer
 * "supplier:<bus>:<name>" to the link's device, for the links shown
 * (link.c puts them on the lists under dmc_tree_mutex once the link's
 * device is in the tree, both ends alive, and takes them off before
 * either leaves it).
 */
static int dmc_device_walk_devlinks(struct dmc_device *dev, const char *name,
				    void *data,
				    int (*fn)(struct dmc_kobject *kobj, const char *name,
					      struct dmc_kobject *target, void *data))
{
	char buf[DMC_DEVLINK_SYMLINK_MAX];
	struct dmc_device_link *link = dev->p->devlink;
	struct dmc_kobject *kobj = &dev->kobj;
	int ret = 0;

	if (link && (!name || !strcmp(name, "supplier")))
		ret = fn(kobj, "supplier", &link->supplier->kobj, data);
	if (!ret && link && (!name || !strcmp(name, "consumer")))
		ret = fn(kobj, "consumer", &link->consumer->kobj, data);
	if (ret || (name && strncmp(name, "consumer:", 9) &&
		    strncmp(name, "supplier:", 9)))
		return ret;
	list_for_each_entry(link, &dev->p->devlink_cons, sup_tnode) {
		dmc_devlink_symlink_name(link, true, buf, sizeof(buf));
		if (!name || !strcmp(name, buf))
			ret = fn(kobj, buf, &link->link_dev.kobj, data);
		if (ret)
			return ret;
	}
	list_for_each_entry(link, &dev->p->devlink_sups, con_tnode) {
		dmc_devlink_symlink_name(link, false, buf, sizeof(buf));
		if (!name || !strcmp(name, buf))
			ret = fn(kobj, buf, &link->link_dev.kobj, data);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A device's own links: "subsystem" to its bus while on it (else to its
 * class while in it), "driver" to its driver's directory while bound and
 * on the driver's list. Each follows state set before the link is
 * announced and cleared before it is withdrawn (bus and class membership,
 * the driver's list; dead for all of them). Under dmc_tree_mutex, the
 * bus or class read from @dev, and the driver, stay registered.
 */
static int dmc_device_walk_links(struct dmc_kobject *kobj, const char *name,
				 void *data,
				 int (*fn)(struct dmc_kobject *kobj, const char *name,
					   struct dmc_kobject *target, void *data))
{
	struct dmc_device *dev = to_dmc_device(kobj);
	struct dmc_subsys_private *bp = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	struct dmc_subsys_private *cp = dev->class ? READ_ONCE(dev->class->p) : NULL;
	struct dmc_kobject *subsys = NULL;
	struct dmc_driver_private *dp;
	int ret = 0;

	lockdep_assert_held(&dmc_tree_mutex);
	if (!dmc_device_linkable(dev))
		return 0;
	if (bp && dmc_klist_node_attached(&dev->p->knode_bus))
		subsys = &bp->subsys.kobj;
	else if (!bp && cp && dmc_klist_node_attached(&dev->p->knode_class))
		subsys = &cp->subsys.kobj;
	if (subsys && (!name || !strcmp(name, "subsystem")))
		ret = fn(kobj, "subsystem", subsys, data);
	if (ret || (name && strcmp(name, "driver")))
		return ret ?: dmc_device_walk_devlinks(dev, name, data, fn);
	/*
	 * Not the last reference: the driver's directory leaves the tree
	 * (under the mutex held here) before its registration's is dropped.
	 */
	dp = dmc_device_driver_private_get(dev);
	if (dp && dmc_klist_node_attached(&dev->p->knode_driver) &&
	    dmc_kobject_in_tree(&dp->kobj))
		ret = fn(kobj, "driver", &dp->kobj, data);
	if (dp)
		dmc_kobject_put(&dp->kobj);
	return ret ?: dmc_device_walk_devlinks(dev, name, data, fn);
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
						     NULL, false, NULL);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * Drivers: registration and unregistration, the driver's directory
 * bus/<bus>/drivers/<name> with its bind, unbind and uevent files,
 * lookups. The counterpart of Linux's driver registration in
 * drivers/base/, with the driver half of its bus code
 * (bus_add_driver(), bind_store(), unbind_store()). A driver's active
 * uses are counted in bus.c, binding itself is in dd.c, deferred probe in
 * deferred.c; this file stands on all three.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>

#include "base.h"

/* ---- the driver's files: bind, unbind, uevent ---------------------------------- */

/* The device of @drv's bus named in a write (one trailing newline allowed). */
static struct dmc_device *dmc_driver_find_written(struct dmc_driver *drv,
						  const char *buf, size_t count)
{
	char name[DMC_NAME_MAX + 1];
	struct dmc_device *dev;

	if (count && buf[count - 1] == '\n')
		count--;
	if (!count || count > DMC_NAME_MAX)
		return NULL;
	memcpy(name, buf, count);
	name[count] = '\0';
	dev = dmc_bus_find_device_by_name(drv->bus, name);
	if (!dev)
		pr_err_ratelimited("dmcore: %s: no device '%s' on bus '%s'\n",
				   drv->name, name, drv->bus->name);
	return dev;
}

static ssize_t bind_store(struct dmc_driver *drv, const char *buf, size_t count)
{
	struct dmc_device *dev = dmc_driver_find_written(drv, buf, count);
	int err;

	if (!dev)
		return -ENODEV;
	err = dmc_device_driver_attach(drv, dev);
	dmc_device_put(dev);
	/* A kernel-internal errno never reaches userspace (Linux: -EAGAIN). */
	if (err == -EPROBE_DEFER)
		err = -EAGAIN;
	return err ?: count;
}

static ssize_t unbind_store(struct dmc_driver *drv, const char *buf, size_t count)
{
	struct dmc_device *dev = dmc_driver_find_written(drv, buf, count);
	int err = -ENODEV;

	if (!dev)
		return -ENODEV;
	if (dmc_device_release_driver_from(dev, drv))
		err = 0;
	dmc_device_put(dev);
	return err ?: count;
}

static ssize_t drv_uevent_store(struct dmc_driver *drv, const char *buf,
				size_t count)
{
	struct dmc_kobject *kobj = dmc_driver_kobj(drv);

	if (!kobj)
		return -ENODEV;
	return dmc_kobject_uevent_store(kobj, buf, count);
}

static struct dmc_driver_attribute dmc_drv_attr_bind = {
	.attr = { .name = "bind", .mode = 0200, .break_active = true },
	.store = bind_store,
};

static struct dmc_driver_attribute dmc_drv_attr_unbind = {
	.attr = { .name = "unbind", .mode = 0200, .break_active = true },
	.store = unbind_store,
};

static struct dmc_driver_attribute dmc_drv_attr_uevent = {
	.attr = { .name = "uevent", .mode = 0200 },
	.store = drv_uevent_store,
};

static struct dmc_attribute *dmc_driver_core_attrs[] = {
	&dmc_drv_attr_bind.attr,
	&dmc_drv_attr_unbind.attr,
	&dmc_drv_attr_uevent.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_driver_core_group = {
	.attrs = dmc_driver_core_attrs,
};

static struct dmc_attribute *dmc_driver_uevent_attrs[] = {
	&dmc_drv_attr_uevent.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_driver_uevent_group = {
	.attrs = dmc_driver_uevent_attrs,
};

/* For drivers with suppress_bind_attrs: "uevent" only. */
static const struct dmc_attribute_group *dmc_driver_uevent_groups[] = {
	&dmc_driver_uevent_group,
	NULL,
};

static const struct dmc_attribute_group *dmc_driver_core_groups[] = {
	&dmc_driver_core_group,
	NULL,
};

/* ---- the driver's directory: bus/<bus>/drivers/<name> --------------------- */

static void dmc_driver_private_release(struct dmc_kobject *kobj)
{
	struct dmc_driver_private *dp = container_of(kobj, struct dmc_driver_private,
						     kobj);

	dmc_match_keys_free(dp);
	dmc_klist_destroy(&dp->klist_devices);
	if (dp->bus)
		dmc_kobject_put(&dp->bus->subsys.kobj);
	kfree(dp);
}

/*
 * A driver attribute's show and store (the core's bind, unbind and
 * uevent, the bus's and the driver's own) run under an active use of the
 * driver, so dmc_driver_unregister() waits for them. @attr may be the
 * owner's: it is read only after the use began.
 */
static ssize_t dmc_drv_attr_show(struct dmc_kobject *kobj,
				 struct dmc_attribute *attr, char *buf)
{
	struct dmc_driver_private *dp = container_of(kobj, struct dmc_driver_private,
						     kobj);
	struct dmc_driver_attribute *da = container_of(attr, struct dmc_driver_attribute,
						       attr);
	struct dmc_driver *drv = dmc_driver_active_get(dp);
	ssize_t ret;

	if (!drv)
		return -ENODEV;
	ret = da->show ? da->show(drv, buf) : -EIO;
	dmc_driver_active_put(dp);
	return ret;
}

static ssize_t dmc_drv_attr_store(struct dmc_kobject *kobj,
				  struct dmc_attribute *attr, const char *buf,
				  size_t count)
{
	struct dmc_driver_private *dp = container_of(kobj, struct dmc_driver_private,
						     kobj);
	struct dmc_driver_attribute *da = container_of(attr, struct dmc_driver_attribute,
						       attr);
	struct dmc_driver *drv = dmc_driver_active_get(dp);
	ssize_t ret;

	if (!drv)
		return -ENODEV;
	ret = da->store ? da->store(drv, buf, count) : -EIO;
	dmc_driver_active_put(dp);
	return ret;
}

static const struct dmc_sysfs_ops dmc_drv_sysfs_ops = {
	.show = dmc_drv_attr_show,
	.store = dmc_drv_attr_store,
};

/*
 * A driver's groups: the core's (bind, unbind, uevent; only uevent with
 * suppress_bind_attrs), its bus's, its own.
 */
static int dmc_driver_walk_groups(struct dmc_kobject *kobj, void *data,
				  int (*fn)(struct dmc_kobject *kobj,
					    const struct dmc_attribute_group *grp,
					    void *data))
{
	struct dmc_driver_private *dp = container_of(kobj, struct dmc_driver_private,
						     kobj);
	/* The driver's own groups only while it is in use: its owner frees it. */
	struct dmc_driver *drv = dmc_driver_active_get(dp);
	int ret;

	ret = dmc_walk_group_list(kobj, drv && drv->suppress_bind_attrs ?
				  dmc_driver_uevent_groups : dmc_driver_core_groups,
				  data, fn);
	if (!ret && drv && drv->bus)
		ret = dmc_walk_group_list(kobj, drv->bus->drv_groups, data, fn);
	if (!ret && drv)
		ret = dmc_walk_group_list(kobj, drv->groups, data, fn);
	if (drv)
		dmc_driver_active_put(dp);
	return ret;
}

/*
 * A driver's links: one per bound device, named after it. By name through
 * the bus's index of devices (the driver's own list has none), then
 * checked: still bound to this driver, on its list. Under dmc_tree_mutex.
 */
static int dmc_driver_walk_links(struct dmc_kobject *kobj, const char *name,
				 void *data,
				 int (*fn)(struct dmc_kobject *kobj, const char *name,
					   struct dmc_kobject *target, void *data))
{
	struct dmc_driver_private *dp = container_of(kobj, struct dmc_driver_private,
						     kobj);
	struct dmc_driver_private *bound;
	struct dmc_klist_node *n;
	struct dmc_device *dev;
	int ret = 0;

	if (!name)
		return dmc_device_list_walk_links(kobj, &dp->klist_devices,
						  offsetof(struct dmc_device_private,
							   knode_driver),
						  NULL, data, fn);
	n = dmc_klist_find(&dp->bus->klist_devices, name);
	if (!n)
		return 0;
	dev = container_of(n, struct dmc_device_private, knode_bus)->device;
	bound = dmc_device_driver_private_get(dev);
	if (bound == dp && dmc_klist_node_attached(&dev->p->knode_driver) &&
	    dmc_device_linkable(dev))
		ret = fn(kobj, dev->kobj.name, &dev->kobj, data);
	if (bound)
		dmc_kobject_put(&bound->kobj);
	dp->bus->klist_devices.put(n);
	return ret;
}

static const struct dmc_kobj_type dmc_driver_ktype = {
	.name = "driver",
	.indexed_elsewhere = true,
	.release = dmc_driver_private_release,
	.sysfs_ops = &dmc_drv_sysfs_ops,
	.walk_groups = dmc_driver_walk_groups,
	.walk_links = dmc_driver_walk_links,
};

static bool dmc_drv_dev_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(&container_of(n, struct dmc_device_private,
							 knode_driver)->device->kobj);
}

static void dmc_drv_dev_put(struct dmc_klist_node *n)
{
	dmc_device_put(container_of(n, struct dmc_device_private,
				    knode_driver)->device);
}

static const char *dmc_drv_dev_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_device_private, knode_driver)->device->kobj.name;
}

/*
 * Make the driver's bus/<bus>/drivers/<name> and put it on the bus;
 * called by dmc_driver_register() after its checks.
 */
static int dmc_bus_add_driver(struct dmc_driver *drv)
{
	struct dmc_subsys_private *priv = READ_ONCE(drv->bus->p);
	struct dmc_driver_private *dp;
	int err;

	if (!priv || !priv->bus)
		return -EINVAL;
	dp = kzalloc(sizeof(*dp), GFP_KERNEL);
	if (!dp)
		return -ENOMEM;
	err = dmc_klist_init(&dp->klist_devices, dmc_drv_dev_get, dmc_drv_dev_put,
			     dmc_drv_dev_name, false);
	if (err) {
		kfree(dp);
		return err;
	}
	dp->driver = drv;
	init_completion(&dp->removed);
	dp->kobj.kset = priv->drivers_kset;
	err = dmc_kobject_init(&dp->kobj, &dmc_driver_ktype);
	if (err) {
		dmc_klist_destroy(&dp->klist_devices);
		kfree(dp);
		return err;
	}
	dp->bus = priv;
	dmc_kobject_get(&priv->subsys.kobj);
	err = dmc_match_keys_prepare(dp, drv);
	if (err)
		goto err_put;
	err = dmc_kobject_add(&dp->kobj, NULL, "%s", drv->name);
	if (err)
		goto err_put;
	dmc_model_change_begin();
	err = dmc_klist_add(&priv->klist_drivers, &dp->knode_bus, true);
	dmc_model_change_end();
	if (err) {
		pr_err_ratelimited("dmcore: bus '%s' has a driver '%s' already\n",
				   drv->bus->name, drv->name);
		err = -EBUSY;
		goto err_del;
	}
	spin_lock(&dmc_driver_p_lock);
	drv->p = dp;
	dp->seq = ++priv->drivers_seq;
	list_add_tail_rcu(&dp->bus_entry, &priv->drivers);
	dmc_match_keys_link(dp);
	WRITE_ONCE(dp->on_bus, true);
	spin_unlock(&dmc_driver_p_lock);
	dmc_kobject_uevent(&dp->kobj, DMC_KOBJ_ADD);
	if (READ_ONCE(priv->drivers_autoprobe))
		dmc_driver_attach(drv);
	return 0;

err_del:
	dmc_kobject_del(&dp->kobj);
err_put:
	dmc_kobject_put(&dp->kobj);
	return err;
}

/**
 * dmc_driver_private_get() - the private part of a registered driver
 * @drv: the driver, which its caller keeps alive
 *
 * Return: @drv->p with a reference on its kobject, or NULL once the
 * driver is unregistered. Read under dmc_driver_p_lock, as
 * dmc_bus_remove_driver() clears it, so an overlapping unregistration
 * never drops the last reference between the read and the get.
 */
static struct dmc_driver_private *dmc_driver_private_get(struct dmc_driver *drv)
{
	struct dmc_driver_private *dp;

	spin_lock(&dmc_driver_p_lock);
	dp = drv->p;
	if (dp)
		dmc_kobject_get(&dp->kobj);
	spin_unlock(&dmc_driver_p_lock);
	return dp;
}

/*
 * The last step of dmc_driver_remove(), once the driver was taken off its
 * bus's list, its uses drained and its devices unbound: forget the
 * driver and remove its directory. The caller drops the registration's
 * reference after waking the waiters on @dp->removed.
 */
static void dmc_bus_remove_driver(struct dmc_driver *drv, struct dmc_driver_private *dp)
{
	spin_lock(&dmc_driver_p_lock);
	drv->p = NULL;
	spin_unlock(&dmc_driver_p_lock);
	dmc_kobject_del(&dp->kobj);
}

/* ---- registration -------------------------------------------------------------- */

/* May @drv be registered? 0, or why not (said in the log). */
static int dmc_driver_register_check(struct dmc_driver *drv)
{
	if (!drv || !drv->name || !drv->bus) {
		pr_err_ratelimited("dmcore: driver_register: %s\n",
				   !drv ? "NULL driver" : !drv->name ?
				   "driver without a name" : "driver without a bus");
		return -EINVAL;
	}
	if (!dmc_bus_is_registered(drv->bus)) {
		pr_err_ratelimited("dmcore: driver '%s': bus '%s' is not registered\n",
				   drv->name, drv->bus->name ?: "(unnamed)");
		return -EINVAL;
	}
	if (drv->p) {
		pr_err_ratelimited("dmcore: driver '%s' registered twice\n", drv->name);
		return -EBUSY;
	}
	if (dmc_bus_find_driver(drv->bus, drv->name)) {
		pr_err_ratelimited("dmcore: bus '%s' has a driver '%s' already\n",
				   drv->bus->name, drv->name);
		return -EBUSY;
	}
	return 0;
}

/**
 * dmc_driver_register() - register a driver with its bus
 * @drv: the driver, with a name and a registered @drv->bus
 *
 * Makes bus/<bus>/drivers/<name>, sends "add" for it, offers it every
 * unbound device of the bus (unless autoprobe is off), and retries the
 * devices whose probe was deferred waiting for a driver of this name.
 *
 * Context: may sleep; runs match and probe callbacks.
 * Return: 0; -EINVAL for NULL, a nameless driver, no bus or an
 * unregistered bus, or an empty match key or one of DMC_MATCH_KEY_MAX
 * bytes or more on a bus with match keys; -EBUSY if @drv is registered already or its bus has a
 * driver of that name; -ENOMEM. On failure nothing was changed.
 */
int dmc_driver_register(struct dmc_driver *drv)
{
	int err;

	err = dmc_driver_register_check(drv);
	if (err)
		return err;
	err = dmc_bus_add_driver(drv);
	if (err)
		return err;
	if (dmc_deferred_trigger(drv->name, false))
		dmc_deferred_kick();
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_driver_register);

/*
 * Unregister the driver of @dp (referenced by the caller). The first of
 * overlapping unregistrations (its owner's, its bus's) claims the work by
 * clearing @dp->driver; the others wait until it is done, so that none
 * returns while the driver is still in use.
 */
void dmc_driver_remove(struct dmc_driver_private *dp)
{
	struct dmc_driver *drv = READ_ONCE(dp->driver);

	if (!drv || cmpxchg(&dp->driver, drv, NULL) != drv) {
		wait_for_completion(&dp->removed);
		return;
	}
	/*
	 * No new match or probe with @drv: off the walks' list, a grace
	 * period for the walks matching with it, then the probes under way.
	 */
	spin_lock(&dmc_driver_p_lock);
	if (dp->on_bus) {
		list_del_rcu(&dp->bus_entry);
		dmc_match_keys_unlink(dp);
		WRITE_ONCE(dp->on_bus, false);
	}
	spin_unlock(&dmc_driver_p_lock);
	synchronize_srcu_expedited(&dmc_driver_srcu);
	smp_mb();	/* clear before reading the count; pairs with dmc_driver_active_get() */
	wait_var_event(&dp->active, !atomic_read(&dp->active));
	dmc_model_change_begin();
	dmc_klist_del(&dp->bus->klist_drivers, &dp->knode_bus);
	dmc_model_change_end();
	dmc_driver_detach(drv);
	/* A device its walk missed, being unbound elsewhere: wait for it. */
	wait_var_event(&dp->unbinding, !atomic_read(&dp->unbinding));
	dmc_deferred_drop_driver(drv);
	dmc_bus_remove_driver(drv, dp);
	complete_all(&dp->removed);
	dmc_kobject_put(&dp->kobj);	/* the registration's */
}

/**
 * dmc_driver_unregister() - unbind a driver from every device and remove it
 * @drv: the driver; a driver never registered, or detached when its bus
 *	was unregistered, is left alone
 *
 * Waits for asynchronous probes in flight, then for every use of @drv
 * under way: a match or probe with it, a show or store of one of its
 * attributes (bind, unbind, uevent, its bus's and its own), an unbind
 * of one of its devices begun elsewhere (dmc_device_release_driver(),
 * a device's deletion). When it
 * returns, the core holds no pointer to @drv and calls none of its
 * callbacks, so the owner may free it and its module may go: dmcore
 * drains the uses of a driver at its unregistration, as kernfs drains a
 * removed file's active references, and takes no reference on the
 * owner's module. An unregistration of the same driver running
 * elsewhere (its bus's dmc_bus_unregister(), a second call) is waited
 * for, not repeated.
 *
 * Context: may sleep; runs the driver's remove callbacks. Must not be
 * called from a probe or remove callback, nor from a show or store of
 * the driver's own attributes (it would wait for itself).
 */
void dmc_driver_unregister(struct dmc_driver *drv)
{
	struct dmc_driver_private *dp = drv ? dmc_driver_private_get(drv) : NULL;

	if (!dp) {
		pr_debug("dmcore: unregister of a driver that is not registered\n");
		return;
	}
	dmc_wait_for_device_probe();
	dmc_driver_remove(dp);
	dmc_kobject_put(&dp->kobj);
}
EXPORT_SYMBOL_GPL(dmc_driver_unregister);

/**
 * dmc_driver_is_registered() - is the driver registered?
 * @drv: the driver
 *
 * Return: true between dmc_driver_register() and its unregistration.
 */
bool dmc_driver_is_registered(const struct dmc_driver *drv)
{
	return drv && READ_ONCE(drv->p);
}
EXPORT_SYMBOL_GPL(dmc_driver_is_registered);

/**
 * dmc_driver_kobj() - the kobject of a registered driver's directory
 * @drv: the driver
 *
 * Return: bus/<bus>/drivers/<name>'s kobject (no reference taken), or
 * NULL if @drv is not registered.
 */
struct dmc_kobject *dmc_driver_kobj(struct dmc_driver *drv)
{
	struct dmc_driver_private *dp = drv ? READ_ONCE(drv->p) : NULL;

	return dp ? &dp->kobj : NULL;
}
EXPORT_SYMBOL_GPL(dmc_driver_kobj);

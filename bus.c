// SPDX-License-Identifier: GPL-2.0
/*
 * What is on a bus: its devices and drivers, its notifier chain, its
 * autoprobe switch. The counterpart of the membership half of Linux's
 * bus code in drivers/base/ (bus_add_device(), bus_for_each_dev(),
 * bus_find_device_by_name(), the bus notifier).
 *
 * A bus's devices and drivers are kept in indexed klists of its
 * struct dmc_subsys_private, so finding either by name takes O(1)
 * expected time where Linux walks a list. The walk over a bus's drivers
 * brackets each use of a driver with dmc_driver_active_get() and _put(),
 * inlines in base.h.
 *
 * Registering and unregistering a bus (bus/<name>/, its files) is in
 * subsys.c, a driver's directory in driver.c, binding in dd.c: this file
 * calls none of them.
 */

#include <linux/export.h>
#include <linux/notifier.h>
#include <linux/wait_bit.h>

#include "base.h"

/**
 * dmc_bus_is_registered() - is the bus registered?
 * @bus: the bus
 *
 * Return: true between dmc_bus_register() and dmc_bus_unregister().
 */
bool dmc_bus_is_registered(const struct dmc_bus_type *bus)
{
	return bus && READ_ONCE(bus->p);
}
EXPORT_SYMBOL_GPL(dmc_bus_is_registered);

/**
 * dmc_bus_register_notifier() - be told of a bus's device events
 * @bus: a registered bus
 * @nb: the notifier; called with an enum dmc_bus_notify action and the
 *	struct dmc_device, in process context, with no core lock held except,
 *	for the bind actions, the device lock
 *
 * Return: 0, or -EINVAL for an unregistered bus or NULL.
 */
int dmc_bus_register_notifier(struct dmc_bus_type *bus, struct notifier_block *nb)
{
	if (!dmc_bus_is_registered(bus) || !nb)
		return -EINVAL;
	return blocking_notifier_chain_register(&bus->p->bus_notifier, nb);
}
EXPORT_SYMBOL_GPL(dmc_bus_register_notifier);

/**
 * dmc_bus_unregister_notifier() - stop being told
 * @bus: the bus
 * @nb: a registered notifier
 *
 * Return: 0, -EINVAL, or -ENOENT if @nb was not registered.
 */
int dmc_bus_unregister_notifier(struct dmc_bus_type *bus, struct notifier_block *nb)
{
	if (!dmc_bus_is_registered(bus) || !nb)
		return -EINVAL;
	return blocking_notifier_chain_unregister(&bus->p->bus_notifier, nb);
}
EXPORT_SYMBOL_GPL(dmc_bus_unregister_notifier);

void dmc_bus_notify(struct dmc_device *dev, enum dmc_bus_notify action)
{
	struct dmc_subsys_private *priv = dev->bus ? READ_ONCE(dev->bus->p) : NULL;

	if (priv)
		blocking_notifier_call_chain(&priv->bus_notifier, action, dev);
}

/* Put @dev on its bus's device list; the name must be free on the bus. */
int dmc_bus_add_device(struct dmc_device *dev)
{
	struct dmc_subsys_private *priv;
	int err;

	if (!dev->bus)
		return 0;
	priv = READ_ONCE(dev->bus->p);
	if (!priv || !priv->bus)
		return -EINVAL;
	err = dmc_klist_add(&priv->klist_devices, &dev->p->knode_bus, true);
	if (err) {
		if (err == -EEXIST)
			pr_err_ratelimited("dmcore: bus '%s' has a device '%s' already\n",
					   dev->bus->name, dev->kobj.name);
		return err;
	}
	/* The membership keeps the bus's private part alive. */
	dmc_kobject_get(&priv->subsys.kobj);
	return 0;
}

/* Take @dev off its bus; the caller unbound it (dmc_device_del()). */
void dmc_bus_remove_device(struct dmc_device *dev)
{
	struct dmc_subsys_private *priv;

	if (!dev->bus || !dmc_klist_node_attached(&dev->p->knode_bus))
		return;
	priv = dev->bus->p;
	if (priv && dmc_klist_del(&priv->klist_devices, &dev->p->knode_bus))
		dmc_kobject_put(&priv->subsys.kobj);
}

/**
 * dmc_bus_walk_devices() - call @fn for each device on a bus
 * @bus: the bus
 * @data: passed to @fn
 * @fn: called with a referenced device; a nonzero return stops the walk
 *
 * Safe against devices joining and leaving, including by @fn.
 *
 * Context: may sleep.
 * Return: the first nonzero value of @fn, 0, or -EINVAL.
 */
int dmc_bus_walk_devices(struct dmc_bus_type *bus,
			 void *data, int (*fn)(struct dmc_device *dev, void *data))
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	int ret = 0;

	if (!bus || !fn)
		return -EINVAL;
	priv = READ_ONCE(bus->p);
	if (!priv)
		return -EINVAL;
	dmc_klist_iter_start(&priv->klist_devices, &it);
	while (!ret && (n = dmc_klist_iter_next(&it)))
		ret = fn(container_of(n, struct dmc_device_private, knode_bus)->device,
			 data);
	dmc_klist_iter_exit(&it);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_bus_walk_devices);

/**
 * dmc_bus_walk_drivers() - call @fn for each driver on a bus
 * @bus: the bus
 * @data: passed to @fn
 * @fn: called for each driver; a nonzero return stops the walk. The
 *	driver's unregistration waits until @fn returned, so @fn must not
 *	unregister it.
 *
 * Context: may sleep.
 * Return: the first nonzero value of @fn, 0, or -EINVAL.
 */
int dmc_bus_walk_drivers(struct dmc_bus_type *bus,
			 void *data, int (*fn)(struct dmc_driver *drv, void *data))
{
	struct dmc_subsys_private *priv;
	struct dmc_driver_private *dp;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	struct dmc_driver *drv;
	int ret = 0;

	if (!bus || !fn)
		return -EINVAL;
	priv = READ_ONCE(bus->p);
	if (!priv)
		return -EINVAL;
	dmc_klist_iter_start(&priv->klist_drivers, &it);
	while (!ret && (n = dmc_klist_iter_next(&it))) {
		dp = container_of(n, struct dmc_driver_private, knode_bus);
		drv = dmc_driver_active_get(dp);
		if (drv) {
			ret = fn(drv, data);
			dmc_driver_active_put(dp);
		}
	}
	dmc_klist_iter_exit(&it);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_bus_walk_drivers);

/**
 * dmc_bus_find_device_by_name() - find a device on a bus by name
 * @bus: the bus
 * @name: the device's name
 *
 * O(1) expected time (Linux's bus_find_device_by_name() walks the list).
 *
 * Return: the device with a reference (drop it with dmc_device_put()), or
 * NULL.
 */
struct dmc_device *dmc_bus_find_device_by_name(struct dmc_bus_type *bus,
					       const char *name)
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_node *n;

	if (!bus || !name)
		return NULL;
	priv = READ_ONCE(bus->p);
	if (!priv)
		return NULL;
	n = dmc_klist_find(&priv->klist_devices, name);
	return n ? container_of(n, struct dmc_device_private, knode_bus)->device : NULL;
}
EXPORT_SYMBOL_GPL(dmc_bus_find_device_by_name);

/**
 * dmc_bus_find_driver() - find a driver on a bus by name
 * @bus: the bus
 * @name: the driver's name
 *
 * O(1) expected time. No reference is taken, as with Linux's
 * driver_find(): the driver's owner keeps it registered.
 *
 * Return: the driver, or NULL.
 */
struct dmc_driver *dmc_bus_find_driver(struct dmc_bus_type *bus, const char *name)
{
	struct dmc_subsys_private *priv;
	struct dmc_driver_private *dp;
	struct dmc_driver *drv = NULL;
	struct dmc_klist_node *n;

	if (!bus || !name)
		return NULL;
	priv = READ_ONCE(bus->p);
	if (!priv)
		return NULL;
	n = dmc_klist_find(&priv->klist_drivers, name);
	if (n) {
		dp = container_of(n, struct dmc_driver_private, knode_bus);
		drv = READ_ONCE(dp->driver);
		dmc_kobject_put(&dp->kobj);
	}
	return drv;
}
EXPORT_SYMBOL_GPL(dmc_bus_find_driver);

/**
 * dmc_bus_device_count() - number of devices on a bus
 * @bus: the bus
 *
 * Return: the count, 0 for an unregistered bus.
 */
unsigned int dmc_bus_device_count(struct dmc_bus_type *bus)
{
	struct dmc_subsys_private *priv = bus ? READ_ONCE(bus->p) : NULL;

	return priv ? dmc_klist_count(&priv->klist_devices) : 0;
}
EXPORT_SYMBOL_GPL(dmc_bus_device_count);

/**
 * dmc_bus_set_autoprobe() - bind new devices and drivers at once, or not
 * @bus: the bus
 * @on: true to bind at once (the default)
 *
 * With autoprobe off, devices bind only through dmc_device_attach(),
 * dmc_device_driver_attach() or dmc_bus_rescan_devices().
 *
 * Return: 0, or -EINVAL for an unregistered bus.
 */
int dmc_bus_set_autoprobe(struct dmc_bus_type *bus, bool on)
{
	struct dmc_subsys_private *priv = bus ? READ_ONCE(bus->p) : NULL;

	if (!priv)
		return -EINVAL;
	dmc_model_change_begin();
	WRITE_ONCE(priv->drivers_autoprobe, on);
	dmc_model_change_end();
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_bus_set_autoprobe);

/**
 * dmc_bus_get_autoprobe() - is autoprobe on?
 * @bus: the bus
 *
 * Return: the setting; false for an unregistered bus.
 */
bool dmc_bus_get_autoprobe(struct dmc_bus_type *bus)
{
	struct dmc_subsys_private *priv = bus ? READ_ONCE(bus->p) : NULL;

	return priv && READ_ONCE(priv->drivers_autoprobe);
}
EXPORT_SYMBOL_GPL(dmc_bus_get_autoprobe);

/* ---- a driver: its devices, and its uses by the core ------------------------ */

/*
 * Guards drv->p against dmc_driver_private_get() (driver.c) and
 * dmc_device_driver_private_get(); also a bus's list of drivers for
 * walks and its match index (see base.h).
 */
DEFINE_SPINLOCK(dmc_driver_p_lock);

/**
 * dmc_device_driver_private_get() - the driver bound to a device, without its lock
 * @dev: a device the caller holds a reference on
 *
 * For the readers of @dev->driver that cannot take the device lock (an
 * event's DRIVER variable: events are sent under the device lock; a
 * listener's replay of the links, under the tree mutex). A driver's
 * unregistration clears @drv->p under dmc_driver_p_lock only after every
 * device it served is unbound, @dev->driver cleared (dmc_driver_remove()
 * waits for the unbinds in flight), so a driver read from @dev->driver
 * under that lock is still registered until the lock is dropped, and its
 * private part, referenced here, outlives it. The driver itself does not:
 * its owner may free it as soon as its unregistration returns, so the
 * caller uses the private part (its kobject's name is the driver's
 * name), never @dev->driver.
 *
 * Context: any; takes a spinlock only when @dev is bound.
 * Return: the private part of @dev's driver with a reference on its
 * kobject (drop it with dmc_kobject_put()), or NULL when @dev is unbound.
 * A device being bound or unbound meanwhile gives either answer.
 */
struct dmc_driver_private *dmc_device_driver_private_get(const struct dmc_device *dev)
{
	struct dmc_driver_private *dp = NULL;
	struct dmc_driver *drv;

	if (!READ_ONCE(dev->driver))
		return NULL;
	spin_lock(&dmc_driver_p_lock);
	drv = READ_ONCE(dev->driver);
	if (drv) {
		dp = drv->p;
		if (!WARN_ON_ONCE(!dp))
			dmc_kobject_get(&dp->kobj);
	}
	spin_unlock(&dmc_driver_p_lock);
	return dp;
}

/**
 * dmc_driver_walk_devices() - call @fn for each device bound to @drv
 * @drv: the driver
 * @data: passed to @fn
 * @fn: called with a referenced device; a nonzero return stops the walk
 *
 * Context: may sleep.
 * Return: the first nonzero value of @fn, 0, or -EINVAL.
 */
int dmc_driver_walk_devices(struct dmc_driver *drv, void *data,
			    int (*fn)(struct dmc_device *dev, void *data))
{
	struct dmc_driver_private *dp;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	int ret = 0;

	if (!drv || !fn)
		return -EINVAL;
	dp = READ_ONCE(drv->p);
	if (!dp)
		return -EINVAL;
	dmc_klist_iter_start(&dp->klist_devices, &it);
	while (!ret && (n = dmc_klist_iter_next(&it)))
		ret = fn(container_of(n, struct dmc_device_private,
				      knode_driver)->device, data);
	dmc_klist_iter_exit(&it);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_driver_walk_devices);

/**
 * dmc_driver_device_count() - number of devices bound to a driver
 * @drv: the driver
 *
 * Return: the count, 0 for an unregistered driver.
 */
unsigned int dmc_driver_device_count(struct dmc_driver *drv)
{
	struct dmc_driver_private *dp = drv ? READ_ONCE(drv->p) : NULL;

	return dp ? dmc_klist_count(&dp->klist_devices) : 0;
}
EXPORT_SYMBOL_GPL(dmc_driver_device_count);

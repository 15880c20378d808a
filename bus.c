// SPDX-License-Identifier: GPL-2.0
/*
 * Buses: registration, a bus's devices and drivers, its notifier chain.
 * The counterpart of Linux's bus code in drivers/base/.
 *
 * A registered bus is bus/<name>/ with the sets devices/ and drivers/.
 * Its devices and drivers are kept in indexed klists, so finding either by
 * name takes O(1) expected time where Linux walks a list.
 *
 * Unregistering a bus removes what is still on it: every device is
 * deleted (after unbinding) and every driver detached. An owner's later
 * dmc_device_unregister() or dmc_driver_unregister() of those is then
 * harmless, so a bus module and its driver modules can be unloaded in
 * either order.
 */

#include <linux/export.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "base.h"

/* Guards drv->p against dmc_driver_private_get() (see there). */
static DEFINE_SPINLOCK(dmc_driver_p_lock);

/* Release of a bus's or class's private part, through its subsys kobject. */
void dmc_subsys_release(struct dmc_kobject *kobj)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);

	dmc_klist_destroy(&priv->klist_devices);
	dmc_klist_destroy(&priv->klist_drivers);
	kfree(priv);
}

/* ---- the bus's files -------------------------------------------------------- */

static struct dmc_bus_type *dmc_kobj_to_bus(struct dmc_kobject *kobj)
{
	return READ_ONCE(to_subsys_private(kobj)->bus);
}

/*
 * Begin a use of a bus's structure and callbacks, as
 * dmc_driver_active_get() does for a driver: dmc_bus_unregister() clears
 * priv->bus, then waits for these uses to end. Return: the bus, or NULL
 * (nothing to end) once its unregistration began.
 */
static struct dmc_bus_type *dmc_bus_active_get(struct dmc_subsys_private *priv)
{
	struct dmc_bus_type *bus;

	atomic_inc(&priv->active);
	smp_mb__after_atomic();	/* count before the check; pairs with dmc_bus_unregister() */
	bus = READ_ONCE(priv->bus);
	if (!bus && atomic_dec_and_test(&priv->active))
		wake_up_var(&priv->active);
	return bus;
}

static void dmc_bus_active_put(struct dmc_subsys_private *priv)
{
	if (atomic_dec_and_test(&priv->active))
		wake_up_var(&priv->active);
}

/*
 * A bus attribute's show and store run under an active use of the bus,
 * so dmc_bus_unregister() waits for them: its owner may free the bus and
 * its module may go once it returned. @attr may be the owner's: it is
 * read only after the use began.
 */
static ssize_t dmc_bus_attr_show(struct dmc_kobject *kobj,
				 struct dmc_attribute *attr, char *buf)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);
	struct dmc_bus_attribute *ba = container_of(attr, struct dmc_bus_attribute,
						    attr);
	struct dmc_bus_type *bus = dmc_bus_active_get(priv);
	ssize_t ret;

	if (!bus)
		return -ENODEV;
	ret = ba->show ? ba->show(bus, buf) : -EIO;
	dmc_bus_active_put(priv);
	return ret;
}

static ssize_t dmc_bus_attr_store(struct dmc_kobject *kobj,
				  struct dmc_attribute *attr, const char *buf,
				  size_t count)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);
	struct dmc_bus_attribute *ba = container_of(attr, struct dmc_bus_attribute,
						    attr);
	struct dmc_bus_type *bus = dmc_bus_active_get(priv);
	ssize_t ret;

	if (!bus)
		return -ENODEV;
	ret = ba->store ? ba->store(bus, buf, count) : -EIO;
	dmc_bus_active_put(priv);
	return ret;
}

static const struct dmc_sysfs_ops dmc_bus_sysfs_ops = {
	.show = dmc_bus_attr_show,
	.store = dmc_bus_attr_store,
};

static ssize_t bus_uevent_store(struct dmc_bus_type *bus, const char *buf,
				size_t count)
{
	struct dmc_subsys_private *priv = READ_ONCE(bus->p);

	if (!priv)
		return -ENODEV;
	return dmc_kobject_uevent_store(&priv->subsys.kobj, buf, count);
}

static ssize_t drivers_autoprobe_show(struct dmc_bus_type *bus, char *buf)
{
	return sysfs_emit(buf, "%d\n", dmc_bus_get_autoprobe(bus));
}

static ssize_t drivers_autoprobe_store(struct dmc_bus_type *bus, const char *buf,
				       size_t count)
{
	bool on;

	if (kstrtobool(buf, &on)) {
		pr_err_ratelimited("dmcore: %s/drivers_autoprobe: write 0 or 1\n",
				   bus->name);
		return -EINVAL;
	}
	dmc_bus_set_autoprobe(bus, on);
	return count;
}

/* drivers_probe: offer the named device to the bus's drivers. */
static ssize_t drivers_probe_store(struct dmc_bus_type *bus, const char *buf,
				   size_t count)
{
	char name[DMC_NAME_MAX + 1];
	struct dmc_device *dev;
	size_t len = count;
	int ret;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > DMC_NAME_MAX)
		return -EINVAL;
	memcpy(name, buf, len);
	name[len] = '\0';
	dev = dmc_bus_find_device_by_name(bus, name);
	if (!dev) {
		pr_err_ratelimited("dmcore: %s/drivers_probe: no device '%s'\n",
				   bus->name, name);
		return -ENODEV;
	}
	ret = dmc_device_attach(dev);
	dmc_device_put(dev);
	return ret < 0 && ret != -EPROBE_DEFER ? ret : count;
}

static struct dmc_bus_attribute dmc_bus_attr_uevent = {
	.attr = { .name = "uevent", .mode = 0200 },
	.store = bus_uevent_store,
};

static struct dmc_bus_attribute dmc_bus_attr_drivers_autoprobe = {
	.attr = { .name = "drivers_autoprobe", .mode = 0644 },
	.show = drivers_autoprobe_show,
	.store = drivers_autoprobe_store,
};

static struct dmc_bus_attribute dmc_bus_attr_drivers_probe = {
	.attr = { .name = "drivers_probe", .mode = 0200 },
	.store = drivers_probe_store,
};

static struct dmc_attribute *dmc_bus_core_attrs[] = {
	&dmc_bus_attr_uevent.attr,
	&dmc_bus_attr_drivers_autoprobe.attr,
	&dmc_bus_attr_drivers_probe.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_bus_core_group = {
	.attrs = dmc_bus_core_attrs,
};

static const struct dmc_attribute_group *dmc_bus_core_groups[] = {
	&dmc_bus_core_group,
	NULL,
};

static int dmc_bus_walk_groups(struct dmc_kobject *kobj, void *data,
			       int (*fn)(struct dmc_kobject *kobj,
					 const struct dmc_attribute_group *grp,
					 void *data))
{
	struct dmc_bus_type *bus = dmc_kobj_to_bus(kobj);
	int ret;

	ret = dmc_walk_group_list(kobj, dmc_bus_core_groups, data, fn);
	if (!ret && bus)
		ret = dmc_walk_group_list(kobj, bus->bus_groups, data, fn);
	return ret;
}

static const struct dmc_kobj_type dmc_bus_ktype = {
	.name = "bus",
	.indexed_elsewhere = true,
	.release = dmc_subsys_release,
	.sysfs_ops = &dmc_bus_sysfs_ops,
	.walk_groups = dmc_bus_walk_groups,
};

/*
 * Of the objects under bus/, only the buses themselves send events (as
 * Linux's bus_uevent_filter() decides): not their devices/ and drivers/
 * sets. Drivers send theirs through the drivers/ set.
 */
static int dmc_bus_uevent_filter(const struct dmc_kobject *kobj)
{
	return kobj->ktype == &dmc_bus_ktype;
}

static const struct dmc_kset_uevent_ops dmc_bus_uevent_ops = {
	.filter = dmc_bus_uevent_filter,
};

static bool dmc_bus_dev_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(&container_of(n, struct dmc_device_private,
							 knode_bus)->device->kobj);
}

static void dmc_bus_dev_put(struct dmc_klist_node *n)
{
	dmc_device_put(container_of(n, struct dmc_device_private, knode_bus)->device);
}

static bool dmc_bus_drv_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(&container_of(n, struct dmc_driver_private,
							 knode_bus)->kobj);
}

static void dmc_bus_drv_put(struct dmc_klist_node *n)
{
	dmc_kobject_put(&container_of(n, struct dmc_driver_private, knode_bus)->kobj);
}

/* Allocate and set up the private part shared by buses and classes. */
struct dmc_subsys_private *dmc_subsys_alloc(const char *name)
{
	struct dmc_subsys_private *priv;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return NULL;
	if (dmc_klist_init(&priv->klist_devices, dmc_bus_dev_get, dmc_bus_dev_put))
		goto err_free;
	if (dmc_klist_init(&priv->klist_drivers, dmc_bus_drv_get, dmc_bus_drv_put))
		goto err_devices;
	if (dmc_kobject_set_name(&priv->subsys.kobj, "%s", name))
		goto err_drivers;
	BLOCKING_INIT_NOTIFIER_HEAD(&priv->bus_notifier);
	INIT_LIST_HEAD(&priv->interfaces);
	mutex_init(&priv->mutex);
	return priv;

err_drivers:
	dmc_klist_destroy(&priv->klist_drivers);
err_devices:
	dmc_klist_destroy(&priv->klist_devices);
err_free:
	kfree(priv);
	return NULL;
}

/* Undo dmc_subsys_alloc() for a private part never registered. */
void dmc_subsys_free(struct dmc_subsys_private *priv)
{
	kfree(priv->subsys.kobj.name);
	dmc_klist_destroy(&priv->klist_drivers);
	dmc_klist_destroy(&priv->klist_devices);
	kfree(priv);
}

/**
 * dmc_bus_register() - register a bus
 * @bus: the bus, with a name
 *
 * Makes bus/<name>/ with devices/ and drivers/ and sends "add" for the
 * bus. New devices and drivers bind at once (drivers_autoprobe on).
 *
 * Context: may sleep.
 * Return: 0; -EINVAL for NULL or a nameless bus; -EBUSY if @bus is
 * registered already; -EEXIST if another bus has the name; -ENOMEM.
 */
int dmc_bus_register(struct dmc_bus_type *bus)
{
	struct dmc_subsys_private *priv;
	int err;

	if (!bus || !bus->name) {
		pr_err_ratelimited("dmcore: bus_register: %s\n",
				   bus ? "bus without a name" : "NULL bus");
		return -EINVAL;
	}
	if (bus->p) {
		pr_err_ratelimited("dmcore: bus '%s' registered twice\n", bus->name);
		return -EBUSY;
	}
	priv = dmc_subsys_alloc(bus->name);
	if (!priv)
		return -ENOMEM;
	priv->bus = bus;
	priv->drivers_autoprobe = true;
	priv->subsys.kobj.kset = dmc_bus_kset;
	priv->subsys.kobj.ktype = &dmc_bus_ktype;
	err = dmc_kobject_init(&priv->subsys.kobj, &dmc_bus_ktype);
	if (err) {
		dmc_subsys_free(priv);
		return err;
	}
	err = dmc_kset_register(&priv->subsys);
	if (err)
		goto err_put;

	err = -ENOMEM;
	priv->devices_kset = dmc_kset_create_and_add("devices", NULL,
						     &priv->subsys.kobj);
	if (!priv->devices_kset)
		goto err_unregister;
	priv->drivers_kset = dmc_kset_create_and_add("drivers", NULL,
						     &priv->subsys.kobj);
	if (!priv->drivers_kset)
		goto err_devices;

	WRITE_ONCE(bus->p, priv);
	return 0;

err_devices:
	dmc_kset_unregister(priv->devices_kset);
err_unregister:
	dmc_kobject_del(&priv->subsys.kobj);
err_put:
	dmc_kset_put(&priv->subsys);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_bus_register);

static int dmc_bus_remove_one_device(struct dmc_device *dev, void *data)
{
	dmc_device_del(dev);
	return 0;
}

/**
 * dmc_bus_unregister() - unregister a bus and remove what is on it
 * @bus: a registered bus
 *
 * Every device still on the bus is deleted (its driver unbound first) and
 * every driver detached; a later dmc_driver_unregister() of such a driver
 * does nothing and a later dmc_device_unregister() of such a device only
 * drops its reference. Adding a device or a driver to the bus fails with
 * -EINVAL once this began. It waits for the shows and stores of the
 * bus's attributes under way and for the unregistrations of its drivers
 * running elsewhere: when it returns, the core holds no pointer to @bus
 * and calls none of its callbacks, so the owner may free it and its
 * module may go (dmcore takes no reference on the owner's module; it
 * drains the uses at unregistration, as kernfs does for sysfs files).
 *
 * Context: may sleep; runs drivers' remove callbacks. Must not be called
 * from a callback of the bus or of one of its drivers.
 */
void dmc_bus_unregister(struct dmc_bus_type *bus)
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	if (!bus || !bus->p) {
		pr_err_ratelimited("dmcore: unregister of a bus that is not registered\n");
		return;
	}
	priv = bus->p;
	/* No new use of @bus through its attributes: wait for those under way. */
	WRITE_ONCE(priv->bus, NULL);
	smp_mb();	/* clear before reading the count; pairs with dmc_bus_active_get() */
	wait_var_event(&priv->active, !atomic_read(&priv->active));

	dmc_bus_walk_devices(bus, NULL, dmc_bus_remove_one_device);
	dmc_klist_iter_start(&priv->klist_drivers, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		dmc_wait_for_device_probe();
		dmc_driver_remove(container_of(n, struct dmc_driver_private, knode_bus));
	}
	dmc_klist_iter_exit(&it);

	WRITE_ONCE(bus->p, NULL);
	dmc_kset_unregister(priv->drivers_kset);
	dmc_kset_unregister(priv->devices_kset);
	dmc_kset_unregister(&priv->subsys);
}
EXPORT_SYMBOL_GPL(dmc_bus_unregister);

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
 * dmc_bus_find() - find a registered bus by name
 * @name: the bus's name
 *
 * No reference is taken: the caller must know the bus stays registered
 * while it uses it (for example because the bus's module is its own).
 *
 * Return: the bus, or NULL.
 */
struct dmc_bus_type *dmc_bus_find(const char *name)
{
	struct dmc_bus_type *bus = NULL;
	struct dmc_kobject *kobj;

	kobj = dmc_kset_find_obj(dmc_bus_kset, name);
	if (kobj) {
		bus = READ_ONCE(to_subsys_private(kobj)->bus);
		dmc_kobject_put(kobj);
	}
	return bus;
}
EXPORT_SYMBOL_GPL(dmc_bus_find);

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
	err = dmc_klist_add(&priv->klist_devices, &dev->p->knode_bus,
			    &dev->kobj.name, true);
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

/* Take @dev off its bus, unbinding it first. */
void dmc_bus_remove_device(struct dmc_device *dev)
{
	struct dmc_subsys_private *priv;

	if (!dev->bus || !dmc_klist_node_attached(&dev->p->knode_bus))
		return;
	dmc_device_release_driver(dev);
	priv = dev->bus->p;
	if (priv && dmc_klist_del(&priv->klist_devices, &dev->p->knode_bus))
		dmc_kobject_put(&priv->subsys.kobj);
}

/*
 * The device was added and "add" sent: from now on it may be probed (by
 * a driver registering, the deferred worker, an asynchronous attach, the
 * bind and drivers_probe files), never before, so "bind" never comes
 * before "add" and a device whose add failed is never bound. Then offer
 * it to the drivers, unless autoprobe is off.
 */
void dmc_bus_probe_device(struct dmc_device *dev)
{
	struct dmc_subsys_private *priv;

	dmc_device_lock(dev);
	if (!dev->p->dead)
		dev->p->ready_to_probe = true;
	dmc_device_unlock(dev);
	priv = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	if (priv && READ_ONCE(priv->drivers_autoprobe))
		dmc_device_initial_probe(dev);
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
	WRITE_ONCE(priv->drivers_autoprobe, on);
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

static int dmc_bus_rescan_one(struct dmc_device *dev, void *data)
{
	if (!dmc_device_is_bound(dev))
		dmc_device_attach(dev);
	return 0;
}

/**
 * dmc_bus_rescan_devices() - offer every unbound device to the drivers
 * @bus: the bus
 *
 * Context: may sleep; runs match and probe callbacks.
 * Return: 0, or -EINVAL for an unregistered bus.
 */
int dmc_bus_rescan_devices(struct dmc_bus_type *bus)
{
	return dmc_bus_walk_devices(bus, NULL, dmc_bus_rescan_one);
}
EXPORT_SYMBOL_GPL(dmc_bus_rescan_devices);

static void dmc_driver_private_release(struct dmc_kobject *kobj)
{
	struct dmc_driver_private *dp = container_of(kobj, struct dmc_driver_private,
						     kobj);

	dmc_klist_destroy(&dp->klist_devices);
	if (dp->bus)
		dmc_kobject_put(&dp->bus->subsys.kobj);
	kfree(dp);
}

static struct dmc_driver *dmc_kobj_to_driver(struct dmc_kobject *kobj)
{
	return READ_ONCE(container_of(kobj, struct dmc_driver_private, kobj)->driver);
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
	struct dmc_driver *drv = dmc_kobj_to_driver(kobj);
	int ret;

	ret = dmc_walk_group_list(kobj, drv && drv->suppress_bind_attrs ?
				  dmc_driver_uevent_groups : dmc_driver_core_groups,
				  data, fn);
	if (!ret && drv && drv->bus)
		ret = dmc_walk_group_list(kobj, drv->bus->drv_groups, data, fn);
	if (!ret && drv)
		ret = dmc_walk_group_list(kobj, drv->groups, data, fn);
	return ret;
}

static const struct dmc_kobj_type dmc_driver_ktype = {
	.name = "driver",
	.indexed_elsewhere = true,
	.release = dmc_driver_private_release,
	.sysfs_ops = &dmc_drv_sysfs_ops,
	.walk_groups = dmc_driver_walk_groups,
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

/*
 * Make the driver's bus/<bus>/drivers/<name> and put it on the bus;
 * called by dmc_driver_register() after its checks.
 */
int dmc_bus_add_driver(struct dmc_driver *drv)
{
	struct dmc_subsys_private *priv = READ_ONCE(drv->bus->p);
	struct dmc_driver_private *dp;
	int err;

	if (!priv || !priv->bus)
		return -EINVAL;
	dp = kzalloc(sizeof(*dp), GFP_KERNEL);
	if (!dp)
		return -ENOMEM;
	err = dmc_klist_init(&dp->klist_devices, dmc_drv_dev_get, dmc_drv_dev_put);
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
	err = dmc_kobject_add(&dp->kobj, NULL, "%s", drv->name);
	if (err)
		goto err_put;
	err = dmc_klist_add(&priv->klist_drivers, &dp->knode_bus, &dp->kobj.name,
			    true);
	if (err) {
		pr_err_ratelimited("dmcore: bus '%s' has a driver '%s' already\n",
				   drv->bus->name, drv->name);
		err = -EBUSY;
		goto err_del;
	}
	spin_lock(&dmc_driver_p_lock);
	drv->p = dp;
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
struct dmc_driver_private *dmc_driver_private_get(struct dmc_driver *drv)
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
void dmc_bus_remove_driver(struct dmc_driver *drv, struct dmc_driver_private *dp)
{
	spin_lock(&dmc_driver_p_lock);
	drv->p = NULL;
	spin_unlock(&dmc_driver_p_lock);
	dmc_kobject_del(&dp->kobj);
}

/* ---- the root: bus/ ---------------------------------------------------------- */

struct dmc_kset *dmc_bus_kset;

/* At load: bus/, the kset of every bus. Linux's buses_init(). */
int dmc_buses_init(void)
{
	dmc_bus_kset = dmc_kset_create_and_add("bus", &dmc_bus_uevent_ops, NULL);
	return dmc_bus_kset ? 0 : -ENOMEM;
}

void dmc_buses_exit(void)
{
	dmc_kset_unregister(dmc_bus_kset);
}

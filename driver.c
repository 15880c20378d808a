// SPDX-License-Identifier: GPL-2.0
/*
 * Drivers: registration and unregistration, the driver's lifetime (active
 * references), its bind, unbind and uevent files, lookups and walks. The
 * counterpart of Linux's driver registration in drivers/base/, with the
 * driver half of its bus code (bind_store(), unbind_store()).
 * Binding itself is in dd.c, deferred probe in deferred.c.
 */

#include <linux/export.h>
#include <linux/wait_bit.h>

#include "base.h"

/* ---- the driver's lifetime ------------------------------------------------------ */

/**
 * dmc_driver_active_get() - begin a use of a registered driver
 * @dp: the driver's private part; the caller holds a reference on it
 *
 * The core's side of a driver's lifetime, like kernfs's active
 * references: while one is held, dmc_driver_unregister() of the driver
 * does not return, so the owner's structure, its callbacks and its
 * module stay. Not a sleeping lock: it never waits; the unregistration
 * clears @dp->driver first, then waits for the count to drain.
 *
 * Return: the driver, to be ended with dmc_driver_active_put(), or NULL
 * (nothing to end) once its unregistration began.
 */
struct dmc_driver *dmc_driver_active_get(struct dmc_driver_private *dp)
{
	struct dmc_driver *drv;

	atomic_inc(&dp->active);
	smp_mb__after_atomic();	/* count before the check; pairs with dmc_driver_remove() */
	drv = READ_ONCE(dp->driver);
	if (!drv)
		dmc_driver_active_put(dp);
	return drv;
}

/* End a use begun by dmc_driver_active_get(). */
void dmc_driver_active_put(struct dmc_driver_private *dp)
{
	if (atomic_dec_and_test(&dp->active))
		wake_up_var(&dp->active);
}

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
	if (dmc_device_driver_is(dev, drv)) {
		dmc_device_release_driver(dev);
		err = 0;
	}
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
	.attr = { .name = "bind", .mode = 0200 },
	.store = bind_store,
};

static struct dmc_driver_attribute dmc_drv_attr_unbind = {
	.attr = { .name = "unbind", .mode = 0200 },
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
const struct dmc_attribute_group *dmc_driver_uevent_groups[] = {
	&dmc_driver_uevent_group,
	NULL,
};

const struct dmc_attribute_group *dmc_driver_core_groups[] = {
	&dmc_driver_core_group,
	NULL,
};

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
 * unregistered bus; -EBUSY if @drv is registered already or its bus has a
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
	dmc_deferred_trigger(drv->name, false);
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
	/* No new match or probe with @drv: wait for those under way. */
	smp_mb();	/* clear before reading the count; pairs with dmc_driver_active_get() */
	wait_var_event(&dp->active, !atomic_read(&dp->active));
	dmc_klist_del(&dp->bus->klist_drivers, &dp->knode_bus);
	dmc_driver_detach(drv);
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
 * attributes (bind, unbind, uevent, its bus's and its own). When it
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

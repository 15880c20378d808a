// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's devices: struct dmc_device's lifetime, its references and
 * its release, and the questions asked of any device (registered? bound?
 * being deleted?). The counterpart of the device part of
 * drivers/base/core.c, with device_add.c.
 *
 * A device is a kobject in devices/ with children (their klist is in
 * device_children.c); its attributes, views and events are in
 * device_sysfs.c; dmc_device_initialize(), dmc_device_add() and
 * dmc_device_del() are in device_add.c. This file is the floor of the
 * device half of the core: it calls nothing above the kobjects, and the
 * bus, class, driver, link and power files stand on it. The module
 * (dm_core.c) calls dmc_devices_init() and dmc_devices_exit() around
 * everything else.
 */

#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "base.h"

/*
 * A device and a caller's few bytes of its own (the benchmark's id) fit
 * a 256-byte kmalloc object on 64-bit kernels without lock debugging.
 */
#if defined(CONFIG_64BIT) && !defined(CONFIG_DEBUG_MUTEXES) && \
	!defined(CONFIG_DEBUG_LOCK_ALLOC)
static_assert(sizeof(struct dmc_device) <= 248);
#endif

/* Devices' private parts: a cache of their exact size, not a kmalloc class. */
static struct kmem_cache *dmc_device_private_cache;

/*
 * Every device's suppliers and consumers lists (p->suppliers,
 * p->consumers; base.h). Changed by link.c, read by power.c too, so
 * defined with the lists, below both.
 */
DEFINE_MUTEX(dmc_links_mutex);

/* ---- device release ------------------------------------------------------ */

/* The device ktype's release (device_sysfs.c): the last put of a device. */
void dmc_device_release(struct dmc_kobject *kobj)
{
	struct dmc_device *dev = to_dmc_device(kobj);
	struct dmc_device_private *p = dev->p;

	/* Resources added outside a binding: released while @dev is whole. */
	if (p)
		__dmc_devres_release_all(dev);
	/* Order as in Linux: the device's own, its type's, its class's. */
	if (dev->release)
		dev->release(dev);
	else if (dev->type && dev->type->release)
		dev->type->release(dev);
	else if (dev->class && dev->class->dev_release)
		dev->class->dev_release(dev);
	else
		DMC_MISUSE(1, "device '%s' has no release function; its memory leaks\n",
			   kobj->name ?: "(unnamed)");
	if (p) {
		if (p->klist_children) {
			dmc_klist_destroy(p->klist_children);
			kfree(p->klist_children);
		}
		dmc_name_free(p->waits_for);
		kfree(p->deferred_msg);
		kfree(p->driver_override);
		kmem_cache_free(dmc_device_private_cache, p);
	}
}

/* ---- driver_override ------------------------------------------------------ */

/**
 * dmc_driver_set_override() - set or clear the driver a device must bind to
 * @dev: the device; the caller holds a reference and not its lock
 * @override: where the override is kept, as Linux's callers pass their
 *	bus's field: a pointer that is NULL or holds a kmalloc()ed string,
 *	which the call frees when it replaces it. The core's own, which its
 *	match honours, is in @dev's private part (the device was added
 *	once): set it through dmc_device_set_driver_override() or the
 *	device's driver_override file
 * @s: the driver's name: up to its first newline, or up to a NUL within
 *	@len; empty (or a lone newline) clears the override
 * @len: the length of @s, less than PAGE_SIZE - 1
 *
 * Linux's driver_set_override(), with the same arguments and result. The
 * core's match honours the core's override for every bus: while set,
 * only the driver of that name may bind @dev, whatever the bus's match
 * says (as platform devices do). Setting it does not unbind or probe:
 * write the bus's drivers_probe, or call dmc_device_attach(), afterwards.
 * The swap is made under the device lock, so a match sees the old name
 * or the new one whole.
 *
 * Context: may sleep; takes the device lock.
 * Return: 0; -EINVAL for NULL arguments or @len of PAGE_SIZE - 1 or more
 * (logged once, rate-limited; nothing changes); -ENOMEM.
 */
int dmc_driver_set_override(struct dmc_device *dev, const char **override,
			    const char *s, size_t len)
{
	const char *new = NULL, *old;
	const char *cp;

	if (!dev || !override || !s)
		return -EINVAL;
	/* Shown with a newline in a page, as Linux's sysfs_emit() would. */
	if (len >= PAGE_SIZE - 1) {
		pr_err_ratelimited("dmcore: %s: driver_override of %zu bytes, at most %lu\n",
				   dmc_dev_name(dev), len, PAGE_SIZE - 2);
		return -EINVAL;
	}
	/* The real length, in case the writer sent NULs (as Linux). */
	len = strnlen(s, len);
	cp = strnchr(s, len, '\n');
	if (cp)
		len = cp - s;
	if (len) {
		new = kstrndup(s, len, GFP_KERNEL);
		if (!new)
			return -ENOMEM;
	}
	dmc_device_lock(dev);
	/* A change the snapshot shows; the old string is freed after it. */
	dmc_model_change_begin();
	old = *override;
	*override = new;
	dmc_model_change_end();
	dmc_device_unlock(dev);
	kfree(old);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_driver_set_override);

/**
 * dmc_device_set_driver_override() - set or clear the core's driver_override
 * @dev: a device added once; the caller holds a reference and not its lock
 * @s: the driver's name (up to a newline), or "" to clear it
 *
 * dmc_driver_set_override() on the override the core's match honours,
 * which the device's driver_override file shows (as the generic
 * device_set_driver_override() of later Linux). The override is kept
 * until changed or the device is released, across unbinds.
 *
 * Context: may sleep; takes the device lock.
 * Return: as dmc_driver_set_override(); -EINVAL also for a device never
 * added (its private part holds the override) and for a NULL @s.
 */
int dmc_device_set_driver_override(struct dmc_device *dev, const char *s)
{
	if (!dev || !dev->p || !s) {
		pr_err_ratelimited("dmcore: driver_override: no device, or one never added\n");
		return -EINVAL;
	}
	return dmc_driver_set_override(dev, &dev->p->driver_override, s, strlen(s));
}
EXPORT_SYMBOL_GPL(dmc_device_set_driver_override);

/* ---- device lifetime ------------------------------------------------------ */

/*
 * Give @dev its private part (at its first dmc_device_add()); freed by
 * the release. Return: 0 or -ENOMEM.
 */
int dmc_device_private_init(struct dmc_device *dev)
{
	struct dmc_device_private *p;

	p = kmem_cache_zalloc(dmc_device_private_cache, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	INIT_LIST_HEAD(&p->deferred);
	INIT_LIST_HEAD(&p->dpm_entry);
	INIT_LIST_HEAD(&p->suppliers);
	INIT_LIST_HEAD(&p->consumers);
	INIT_LIST_HEAD(&p->defer_sync);
	INIT_LIST_HEAD(&p->devlink_cons);
	INIT_LIST_HEAD(&p->devlink_sups);
	spin_lock_init(&p->devres_lock);
	INIT_LIST_HEAD(&p->devres_head);
	p->power_state = DMC_POWER_ON;
	p->device = dev;
	dev->p = p;
	return 0;
}

/**
 * dmc_device_set_name() - name a device before it is added
 * @dev: the device
 * @fmt: printf-style format of the name
 *
 * Return: 0 or a negative errno, as dmc_kobject_set_name().
 */
int dmc_device_set_name(struct dmc_device *dev, const char *fmt, ...)
{
	va_list vargs;
	int err;

	if (!dev || !fmt)
		return -EINVAL;
	va_start(vargs, fmt);
	err = dmc_kobject_set_name_vargs(&dev->kobj, fmt, vargs);
	va_end(vargs);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_device_set_name);

/**
 * dmc_device_get() - take a reference on a device
 * @dev: the device, or NULL
 *
 * Return: @dev, or NULL.
 */
struct dmc_device *dmc_device_get(struct dmc_device *dev)
{
	return dev && dmc_kobject_get(&dev->kobj) ? dev : NULL;
}
EXPORT_SYMBOL_GPL(dmc_device_get);

/**
 * dmc_device_put() - drop a reference on a device
 * @dev: the device, or NULL
 *
 * The last put releases the device. May sleep.
 *
 * While a device is registered (from dmc_device_add() until
 * dmc_device_del() has finished) it holds a reference on itself, so a put
 * never frees a device that is still on its bus, in its class, in the
 * power order or among its parent's children. A put that leaves only that
 * reference, i.e. its owner let go without dmc_device_del(), is a counted
 * misuse (DMC_MISUSE): the device stays, and is freed once something
 * deletes it (its parent, bus or class going) or reported as a leak at
 * unload. A put by a caller who holds no reference at all (only that
 * one is left) is refused the same way. As far as the count can tell:
 * while others hold references too, the put of the last of them is the
 * one reported, once per device.
 */
void dmc_device_put(struct dmc_device *dev)
{
	struct dmc_device_private *p;
	unsigned int refs;

	if (!dev)
		return;
	p = dev->p;
	/* Pairs with the release in dmc_device_add(): the self-reference is in. */
	if (p && smp_load_acquire(&p->registered)) {
		refs = kref_read(&dev->kobj.kref);
		/*
		 * dmc_device_del() sets ->dead before it drops the
		 * self-reference: a count without it is seen with ->dead.
		 */
		smp_rmb();
		if (refs <= 2 && !READ_ONCE(p->dead)) {
			if (DMC_MISUSE(refs <= 1, "put of device '%s' without a reference\n",
				       dmc_dev_name(dev)))
				return;
			/* Once a device: later walks of its lists put it too. */
			if (!READ_ONCE(p->put_misused)) {
				WRITE_ONCE(p->put_misused, true);
				DMC_MISUSE(1, "last put of device '%s' before its del: it stays\n",
					   dmc_dev_name(dev));
			}
		}
	}
	dmc_kobject_put(&dev->kobj);
}
EXPORT_SYMBOL_GPL(dmc_device_put);

/**
 * dmc_device_is_registered() - added and not yet deleted?
 * @dev: the device
 *
 * Return: true between a successful dmc_device_add() and dmc_device_del().
 */
bool dmc_device_is_registered(const struct dmc_device *dev)
{
	return dev && dev->p && READ_ONCE(dev->p->registered) &&
	       !READ_ONCE(dev->p->dead);
}
EXPORT_SYMBOL_GPL(dmc_device_is_registered);

/**
 * dmc_device_is_bound() - has the device a driver?
 * @dev: the device
 *
 * Return: true while a driver is bound.
 */
bool dmc_device_is_bound(struct dmc_device *dev)
{
	return dev && READ_ONCE(dev->driver);
}
EXPORT_SYMBOL_GPL(dmc_device_is_bound);

/**
 * dmc_device_is_dead() - has dmc_device_del() begun?
 * @dev: the device
 *
 * Return: true once the device is being or has been deleted.
 */
bool dmc_device_is_dead(const struct dmc_device *dev)
{
	return dev && dev->p && READ_ONCE(dev->p->dead);
}
EXPORT_SYMBOL_GPL(dmc_device_is_dead);

/* ---- load and unload ------------------------------------------------------ */

/* Make the devices' private cache: at load, before any device is added. */
int dmc_devices_init(void)
{
	dmc_device_private_cache = KMEM_CACHE(dmc_device_private, 0);
	return dmc_device_private_cache ? 0 : -ENOMEM;
}

/* Destroy it at unload, unless a device leaked: that one still points into it. */
void dmc_devices_exit(void)
{
	kmem_cache_destroy(dmc_device_private_cache);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Taking a device offline and back online: dmc_device_offline() and
 * dmc_device_online() through its bus's offline and online callbacks,
 * the device hotplug lock that serializes them, and the device's "online"
 * file. The counterpart of device_offline(), device_online(),
 * lock_device_hotplug() and online_show()/online_store() in
 * drivers/base/core.c. Offline is a state the bus gives a device before
 * a hot removal (a CPU, a memory block): the device stays registered and
 * bound, and "offline" and "online" events tell userspace.
 */

#include <linux/delay.h>
#include <linux/export.h>
#include <linux/kstrtox.h>
#include <linux/sched/signal.h>
#include <linux/sysfs.h>

#include "base.h"

/* Serializes every online and offline (Linux's device_hotplug_lock). */
static DEFINE_MUTEX(dmc_device_hotplug_lock);

/**
 * dmc_lock_device_hotplug() - take the device hotplug lock
 *
 * Linux's lock_device_hotplug(): held around dmc_device_online() and
 * dmc_device_offline(), so that a device is taken offline only while its
 * children stay offline. It is outside every lock of the core (base.h).
 *
 * Context: may sleep; no device lock held.
 */
void dmc_lock_device_hotplug(void)
{
	mutex_lock(&dmc_device_hotplug_lock);
}
EXPORT_SYMBOL_GPL(dmc_lock_device_hotplug);

/**
 * dmc_unlock_device_hotplug() - release the device hotplug lock
 */
void dmc_unlock_device_hotplug(void)
{
	mutex_unlock(&dmc_device_hotplug_lock);
}
EXPORT_SYMBOL_GPL(dmc_unlock_device_hotplug);

/*
 * Linux's lock_device_hotplug_sysfs(): a store holds the file's active
 * reference, and a holder of the lock may be deleting the store's device,
 * waiting for that reference; so try, and restart the write if it fails.
 */
static int dmc_lock_device_hotplug_sysfs(void)
{
	if (mutex_trylock(&dmc_device_hotplug_lock))
		return 0;
	usleep_range(5000, 10000);	/* Linux sleeps 5 ms: no busy restart loop */
	return restart_syscall();
}

/* Has @dev's bus both callbacks? (Linux's device_supports_offline()) */
static bool dmc_device_supports_offline(const struct dmc_device *dev)
{
	return dev->bus && dev->bus->online && dev->bus->offline;
}

/* Push a reference on each child of a device onto the stack @data. */
static int dmc_offline_push_child(struct dmc_device *child, void *data)
{
	dmc_device_get(child);
	if (dmc_devvec_push(data, child)) {
		dmc_device_put(child);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Is every descendant of @dev that can go offline already so? Linux's
 * device_check_offline() over the subtree, with a stack instead of its
 * recursion. Return: 0, -EBUSY, -ENOMEM.
 */
static int dmc_device_check_offline(struct dmc_device *dev)
{
	struct dmc_devvec stack = {};
	struct dmc_device *d;
	int ret;

	ret = dmc_device_walk_children(dev, &stack, dmc_offline_push_child);
	while (!ret && stack.n) {
		d = stack.v[--stack.n];
		/* Locked: a live device's bus stays registered (see below). */
		dmc_device_lock(d);
		if (!d->p->dead && dmc_device_supports_offline(d) && !d->p->offline)
			ret = -EBUSY;
		dmc_device_unlock(d);
		if (!ret)
			ret = dmc_device_walk_children(d, &stack, dmc_offline_push_child);
		dmc_device_put(d);
	}
	dmc_devvec_put_all(&stack);
	return ret;
}

/**
 * dmc_device_offline() - prepare a device for a hot removal
 * @dev: a registered device; the caller holds a reference
 *
 * Linux's device_offline(): refused while its offline is disabled or while
 * a descendant that can go offline is online; then, if @dev's bus has
 * online and offline callbacks and @dev is online, calls the bus's
 * offline with the device lock held and, when it succeeds, marks @dev
 * offline and sends "offline". The device stays registered and bound;
 * dmc_device_online() brings it back.
 *
 * Context: may sleep; the caller holds dmc_lock_device_hotplug() and no
 * device lock.
 * Return: 0 when taken offline (or the bus has no such callbacks), 1 when
 * it was offline already, -EPERM when offline is disabled, -EBUSY when a
 * descendant is online, -EINVAL for a device never added, -ENODEV for one
 * being deleted, -ENOMEM, or the bus's error (the device stays online).
 */
int dmc_device_offline(struct dmc_device *dev)
{
	int ret;

	if (!dev || !dev->p)
		return -EINVAL;
	lockdep_assert_held(&dmc_device_hotplug_lock);
	if (READ_ONCE(dev->p->offline_disabled))
		return -EPERM;
	ret = dmc_device_check_offline(dev);
	if (ret)
		return ret;
	dmc_device_lock(dev);
	/*
	 * A device not yet deleted is on its bus, which its unregistration
	 * cannot take away before deleting it under this lock.
	 */
	if (dev->p->dead) {
		ret = -ENODEV;
	} else if (dmc_device_supports_offline(dev)) {
		if (dev->p->offline) {
			ret = 1;
		} else {
			ret = dev->bus->offline(dev);
			if (!ret) {
				dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_OFFLINE);
				WRITE_ONCE(dev->p->offline, true);
			}
		}
	}
	dmc_device_unlock(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_device_offline);

/**
 * dmc_device_online() - bring a device back online
 * @dev: a registered device; the caller holds a reference
 *
 * Linux's device_online(): if @dev's bus has online and offline
 * callbacks and @dev is offline, calls the bus's online with the device
 * lock held and, when it succeeds, marks @dev online and sends "online".
 *
 * Context: may sleep; the caller holds dmc_lock_device_hotplug() and no
 * device lock.
 * Return: 0 when brought online (or the bus has no such callbacks), 1
 * when it was online already, -EINVAL for a device never added, -ENODEV
 * for one being deleted, or the bus's error (the device stays offline).
 */
int dmc_device_online(struct dmc_device *dev)
{
	int ret = 0;

	if (!dev || !dev->p)
		return -EINVAL;
	lockdep_assert_held(&dmc_device_hotplug_lock);
	dmc_device_lock(dev);
	if (dev->p->dead) {	/* as in dmc_device_offline() */
		ret = -ENODEV;
	} else if (dmc_device_supports_offline(dev)) {
		if (dev->p->offline) {
			ret = dev->bus->online(dev);
			if (!ret) {
				dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_ONLINE);
				WRITE_ONCE(dev->p->offline, false);
			}
		} else {
			ret = 1;
		}
	}
	dmc_device_unlock(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_device_online);

/* ---- the "online" file ------------------------------------------------- */

/**
 * dmc_device_is_offline() - has the device been taken offline?
 * @dev: a device
 *
 * Return: true between a dmc_device_offline() that took it offline and
 * the dmc_device_online() that brought it back (false for a device
 * never added).
 */
bool dmc_device_is_offline(struct dmc_device *dev)
{
	return dev && dev->p && READ_ONCE(dev->p->offline);
}
EXPORT_SYMBOL_GPL(dmc_device_is_offline);

/**
 * dmc_device_set_offline_disabled() - forbid or allow taking a device offline
 * @dev: a device added once; the caller holds a reference
 * @disabled: true: dmc_device_offline() refuses it with -EPERM and it has
 *	no "online" file; false: allowed again
 *
 * Linux's buses set dev->offline_disabled before adding the device; here
 * the flag is in the private part a device gets at its first add, so a
 * bus sets it right after dmc_device_add() (before that, nothing can take
 * the device offline anyway: it is not registered).
 *
 * Context: may sleep; takes the device lock.
 * Return: 0, or -EINVAL for a device never added.
 */
int dmc_device_set_offline_disabled(struct dmc_device *dev, bool disabled)
{
	if (!dev || !dev->p) {
		pr_err_ratelimited("dmcore: offline_disabled: no device, or one never added\n");
		return -EINVAL;
	}
	dmc_device_lock(dev);
	WRITE_ONCE(dev->p->offline_disabled, disabled);
	dmc_device_unlock(dev);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_device_set_offline_disabled);

static ssize_t online_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	bool val;

	dmc_device_lock(dev);
	val = !dev->p->offline;
	dmc_device_unlock(dev);
	return sysfs_emit(buf, "%u\n", val);
}

static ssize_t online_store(struct dmc_device *dev, struct dmc_device_attribute *attr,
			    const char *buf, size_t count)
{
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret < 0) {
		pr_err_ratelimited("dmcore: %s/online: write 1 or 0\n", dmc_dev_name(dev));
		return ret;
	}
	ret = dmc_lock_device_hotplug_sysfs();
	if (ret)
		return ret;
	ret = val ? dmc_device_online(dev) : dmc_device_offline(dev);
	dmc_unlock_device_hotplug();
	return ret < 0 ? ret : count;
}
static DMC_DEVICE_ATTR(online, 0644, online_show, online_store);

static struct dmc_attribute *dmc_device_online_attrs[] = {
	&dmc_dev_attr_online.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_device_online_group = {
	.attrs = dmc_device_online_attrs,
};

/*
 * The group of the "online" file, for a device whose bus can take it
 * offline and back and that may go offline (Linux's device_add_attrs()),
 * or NULL. For device_sysfs.c's walk of a device's groups.
 */
const struct dmc_attribute_group *dmc_device_online_group_of(const struct dmc_device *dev)
{
	if (!dev->p || !dmc_device_supports_offline(dev) ||
	    READ_ONCE(dev->p->offline_disabled))
		return NULL;
	return &dmc_device_online_group;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Power order: system suspend and resume of every device, and of one
 * device at a time. The counterpart of drivers/base/power/main.c.
 *
 * The order is a maintained list, as Linux's dpm_list: a device joins at
 * the tail when added (after its parent, which was added before it), and
 * a device link moves the consumer, its children and its consumers to the
 * tail, after the supplier. Suspend walks the list from the tail, so
 * children go before parents and consumers before suppliers; resume walks
 * it from the head. Nothing is recomputed per suspend.
 *
 * While suspending, each device moves from the list to a suspended list
 * (at its head), and back to the tail of the list when resumed, so a
 * failure at any device is rolled back by resuming the suspended list
 * from its head, which restores the original order.
 *
 * The power order is therefore the list followed by the suspended list,
 * and every move keeps it so: its tail is the suspended list's tail
 * while that list is not empty. A device added while the system is
 * suspended (a child of a suspended parent, say) joins there, and so
 * does everything a new link moves: resume then brings them back after
 * their parents and suppliers (a device on already is simply passed
 * over), and the next suspend takes them first.
 *
 * Every power transition, of the system or of one device, runs under
 * dmc_pm_transition_mutex, and a device's power state changes only there
 * (and under its device lock). So a single-device suspend or resume sees
 * its neighbours' states (children, consumers; parent, suppliers) and
 * makes its own transition without any of them changing in between. That
 * mutex is held across the driver's suspend and resume callbacks, as
 * Linux holds system_transition_mutex across a whole system sleep; the
 * power-order mutex (dmc_dpm_mutex, Linux's dpm_list_mtx) is not.
 */

#include <linux/export.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "base.h"
#include "dmc_trace.h"

/* The power order and the suspended list. */
DEFINE_MUTEX(dmc_dpm_mutex);
LIST_HEAD(dmc_dpm_list);
LIST_HEAD(dmc_dpm_suspended);

/* One power transition (system or single device) at a time; see base.h. */
static DEFINE_MUTEX(dmc_pm_transition_mutex);

static const char * const dmc_power_names[] = {
	[DMC_POWER_ON] = "on",
	[DMC_POWER_SUSPENDED] = "suspended",
};

/**
 * dmc_power_state_name() - name of a power state
 * @state: the state
 *
 * Return: "on", "suspended", or "invalid".
 */
const char *dmc_power_state_name(enum dmc_power_state state)
{
	if ((unsigned int)state >= ARRAY_SIZE(dmc_power_names))
		return "invalid";
	return dmc_power_names[state];
}
EXPORT_SYMBOL_GPL(dmc_power_state_name);

/**
 * dmc_device_power_state() - the device's power state
 * @dev: the device
 *
 * Return: its state (a snapshot).
 */
enum dmc_power_state dmc_device_power_state(struct dmc_device *dev)
{
	return dev && dev->p ? READ_ONCE(dev->p->power_state) : DMC_POWER_ON;
}
EXPORT_SYMBOL_GPL(dmc_device_power_state);

/* The tail of the power order (see above); dmc_dpm_mutex held. */
static struct list_head *dmc_dpm_tail(void)
{
	lockdep_assert_held(&dmc_dpm_mutex);
	return list_empty(&dmc_dpm_suspended) ? &dmc_dpm_list :
						&dmc_dpm_suspended;
}

void dmc_dpm_add(struct dmc_device *dev)
{
	mutex_lock(&dmc_dpm_mutex);
	list_add_tail(&dev->p->dpm_entry, dmc_dpm_tail());
	mutex_unlock(&dmc_dpm_mutex);
}

void dmc_dpm_remove(struct dmc_device *dev)
{
	mutex_lock(&dmc_dpm_mutex);
	list_del_init(&dev->p->dpm_entry);
	mutex_unlock(&dmc_dpm_mutex);
}

/*
 * Move @dev to the tail of the power order (link.c's reorder after a new
 * link). Caller holds dmc_dpm_mutex; a device not (or no longer) in the
 * order stays out of it.
 */
void dmc_dpm_move_last(struct dmc_device *dev)
{
	lockdep_assert_held(&dmc_dpm_mutex);
	if (!list_empty(&dev->p->dpm_entry))
		list_move_tail(&dev->p->dpm_entry, dmc_dpm_tail());
}

static int dmc_suspend_one(struct dmc_device *dev)
{
	struct dmc_driver *drv;
	bool direct;
	int err = 0;

	lockdep_assert_held(&dmc_pm_transition_mutex);
	dmc_device_lock(dev);
	if (dev->p->power_state == DMC_POWER_SUSPENDED)
		goto out;
	/* Runtime PM off; a runtime-suspended device may skip (runtime.c). */
	direct = dmc_pm_runtime_sleep_begin(dev);
	drv = dev->driver;
	if (!direct && drv && drv->suspend) {
		u64 t = local_clock();

		err = drv->suspend(dev);
		t = dmc_clock_since(t);
		WRITE_ONCE(dev->p->suspend_ns, t);
		trace_dmcore_suspend(dev->kobj.name, err, t);
	}
	if (!err) {
		WRITE_ONCE(dev->p->power_state, DMC_POWER_SUSPENDED);
		dmc_model_changed();
		dmc_sysfs_notify(&dev->kobj, "power", "state");
	} else {
		dmc_pm_runtime_sleep_end(dev);
	}
out:
	dmc_device_unlock(dev);
	return err;
}

static int dmc_resume_one(struct dmc_device *dev)
{
	struct dmc_driver *drv;
	int err = 0;

	lockdep_assert_held(&dmc_pm_transition_mutex);
	dmc_device_lock(dev);
	if (dev->p->power_state == DMC_POWER_ON)
		goto out;
	drv = dev->driver;
	if (!dev->p->power.direct_complete && drv && drv->resume) {
		u64 t = local_clock();

		err = drv->resume(dev);
		t = dmc_clock_since(t);
		WRITE_ONCE(dev->p->resume_ns, t);
		trace_dmcore_resume(dev->kobj.name, err, t);
	}
	if (err)
		pr_warn_ratelimited("dmcore: resume of '%s' failed: %d\n",
				    dmc_dev_name(dev), err);
	/* Like Linux, carry on: the device is considered on again. */
	WRITE_ONCE(dev->p->power_state, DMC_POWER_ON);
	dmc_model_changed();
	dmc_sysfs_notify(&dev->kobj, "power", "state");
	/* Runtime PM on again; its runtime status is what it was. */
	dmc_pm_runtime_sleep_end(dev);
out:
	dmc_device_unlock(dev);
	return err;
}

/* Resume the suspended list from its head; dmc_dpm_mutex held on entry. */
static int dmc_dpm_resume_suspended(void)
{
	struct dmc_device *dev;
	int err, ret = 0;

	while (!list_empty(&dmc_dpm_suspended)) {
		dev = list_first_entry(&dmc_dpm_suspended, struct dmc_device_private,
				       dpm_entry)->device;
		dmc_device_get(dev);
		list_move_tail(&dev->p->dpm_entry, &dmc_dpm_list);
		mutex_unlock(&dmc_dpm_mutex);
		err = dmc_resume_one(dev);
		if (err && !ret)
			ret = err;
		dmc_device_put(dev);
		mutex_lock(&dmc_dpm_mutex);
	}
	return ret;
}

/**
 * dmc_suspend_all() - suspend every device, in power order
 * @failed: if not NULL, receives the device whose suspend failed, with a
 *	reference the caller drops with dmc_device_put()
 *
 * Children are suspended before their parents and consumers before their
 * suppliers; a bound driver's suspend callback runs with the device lock
 * held. If one fails, every device suspended so far is resumed again in
 * the reverse order, and the error is returned.
 *
 * Context: may sleep; not from a suspend or resume callback. The
 * power-transition mutex is held throughout, also across the callbacks.
 * Return: 0, or the failing callback's error.
 */
int dmc_suspend_all(struct dmc_device **failed)
{
	struct dmc_device *dev;
	int err = 0;

	if (failed)
		*failed = NULL;
	mutex_lock(&dmc_pm_transition_mutex);
	mutex_lock(&dmc_dpm_mutex);
	while (!list_empty(&dmc_dpm_list)) {
		dev = list_last_entry(&dmc_dpm_list, struct dmc_device_private,
				      dpm_entry)->device;
		dmc_device_get(dev);
		list_move(&dev->p->dpm_entry, &dmc_dpm_suspended);
		mutex_unlock(&dmc_dpm_mutex);
		err = dmc_suspend_one(dev);
		mutex_lock(&dmc_dpm_mutex);
		if (err) {
			/*
			 * Roll back. @dev stays where it is in the order (a
			 * link may have moved it meanwhile); still on, it is
			 * passed over by the resume that puts it back.
			 */
			pr_warn("dmcore: suspend of '%s' failed: %d; resuming\n",
				dmc_dev_name(dev), err);
			dmc_dpm_resume_suspended();
			mutex_unlock(&dmc_dpm_mutex);
			if (failed)
				*failed = dev;
			else
				dmc_device_put(dev);
			goto out;
		}
		mutex_unlock(&dmc_dpm_mutex);
		dmc_device_put(dev);
		mutex_lock(&dmc_dpm_mutex);
	}
	mutex_unlock(&dmc_dpm_mutex);
out:
	mutex_unlock(&dmc_pm_transition_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_suspend_all);

/**
 * dmc_resume_all() - resume every device suspended by dmc_suspend_all()
 *
 * Parents and suppliers are resumed before children and consumers.
 * Resume errors are logged; every device is considered on afterwards.
 *
 * Context: may sleep; not from a suspend or resume callback. The
 * power-transition mutex is held throughout, also across the callbacks.
 * Return: 0, or the first resume error.
 */
int dmc_resume_all(void)
{
	int err;

	mutex_lock(&dmc_pm_transition_mutex);
	mutex_lock(&dmc_dpm_mutex);
	err = dmc_dpm_resume_suspended();
	mutex_unlock(&dmc_dpm_mutex);
	mutex_unlock(&dmc_pm_transition_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_resume_all);

static int dmc_child_is_on(struct dmc_device *dev, void *data)
{
	return dmc_device_power_state(dev) == DMC_POWER_ON;
}

/**
 * dmc_device_suspend() - suspend one device
 * @dev: a registered device
 *
 * Refused while a child or a consumer of @dev is on: the order that
 * system suspend keeps holds for single devices too. The check and the
 * suspend are one step with respect to every other power transition (all
 * run under the power-transition mutex): a child or consumer cannot
 * resume in between.
 *
 * Context: may sleep; takes the power-transition mutex, so not from a
 * suspend or resume callback; runs the driver's suspend with that mutex
 * and the device lock held.
 * Return: 0 (also when suspended already), -EINVAL for a device not
 * registered, -EBUSY while a child or consumer is on, or the driver's
 * error.
 */
int dmc_device_suspend(struct dmc_device *dev)
{
	struct dmc_device_link *link;
	bool busy = false;
	int err;

	if (!dmc_device_is_registered(dev))
		return -EINVAL;
	mutex_lock(&dmc_pm_transition_mutex);
	/* Again: another device's callback may have deleted it meanwhile. */
	if (!dmc_device_is_registered(dev)) {
		mutex_unlock(&dmc_pm_transition_mutex);
		return -EINVAL;
	}
	if (dmc_device_walk_children(dev, NULL, dmc_child_is_on))
		busy = true;
	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->consumers, s_node)
		if (dmc_device_power_state(link->consumer) == DMC_POWER_ON)
			busy = true;
	mutex_unlock(&dmc_links_mutex);
	err = busy ? -EBUSY : dmc_suspend_one(dev);
	mutex_unlock(&dmc_pm_transition_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_device_suspend);

/**
 * dmc_device_resume() - resume one device
 * @dev: a registered device
 *
 * Refused while the parent or a supplier of @dev is suspended. The check
 * and the resume are one step with respect to every other power
 * transition: the parent or a supplier cannot suspend in between.
 *
 * Context: may sleep; takes the power-transition mutex, so not from a
 * suspend or resume callback; runs the driver's resume with that mutex
 * and the device lock held.
 * Return: 0 (also when on already), -EINVAL for a device not registered,
 * -EBUSY while the parent or a supplier is suspended, or the driver's
 * error (the device is considered on anyway).
 */
int dmc_device_resume(struct dmc_device *dev)
{
	struct dmc_device_link *link;
	bool busy = false;
	int err;

	if (!dmc_device_is_registered(dev))
		return -EINVAL;
	mutex_lock(&dmc_pm_transition_mutex);
	/* Again: another device's callback may have deleted it meanwhile. */
	if (!dmc_device_is_registered(dev)) {
		mutex_unlock(&dmc_pm_transition_mutex);
		return -EINVAL;
	}
	if (dev->parent &&
	    dmc_device_power_state(dev->parent) == DMC_POWER_SUSPENDED)
		busy = true;
	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->suppliers, c_node)
		if (dmc_device_power_state(link->supplier) == DMC_POWER_SUSPENDED)
			busy = true;
	mutex_unlock(&dmc_links_mutex);
	err = busy ? -EBUSY : dmc_resume_one(dev);
	mutex_unlock(&dmc_pm_transition_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_device_resume);

/*
 * Referenced snapshot of the power order, NULL-terminated, or NULL
 * (also for shutdown.c). kvfree() it after putting each device.
 */
struct dmc_device **dmc_dpm_snapshot(void)
{
	struct dmc_device_private *p;
	struct dmc_device **devs;
	size_t n = 0, i = 0;

	mutex_lock(&dmc_dpm_mutex);
	list_for_each_entry(p, &dmc_dpm_list, dpm_entry)
		n++;
	list_for_each_entry(p, &dmc_dpm_suspended, dpm_entry)
		n++;
	devs = kvcalloc(n + 1, sizeof(*devs), GFP_KERNEL);
	if (devs) {
		list_for_each_entry(p, &dmc_dpm_list, dpm_entry)
			devs[i++] = dmc_device_get(p->device);
		list_for_each_entry(p, &dmc_dpm_suspended, dpm_entry)
			devs[i++] = dmc_device_get(p->device);
	}
	mutex_unlock(&dmc_dpm_mutex);
	return devs;
}

/**
 * dmc_dpm_walk() - walk the power order, parents and suppliers first
 * @data: passed to @fn
 * @fn: called with a referenced device and no core lock held; a nonzero
 *	return stops the walk
 *
 * The walk is over a snapshot of the whole order taken at the start,
 * also while a system suspend is in effect.
 *
 * Context: may sleep.
 * Return: the first nonzero value of @fn, 0, or -ENOMEM.
 */
int dmc_dpm_walk(void *data, int (*fn)(struct dmc_device *dev, void *data))
{
	struct dmc_device **devs;
	int ret = 0;
	size_t i;

	if (!fn)
		return -EINVAL;
	devs = dmc_dpm_snapshot();
	if (!devs)
		return -ENOMEM;
	for (i = 0; devs[i]; i++) {
		if (!ret)
			ret = fn(devs[i], data);
		dmc_device_put(devs[i]);
	}
	kvfree(devs);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_dpm_walk);

/*
 * dmc_device_move() holds the power-transition mutex across a move, as
 * Linux's device_move() holds device_pm_lock(): the power states it
 * checks and the order it changes stay put, and parents change under it.
 */
void dmc_pm_transition_lock(void)
{
	mutex_lock(&dmc_pm_transition_mutex);
}

void dmc_pm_transition_unlock(void)
{
	mutex_unlock(&dmc_pm_transition_mutex);
}

/*
 * Does @a come before @b in the power order (the list, then the
 * suspended list)? A device not in the order comes nowhere: false.
 * Caller holds dmc_dpm_mutex. O(devices): only moves ask.
 */
bool dmc_dpm_comes_before(struct dmc_device *a, struct dmc_device *b)
{
	struct dmc_device_private *p;
	bool seen_a = false;

	lockdep_assert_held(&dmc_dpm_mutex);
	list_for_each_entry(p, &dmc_dpm_list, dpm_entry) {
		if (p == b->p)
			return seen_a;
		if (p == a->p)
			seen_a = true;
	}
	list_for_each_entry(p, &dmc_dpm_suspended, dpm_entry) {
		if (p == b->p)
			return seen_a;
		if (p == a->p)
			seen_a = true;
	}
	return false;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Drivers and binding: registration, matching, probing, unbinding,
 * deferred and asynchronous probing. The counterpart of Linux's driver
 * registration and dd.c together, both in drivers/base/.
 *
 * Binding runs in both orders: an added device is offered to its bus's
 * drivers (dmc_device_initial_probe()), a registered driver to its bus's
 * unbound devices (dmc_driver_attach()). Probe and remove run with the
 * device lock held and no core-wide lock.
 *
 * Deferred probe. Linux parks every device whose probe returned
 * -EPROBE_DEFER on one list and retries the whole list after any driver
 * binds. A dmcore probe may say what it waits for: dmc_probe_defer(dev,
 * "name") parks the device in an index of waiters by that name, and only
 * those waiters are retried when a device of that name binds or a driver
 * of that name registers. Deferrals that name nothing (a plain
 * -EPROBE_DEFER, or one from the bus's match) fall back to Linux's rule.
 * A chain (A waits for B waits for C) so resolves with each device probed
 * twice. Retries run on an ordered queue; a trigger that fires while a
 * probe is deciding to defer sends that device straight back to the queue,
 * so no wake-up is lost.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "base.h"

static struct workqueue_struct *dmc_probe_wq;

/* Deferred probe state; dmc_deferred_mutex. */
static DEFINE_MUTEX(dmc_deferred_mutex);
static LIST_HEAD(dmc_deferred_unnamed);	/* parked, waiting for any bind */
static LIST_HEAD(dmc_deferred_active);	/* to be retried */
static struct dmc_klist dmc_deferred_named; /* parked by what they wait for */
static struct work_struct dmc_deferred_work;
static atomic_t dmc_deferred_trigger_count = ATOMIC_INIT(0);

/* Work queued and not yet finished, for dmc_wait_for_device_probe(). */
static atomic_t dmc_probe_pending = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(dmc_probe_waitq);

static atomic_long_t dmc_probe_calls = ATOMIC_LONG_INIT(0);

/**
 * dmc_probe_count() - how many probe callbacks dmcore has made
 *
 * Return: the number of bus or driver probe calls since load.
 */
unsigned long dmc_probe_count(void)
{
	return atomic_long_read(&dmc_probe_calls);
}
EXPORT_SYMBOL_GPL(dmc_probe_count);

static void dmc_probe_work_queued(void)
{
	atomic_inc(&dmc_probe_pending);
}

static void dmc_probe_work_done(void)
{
	if (atomic_dec_and_test(&dmc_probe_pending))
		wake_up_all(&dmc_probe_waitq);
}

/**
 * dmc_wait_for_device_probe() - wait until all probing has finished
 *
 * Returns once no deferred retry and no asynchronous probe is queued or
 * running. Devices still waiting for something that never appeared stay
 * deferred.
 *
 * Context: may sleep; must not be called from a probe or remove callback.
 */
void dmc_wait_for_device_probe(void)
{
	wait_event(dmc_probe_waitq, !atomic_read(&dmc_probe_pending));
}
EXPORT_SYMBOL_GPL(dmc_wait_for_device_probe);

/* ---- deferred probe ---------------------------------------------------- */

static bool dmc_deferred_get(struct dmc_klist_node *n)
{
	return true;	/* the index holds its own reference on the device */
}

static void dmc_deferred_put(struct dmc_klist_node *n)
{
}

static void dmc_deferred_kick(void)
{
	dmc_probe_work_queued();
	if (!queue_work(dmc_probe_wq, &dmc_deferred_work))
		dmc_probe_work_done();	/* already queued: that run will see it */
}

/* Is @p parked or queued? Caller holds dmc_deferred_mutex. */
static bool dmc_deferred_listed(struct dmc_device_private *p)
{
	return !list_empty(&p->deferred) || dmc_klist_node_attached(&p->knode_waits);
}

/* Take @p off whichever list it is on; caller holds the mutex. */
static bool dmc_deferred_unlink(struct dmc_device_private *p)
{
	bool was = dmc_deferred_listed(p);

	list_del_init(&p->deferred);
	dmc_klist_del(&dmc_deferred_named, &p->knode_waits);
	return was;
}

/*
 * Park @dev after a deferral. @trigger is the trigger count seen before
 * the probe: if anything bound since, retry at once.
 */
/*
 * The index of named waiters hashes a device by its ->waits_for string,
 * so that string must not change or go while the device is in the index.
 * A parked device offered to a driver meanwhile (a driver registered, a
 * bind file, drivers_probe) changes it: take the device out of the index
 * first and keep it, with its reference, on the unnamed list, from where
 * dmc_deferred_probe_add() or dmc_deferred_probe_del() move it as usual.
 */
static void dmc_deferred_set_waits_for(struct dmc_device_private *p, char *name)
{
	lockdep_assert_held(&dmc_deferred_mutex);
	if (dmc_klist_node_attached(&p->knode_waits)) {
		dmc_klist_del(&dmc_deferred_named, &p->knode_waits);
		list_add_tail(&p->deferred, &dmc_deferred_unnamed);
	}
	kfree(p->waits_for);
	p->waits_for = name;
}

static void dmc_deferred_probe_add(struct dmc_device *dev, int trigger,
				   struct dmc_driver *drv)
{
	struct dmc_device_private *p = dev->p;
	bool kick = false;

	mutex_lock(&dmc_deferred_mutex);
	p->deferred_by = drv;
	if (!dmc_deferred_unlink(p))
		dmc_device_get(dev);	/* the lists hold a reference */
	if (atomic_read(&dmc_deferred_trigger_count) != trigger) {
		list_add_tail(&p->deferred, &dmc_deferred_active);
		kick = true;
	} else if (p->waits_for) {
		if (dmc_klist_add(&dmc_deferred_named, &p->knode_waits,
				  (const char * const *)&p->waits_for, false))
			list_add_tail(&p->deferred, &dmc_deferred_unnamed);
	} else {
		list_add_tail(&p->deferred, &dmc_deferred_unnamed);
	}
	mutex_unlock(&dmc_deferred_mutex);
	if (kick)
		dmc_deferred_kick();
}

/* Forget a deferral: the device bound or is going away. */
void dmc_deferred_probe_del(struct dmc_device *dev)
{
	bool was;

	mutex_lock(&dmc_deferred_mutex);
	was = dmc_deferred_unlink(dev->p);
	mutex_unlock(&dmc_deferred_mutex);
	if (was)
		dmc_device_put(dev);
}

/*
 * Something appeared: retry the waiters on @name (a device that bound or
 * a driver that registered) and, if @all_unnamed, the unnamed waiters.
 */
static void dmc_deferred_trigger(const char *name, bool all_unnamed)
{
	struct dmc_device_private *p;
	struct dmc_klist_node *n;
	bool kick;

	mutex_lock(&dmc_deferred_mutex);
	atomic_inc(&dmc_deferred_trigger_count);
	while (name && (n = dmc_klist_find(&dmc_deferred_named, name))) {
		p = container_of(n, struct dmc_device_private, knode_waits);
		dmc_klist_del(&dmc_deferred_named, n);
		list_add_tail(&p->deferred, &dmc_deferred_active);
	}
	if (all_unnamed)
		list_splice_tail_init(&dmc_deferred_unnamed, &dmc_deferred_active);
	kick = !list_empty(&dmc_deferred_active);
	mutex_unlock(&dmc_deferred_mutex);
	if (kick)
		dmc_deferred_kick();
}

static int __dmc_device_attach(struct dmc_device *dev, bool allow_async);

/*
 * @drv is going away: forget the deferrals its probe asked for. Deferrals
 * by the bus's match or before any driver was chosen stay.
 */
static void dmc_deferred_drop_driver(struct dmc_driver *drv)
{
	struct dmc_device_private *p, *tmp;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	LIST_HEAD(dropped);

	mutex_lock(&dmc_deferred_mutex);
	list_for_each_entry_safe(p, tmp, &dmc_deferred_unnamed, deferred)
		if (p->deferred_by == drv)
			list_move(&p->deferred, &dropped);
	dmc_klist_iter_start(&dmc_deferred_named, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		p = container_of(n, struct dmc_device_private, knode_waits);
		if (p->deferred_by == drv) {
			dmc_klist_del(&dmc_deferred_named, n);
			list_add(&p->deferred, &dropped);
		}
	}
	dmc_klist_iter_exit(&it);
	mutex_unlock(&dmc_deferred_mutex);

	list_for_each_entry_safe(p, tmp, &dropped, deferred) {
		list_del_init(&p->deferred);
		dmc_device_put(p->device);
	}
}

static void dmc_deferred_work_fn(struct work_struct *work)
{
	struct dmc_device_private *p;
	struct dmc_device *dev;

	mutex_lock(&dmc_deferred_mutex);
	while (!list_empty(&dmc_deferred_active)) {
		p = list_first_entry(&dmc_deferred_active,
				     struct dmc_device_private, deferred);
		list_del_init(&p->deferred);
		dev = p->device;
		mutex_unlock(&dmc_deferred_mutex);

		__dmc_device_attach(dev, false);
		dmc_device_put(dev);	/* the list's reference */

		mutex_lock(&dmc_deferred_mutex);
	}
	mutex_unlock(&dmc_deferred_mutex);
	dmc_probe_work_done();
}

/**
 * dmc_probe_defer() - defer a probe until something named appears
 * @dev: the device being probed (call from its probe)
 * @waits_for: name of the device or driver awaited, or NULL for "any"
 *
 * Use as ``return dmc_probe_defer(dev, "clk0");``. The device is retried
 * when a device named @waits_for binds to a driver or a driver named
 * @waits_for registers.
 *
 * Context: from a probe callback, device lock held.
 * Return: -EPROBE_DEFER.
 */
int dmc_probe_defer(struct dmc_device *dev, const char *waits_for)
{
	char *name = waits_for ? kstrdup(waits_for, GFP_KERNEL) : NULL;

	if (!dev || !dev->p) {
		kfree(name);
		return -EPROBE_DEFER;
	}
	mutex_lock(&dmc_deferred_mutex);
	dmc_deferred_set_waits_for(dev->p, name);	/* NULL: unnamed */
	mutex_unlock(&dmc_deferred_mutex);
	return -EPROBE_DEFER;
}
EXPORT_SYMBOL_GPL(dmc_probe_defer);

static void dmc_clear_waits_for(struct dmc_device *dev)
{
	mutex_lock(&dmc_deferred_mutex);
	dmc_deferred_set_waits_for(dev->p, NULL);
	mutex_unlock(&dmc_deferred_mutex);
}

/**
 * dmc_device_is_deferred() - is the device waiting for a deferred retry?
 * @dev: the device
 *
 * Return: true while it is parked or queued for a retry.
 */
bool dmc_device_is_deferred(struct dmc_device *dev)
{
	bool ret;

	if (!dev || !dev->p)
		return false;
	mutex_lock(&dmc_deferred_mutex);
	ret = dmc_deferred_listed(dev->p);
	mutex_unlock(&dmc_deferred_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_device_is_deferred);

/**
 * dmc_device_deferred_reason() - what a deferred device waits for
 * @dev: the device
 * @buf: where the answer is written
 * @size: size of @buf
 *
 * Return: @buf, holding the awaited name, or "unnamed" for a deferral
 * that named nothing, or "" if @dev is not deferred.
 */
const char *dmc_device_deferred_reason(struct dmc_device *dev, char *buf,
				       size_t size)
{
	if (!buf || !size)
		return buf;
	buf[0] = '\0';
	if (!dev || !dev->p)
		return buf;
	mutex_lock(&dmc_deferred_mutex);
	if (dmc_deferred_listed(dev->p))
		strscpy(buf, dev->p->waits_for ?: "unnamed", size);
	mutex_unlock(&dmc_deferred_mutex);
	return buf;
}
EXPORT_SYMBOL_GPL(dmc_device_deferred_reason);

/* ---- matching and probing ------------------------------------------------ */

static int dmc_match(struct dmc_device *dev, struct dmc_driver *drv)
{
	return dev->bus->match ? dev->bus->match(dev, drv) : 1;
}

bool dmc_driver_match_device(struct dmc_driver *drv, struct dmc_device *dev)
{
	return dmc_match(dev, drv) > 0;
}

/* The probe succeeded: record the binding and tell everyone. */
static void dmc_driver_bound(struct dmc_device *dev)
{
	struct dmc_driver *drv = dev->driver;

	if (dmc_klist_add(&drv->p->klist_devices, &dev->p->knode_driver,
			  &dev->kobj.name, false))
		pr_warn_ratelimited("dmcore: '%s' bound to '%s' but not listed\n",
				    dev->kobj.name, drv->name);
	dmc_sysfs_link(&dev->kobj, "driver", &drv->p->kobj);
	dmc_sysfs_link(&drv->p->kobj, dev->kobj.name, &dev->kobj);
	dmc_deferred_probe_del(dev);
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_BOUND_DRIVER);
	dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_BIND);
	/* Waiters on this device, and everyone who named nothing. */
	dmc_deferred_trigger(dev->kobj.name, true);
}

/*
 * Probe @dev with @drv. Caller holds the device lock, an active reference
 * on @drv (dmc_driver_active_get()) and has matched.
 * Return: 0 when bound, -EPROBE_DEFER when parked, another error when
 * @drv refused the device.
 */
static int __dmc_really_probe(struct dmc_device *dev, struct dmc_driver *drv)
{
	char supplier[DMC_NAME_MAX + 1];
	int trigger, ret;

	lockdep_assert_held(&dev->mutex);
	if (dev->p->dead || !dev->p->ready_to_probe)
		return -ENODEV;
	if (dev->driver)
		return -EBUSY;
	/* The driver's link to @dev would take the name of one of its files. */
	if (dmc_kobject_name_reserved(&drv->p->kobj, dev->kobj.name)) {
		pr_err_ratelimited("dmcore: cannot bind '%s' to '%s': the driver has a file of that name\n",
				   dev->kobj.name, drv->name);
		return -EEXIST;
	}
	dmc_clear_waits_for(dev);
	trigger = atomic_read(&dmc_deferred_trigger_count);

	ret = dmc_device_links_check_suppliers(dev, supplier, sizeof(supplier));
	if (ret) {
		dmc_probe_defer(dev, supplier);
		goto defer;
	}

	dev->driver = drv;
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_BIND_DRIVER);
	ret = 0;
	if (dev->bus->probe) {
		atomic_long_inc(&dmc_probe_calls);
		ret = dev->bus->probe(dev);
	} else if (drv->probe) {
		atomic_long_inc(&dmc_probe_calls);
		ret = drv->probe(dev);
	}
	if (!ret) {
		dmc_driver_bound(dev);
		return 0;
	}

	dev->driver = NULL;
	dev->driver_data = NULL;
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_DRIVER_NOT_BOUND);
	if (ret == -EPROBE_DEFER)
		goto defer;
	if (ret != -ENODEV && ret != -ENXIO)
		pr_warn_ratelimited("dmcore: probe of '%s' by '%s' failed: %d\n",
				    dev->kobj.name, drv->name, ret);
	return ret;

defer:
	pr_debug("dmcore: '%s' deferred (%s)\n", dev->kobj.name,
		 dev->p->waits_for ?: "unnamed");
	dmc_deferred_probe_add(dev, trigger, drv);
	return -EPROBE_DEFER;
}

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

/* dmc_driver_try()'s results besides 0 and negative errnos */
#define DMC_TRY_NO_MATCH	1	/* the bus's match said no (or failed) */
#define DMC_TRY_ASYNC		2	/* matched; probe it asynchronously */

/* dmc_driver_try()'s flags */
#define DMC_TRY_ALLOW_ASYNC	BIT(0)	/* an async driver is left to a worker */
#define DMC_TRY_PARK_DEFER	BIT(1)	/* park the device on a match deferral */

/*
 * The one way the core offers a device to one driver: match, then probe.
 * Caller holds the device lock and a reference on @dp. The device must be
 * ready (added, "add" sent) and alive, and the driver stays registered
 * for the match and the probe (an active reference), so an unregistration
 * that returned has no match or probe with its driver left behind.
 *
 * The deferred-probe trigger count is read before the match, so a device
 * or driver appearing while match decides to defer is not missed.
 *
 * Return: 0 bound; -EPROBE_DEFER deferred (parked, for a match deferral
 * only with DMC_TRY_PARK_DEFER); DMC_TRY_NO_MATCH; DMC_TRY_ASYNC (with
 * DMC_TRY_ALLOW_ASYNC, for an asynchronous driver); -ENODEV when the
 * device is not ready or dead or the driver is leaving; -EBUSY when bound
 * already; else the probe's error.
 */
static int dmc_driver_try(struct dmc_device *dev, struct dmc_driver_private *dp,
			  unsigned int flags)
{
	struct dmc_driver *drv;
	int trigger, ret;

	lockdep_assert_held(&dev->mutex);
	if (dev->p->dead || !dev->p->ready_to_probe)
		return -ENODEV;
	if (dev->driver)
		return -EBUSY;
	drv = dmc_driver_active_get(dp);
	if (!drv)
		return -ENODEV;
	trigger = atomic_read(&dmc_deferred_trigger_count);
	ret = dmc_match(dev, drv);
	if (ret == -EPROBE_DEFER) {
		if (flags & DMC_TRY_PARK_DEFER) {
			dmc_clear_waits_for(dev);
			dmc_deferred_probe_add(dev, trigger, NULL);
		}
	} else if (ret <= 0) {
		if (ret)
			pr_debug("dmcore: match of '%s' with '%s' failed: %d\n",
				 dev->kobj.name, drv->name, ret);
		ret = DMC_TRY_NO_MATCH;
	} else if ((flags & DMC_TRY_ALLOW_ASYNC) &&
		   drv->probe_type == DMC_PROBE_ASYNC) {
		ret = DMC_TRY_ASYNC;
	} else {
		ret = __dmc_really_probe(dev, drv);
	}
	dmc_driver_active_put(dp);
	return ret;
}

/* ---- asynchronous probing ---------------------------------------------------- */

struct dmc_async_probe {
	struct work_struct work;
	struct dmc_device *dev;
	struct dmc_driver_private *dp;	/* referenced; NULL: any driver of the bus */
};

/* Offer @dev to @dp's driver, or to every driver of its bus for NULL. */
static void dmc_async_probe_run(struct dmc_device *dev,
				struct dmc_driver_private *dp)
{
	if (dp) {
		dmc_device_lock(dev);
		dmc_driver_try(dev, dp, DMC_TRY_PARK_DEFER);
		dmc_device_unlock(dev);
	} else {
		__dmc_device_attach(dev, false);
	}
}

static void dmc_async_probe_fn(struct work_struct *work)
{
	struct dmc_async_probe *ap = container_of(work, struct dmc_async_probe, work);

	dmc_async_probe_run(ap->dev, ap->dp);
	dmc_device_put(ap->dev);
	if (ap->dp)
		dmc_kobject_put(&ap->dp->kobj);
	kfree(ap);
	dmc_probe_work_done();
}

static void dmc_async_probe(struct dmc_device *dev, struct dmc_driver_private *dp)
{
	struct dmc_async_probe *ap;

	ap = kzalloc(sizeof(*ap), GFP_KERNEL);
	if (!ap) {
		/* No memory for the work: probe here instead. */
		dmc_async_probe_run(dev, dp);
		return;
	}
	INIT_WORK(&ap->work, dmc_async_probe_fn);
	ap->dev = dmc_device_get(dev);
	if (dp) {
		dmc_kobject_get(&dp->kobj);
		ap->dp = dp;
	}
	dmc_probe_work_queued();
	queue_work(dmc_probe_wq, &ap->work);
}

/* ---- attaching a device ------------------------------------------------------ */

/*
 * Offer @dev to each driver of its bus in turn. Asynchronous drivers are
 * skipped when @allow_async, and an asynchronous attach is queued if one
 * of them matched and no synchronous driver bound.
 * Return: 1 bound, 0 no driver, -EPROBE_DEFER parked, -ENODEV dead or not
 * yet added.
 */
static int __dmc_device_attach(struct dmc_device *dev, bool allow_async)
{
	unsigned int flags = DMC_TRY_PARK_DEFER;
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	bool want_async = false;
	int ret = 0;

	if (allow_async)
		flags |= DMC_TRY_ALLOW_ASYNC;
	dmc_device_lock(dev);
	if (dev->p->dead || !dev->p->ready_to_probe) {
		dmc_device_unlock(dev);
		return -ENODEV;
	}
	if (dev->driver) {
		dmc_device_unlock(dev);
		return 1;
	}
	priv = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	if (!priv) {
		dmc_device_unlock(dev);
		return 0;
	}
	dmc_klist_iter_start(&priv->klist_drivers, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		ret = dmc_driver_try(dev, container_of(n, struct dmc_driver_private,
						       knode_bus), flags);
		if (!ret) {
			ret = 1;
			break;
		}
		if (ret == -EPROBE_DEFER)
			break;
		if (ret == DMC_TRY_ASYNC)
			want_async = true;
		ret = 0;	/* refused: the next driver gets its chance */
	}
	dmc_klist_iter_exit(&it);
	dmc_device_unlock(dev);

	if (!ret && want_async)
		dmc_async_probe(dev, NULL);
	return ret;
}

/* Offer a newly added device to its bus's drivers. */
void dmc_device_initial_probe(struct dmc_device *dev)
{
	__dmc_device_attach(dev, true);
}

/**
 * dmc_device_attach() - try to bind a device to a driver of its bus
 * @dev: a registered device
 *
 * Every driver of the bus is tried in registration order, synchronously,
 * until one binds.
 *
 * Context: may sleep; runs match and probe callbacks.
 * Return: 1 if bound (now or before), 0 if no driver took it,
 * -EPROBE_DEFER if it was deferred, -ENODEV if @dev is being deleted or
 * not yet added, -EINVAL for NULL or a device without a bus.
 */
int dmc_device_attach(struct dmc_device *dev)
{
	if (!dev || !dev->p || !dev->bus)
		return -EINVAL;
	return __dmc_device_attach(dev, false);
}
EXPORT_SYMBOL_GPL(dmc_device_attach);

/**
 * dmc_device_driver_attach() - bind a device to a given driver
 * @drv: a registered driver; the caller keeps it registered for the call
 * @dev: a registered device on the same bus
 *
 * What the "bind" file of a driver does. A deferral by the bus's match is
 * returned, the device is not parked.
 *
 * Context: may sleep; runs match and probe.
 * Return: 0 when bound; -EINVAL for bad arguments or different buses;
 * -EBUSY if @dev is bound already; -ENODEV if the bus's match refuses,
 * @dev is being deleted or not yet added, or @drv is being unregistered;
 * -EPROBE_DEFER if deferred; else the probe's error.
 */
int dmc_device_driver_attach(struct dmc_driver *drv, struct dmc_device *dev)
{
	struct dmc_driver_private *dp = drv ? READ_ONCE(drv->p) : NULL;
	int ret;

	if (!dp || !dev || !dev->p || drv->bus != dev->bus) {
		pr_err_ratelimited("dmcore: bind: bad driver or device\n");
		return -EINVAL;
	}
	dmc_device_lock(dev);
	ret = dmc_driver_try(dev, dp, 0);
	dmc_device_unlock(dev);
	return ret == DMC_TRY_NO_MATCH ? -ENODEV : ret;
}
EXPORT_SYMBOL_GPL(dmc_device_driver_attach);

static int dmc_driver_attach_one(struct dmc_device *dev, void *data)
{
	struct dmc_driver_private *dp = data;
	int ret;

	if (dmc_device_is_bound(dev))
		return 0;
	dmc_device_lock(dev);
	ret = dmc_driver_try(dev, dp, DMC_TRY_ALLOW_ASYNC | DMC_TRY_PARK_DEFER);
	dmc_device_unlock(dev);
	if (ret == DMC_TRY_ASYNC)
		dmc_async_probe(dev, dp);
	return 0;
}

/* Offer a newly registered driver to every unbound device of its bus. */
int dmc_driver_attach(struct dmc_driver *drv)
{
	return dmc_bus_walk_devices(drv->bus, drv->p, dmc_driver_attach_one);
}

/* ---- unbinding ---------------------------------------------------------------- */

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

bool dmc_device_driver_is(struct dmc_device *dev, struct dmc_driver *drv)
{
	return READ_ONCE(dev->driver) == drv;
}

/* Caller holds the device lock and has unbound the consumers. */
static void __dmc_device_release_driver(struct dmc_device *dev)
{
	struct dmc_driver *drv = dev->driver;

	if (!drv)
		return;
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_UNBIND_DRIVER);
	if (dev->bus->remove)
		dev->bus->remove(dev);
	else if (drv->remove)
		drv->remove(dev);
	/* Off the list first: dmc_device_replay_links() follows it. */
	if (drv->p) {
		dmc_klist_del(&drv->p->klist_devices, &dev->p->knode_driver);
		dmc_sysfs_unlink(&drv->p->kobj, dev->kobj.name);
	}
	dmc_sysfs_unlink(&dev->kobj, "driver");
	dev->driver = NULL;
	dev->driver_data = NULL;
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_UNBOUND_DRIVER);
	dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_UNBIND);
}

/**
 * dmc_device_release_driver() - unbind a device from its driver
 * @dev: the device; nothing happens if it has no driver
 *
 * The device's bound consumers (device links) are unbound first. The
 * driver's remove runs with the device lock held; "unbind" is sent.
 *
 * Context: may sleep; must not be called with the device lock held.
 */
void dmc_device_release_driver(struct dmc_device *dev)
{
	if (!dev || !dev->p)
		return;
	for (;;) {
		dmc_device_links_unbind_consumers(dev);
		dmc_device_lock(dev);
		/* A consumer that bound meanwhile goes first, too. */
		if (!dev->driver || !dmc_device_links_consumers_bound(dev))
			break;
		dmc_device_unlock(dev);
	}
	__dmc_device_release_driver(dev);
	dmc_device_unlock(dev);
}
EXPORT_SYMBOL_GPL(dmc_device_release_driver);

/**
 * dmc_device_reprobe() - unbind a device, then look for a driver again
 * @dev: the device
 *
 * Context: may sleep.
 * Return: as dmc_device_attach().
 */
int dmc_device_reprobe(struct dmc_device *dev)
{
	if (!dev || !dev->p)
		return -EINVAL;
	dmc_device_release_driver(dev);
	return dmc_device_attach(dev);
}
EXPORT_SYMBOL_GPL(dmc_device_reprobe);

static int dmc_driver_detach_one(struct dmc_device *dev, void *data)
{
	struct dmc_driver *drv = data;

	if (dmc_device_driver_is(dev, drv))
		dmc_device_release_driver(dev);
	return 0;
}

/* Unbind every device @drv serves. */
static void dmc_driver_detach(struct dmc_driver *drv)
{
	dmc_driver_walk_devices(drv, drv, dmc_driver_detach_one);
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

int dmc_probe_init(void)
{
	int err;

	err = dmc_klist_init(&dmc_deferred_named, dmc_deferred_get,
			     dmc_deferred_put);
	if (err)
		return err;
	INIT_WORK(&dmc_deferred_work, dmc_deferred_work_fn);
	dmc_probe_wq = alloc_workqueue("dmcore_probe", WQ_UNBOUND, 0);
	if (!dmc_probe_wq) {
		dmc_klist_destroy(&dmc_deferred_named);
		return -ENOMEM;
	}
	return 0;
}

void dmc_probe_exit(void)
{
	dmc_wait_for_device_probe();
	destroy_workqueue(dmc_probe_wq);
	dmc_klist_destroy(&dmc_deferred_named);
}

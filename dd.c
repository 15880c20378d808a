// SPDX-License-Identifier: GPL-2.0
/*
 * Binding a device to a driver: match, probe, asynchronous probing, the
 * deferred-probe worker, releasing the driver of a device, reprobing.
 * The counterpart of Linux's binding code, in the file of this name in
 * drivers/base/. The deferred-probe bookkeeping (who waits for what) is
 * in deferred.c, driver registration in driver.c.
 *
 * Binding runs in both orders: an added device is offered to its bus's
 * drivers (dmc_device_initial_probe()), a registered driver to its bus's
 * unbound devices (dmc_driver_attach()). Every offer goes through
 * __dmc_device_attach() and dmc_driver_try(). Probe and remove run with
 * the device lock held and no core-wide lock.
 */

#include <linux/export.h>
#include <linux/sched/clock.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "base.h"
#include "dmc_trace.h"

static struct workqueue_struct *dmc_probe_wq;
static struct work_struct dmc_deferred_work;

/* Work queued and not yet finished, for dmc_wait_for_device_probe(). */
static atomic_t dmc_probe_pending = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(dmc_probe_waitq);

static atomic_long_t dmc_probe_calls = ATOMIC_LONG_INIT(0);

/*
 * Probing blocked (dmc_device_block_probing()): every probe defers, as
 * Linux's defer_all_probes. Probes under way (past their check of the
 * flag) are counted in dmc_probe_inflight, which the blocker waits to
 * drain: each side writes its own, a full barrier, then reads the other.
 */
static bool dmc_defer_all_probes;
static atomic_t dmc_probe_inflight = ATOMIC_INIT(0);

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

/* ---- probe work and its accounting ------------------------------------------- */

static void dmc_probe_work_done(void)
{
	if (atomic_dec_and_test(&dmc_probe_pending))
		wake_up_all(&dmc_probe_waitq);
}

/* Queue @work, counted as pending until it calls dmc_probe_work_done(). */
static void dmc_probe_queue(struct work_struct *work)
{
	atomic_inc(&dmc_probe_pending);
	if (!queue_work(dmc_probe_wq, work))
		dmc_probe_work_done();	/* already queued: that run will see it */
}

/* Run the deferred worker: deferred.c said devices are due for a retry. */
void dmc_deferred_kick(void)
{
	dmc_probe_queue(&dmc_deferred_work);
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
	dmc_links_flush_dead();	/* links an unbind or probe removed */
}
EXPORT_SYMBOL_GPL(dmc_wait_for_device_probe);

/**
 * dmc_device_block_probing() - make every probe defer from now on
 *
 * Linux's device_block_probing(): from its return until
 * dmc_device_unblock_probing(), no probe callback runs; a device offered
 * to a driver meanwhile is deferred (unnamed, with the reason "probing is
 * blocked" in devices_deferred) and retried once probing is unblocked.
 * Returns after every probe that began before it has finished and no
 * asynchronous probe or deferred retry is queued or running.
 * dmc_shutdown_all() calls it and leaves probing blocked.
 *
 * Context: may sleep; must not be called from a probe or remove callback
 * or with a device lock held (it waits for probes).
 */
void dmc_device_block_probing(void)
{
	WRITE_ONCE(dmc_defer_all_probes, true);
	smp_mb();	/* the flag before the count; pairs with dmc_really_probe() */
	wait_event(dmc_probe_waitq, !atomic_read(&dmc_probe_inflight) &&
		   !atomic_read(&dmc_probe_pending));
}
EXPORT_SYMBOL_GPL(dmc_device_block_probing);

/**
 * dmc_device_unblock_probing() - let probes run again
 *
 * Linux's device_unblock_probing(): ends dmc_device_block_probing() (or
 * dmc_shutdown_all()) and retries every device deferred without a name,
 * those it blocked among them. Calls that do not pair are harmless.
 *
 * Context: may sleep.
 */
void dmc_device_unblock_probing(void)
{
	WRITE_ONCE(dmc_defer_all_probes, false);
	if (dmc_deferred_trigger(NULL, true))
		dmc_deferred_kick();
}
EXPORT_SYMBOL_GPL(dmc_device_unblock_probing);

/* ---- the deferred-probe timeout -------------------------------------------- */

/*
 * Linux's driver_deferred_probe_timeout: seconds after load (counted
 * again from each driver registration while it runs, as
 * driver_deferred_probe_extend_timeout()) after which the devices still
 * deferred are logged and dmc_driver_deferred_probe_check_state() says
 * -ETIMEDOUT. 10 by default, as Linux with modules; 0: timed out from the
 * start; -1: never. Writing the parameter starts the count again.
 */
static int dmc_deferred_timeout = 10;
static bool dmc_deferred_timed_out;
static bool dmc_deferred_timer_on;	/* dmc_probe_init() ran: the work may be queued */
static DEFINE_MUTEX(dmc_deferred_timeout_lock);	/* the three above, the work's arming */
static void dmc_deferred_timeout_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(dmc_deferred_timeout_work, dmc_deferred_timeout_fn);

/*
 * Timed out: retry every deferred device once more (a driver waiting for
 * an optional supplier may now go without it), wait for the retries,
 * then log the devices still deferred, as Linux.
 */
static void dmc_deferred_timeout_fn(struct work_struct *work)
{
	unsigned int n;

	mutex_lock(&dmc_deferred_timeout_lock);
	/* Started again (or turned off) while this run waited for the lock. */
	if (delayed_work_pending(&dmc_deferred_timeout_work) ||
	    dmc_deferred_timeout < 0) {
		mutex_unlock(&dmc_deferred_timeout_lock);
		return;
	}
	WRITE_ONCE(dmc_deferred_timed_out, true);
	mutex_unlock(&dmc_deferred_timeout_lock);
	if (dmc_deferred_trigger_all())
		dmc_deferred_kick();
	dmc_wait_for_device_probe();
	n = dmc_deferred_report_pending();
	pr_info("dmcore: deferred probe timeout: %u device(s) still deferred\n", n);
}

/* (Re)start the count of @secs; the lock held. */
static void dmc_deferred_timeout_arm(int secs)
{
	cancel_delayed_work(&dmc_deferred_timeout_work);
	dmc_deferred_timeout = secs;
	WRITE_ONCE(dmc_deferred_timed_out, !secs);
	if (secs > 0 && dmc_deferred_timer_on)
		queue_delayed_work(system_wq, &dmc_deferred_timeout_work, secs * HZ);
}

/**
 * dmc_deferred_probe_set_timeout() - start the deferred-probe timeout again
 * @secs: seconds from now (1..3600); 0: timed out at once; -1: never
 *
 * What writing the parameter deferred_probe_timeout does; KUnit uses it
 * to test with a short timeout and to put the old one back. No Linux
 * counterpart (its timeout is set on the command line).
 *
 * Context: may sleep.
 * Return: the previous value, or -EINVAL for @secs out of range (logged;
 * nothing changes).
 */
int dmc_deferred_probe_set_timeout(int secs)
{
	int old;

	if (secs < -1 || secs > 3600) {
		pr_err_ratelimited("dmcore: deferred_probe_timeout: %d is not -1..3600\n",
				   secs);
		return -EINVAL;
	}
	mutex_lock(&dmc_deferred_timeout_lock);
	old = dmc_deferred_timeout;
	dmc_deferred_timeout_arm(secs);
	mutex_unlock(&dmc_deferred_timeout_lock);
	return old;
}
EXPORT_SYMBOL_GPL(dmc_deferred_probe_set_timeout);

static int dmc_deferred_timeout_param_set(const char *val, const struct kernel_param *kp)
{
	int secs, ret;

	ret = kstrtoint(val, 0, &secs);
	if (ret) {
		pr_err_ratelimited("dmcore: deferred_probe_timeout: not a number\n");
		return ret;
	}
	/* The old value (-1..3600) or -EINVAL. */
	return dmc_deferred_probe_set_timeout(secs) == -EINVAL ? -EINVAL : 0;
}

static const struct kernel_param_ops dmc_deferred_timeout_ops = {
	.set = dmc_deferred_timeout_param_set,
	.get = param_get_int,
};
module_param_cb(deferred_probe_timeout, &dmc_deferred_timeout_ops,
		&dmc_deferred_timeout, 0644);
MODULE_PARM_DESC(deferred_probe_timeout,
		 "seconds until deferred devices are reported and their dependencies optional (-1 never, default 10)");

/* A driver registered: the count starts again, if it runs. */
static void dmc_deferred_probe_extend_timeout(void)
{
	mutex_lock(&dmc_deferred_timeout_lock);
	if (cancel_delayed_work(&dmc_deferred_timeout_work))
		queue_delayed_work(system_wq, &dmc_deferred_timeout_work,
				   dmc_deferred_timeout * HZ);
	mutex_unlock(&dmc_deferred_timeout_lock);
}

/**
 * dmc_driver_deferred_probe_check_state() - should a probe keep waiting?
 * @dev: the device whose probe misses an optional supplier
 *
 * Linux's driver_deferred_probe_check_state(): for a probe that would
 * defer for something that may never come (an optional supplier), says
 * whether to defer or to go on without it.
 *
 * Return: -EPROBE_DEFER until the deferred-probe timeout (parameter
 * deferred_probe_timeout) has passed, -ETIMEDOUT after (logged once per
 * call, rate-limited: "deferred probe timeout, ignoring dependency").
 */
int dmc_driver_deferred_probe_check_state(struct dmc_device *dev)
{
	if (READ_ONCE(dmc_deferred_timed_out)) {
		pr_warn_ratelimited("dmcore: %s: deferred probe timeout, ignoring dependency\n",
				    dev ? dmc_dev_name(dev) : "(no device)");
		return -ETIMEDOUT;
	}
	return -EPROBE_DEFER;
}
EXPORT_SYMBOL_GPL(dmc_driver_deferred_probe_check_state);

/* ---- probe types --------------------------------------------------------- */

/* Linux's driver_async_probe= command line: names, comma-separated, or "*". */
static char *dmc_async_probe_names;
module_param_named(driver_async_probe, dmc_async_probe_names, charp, 0444);
MODULE_PARM_DESC(driver_async_probe,
		 "drivers of the default probe type to probe asynchronously: names, comma-separated, or *");

/* Does the parameter name @name (or say "*")? */
static bool dmc_async_probe_requested(const char *name)
{
	const char *s = dmc_async_probe_names, *e;
	size_t len = strlen(name);

	while (s && *s) {
		e = strchrnul(s, ',');
		if ((e - s == 1 && *s == '*') ||
		    ((size_t)(e - s) == len && !strncmp(s, name, len)))
			return true;
		s = *e ? e + 1 : e;
	}
	return false;
}

/* Linux's driver_allows_async_probing(). */
static bool dmc_driver_allows_async_probing(const struct dmc_driver *drv)
{
	switch (drv->probe_type) {
	case DMC_PROBE_PREFER_ASYNCHRONOUS:
		return true;
	case DMC_PROBE_FORCE_SYNCHRONOUS:
		return false;
	default:
		return dmc_async_probe_requested(drv->name);
	}
}

/* ---- matching and probing ------------------------------------------------ */

/*
 * Does @drv serve @dev? A driver_override names the only driver that may
 * bind, whatever the bus's match says, as Linux's platform_match() does;
 * on every bus here. Caller holds the device lock (the override's).
 */
static int dmc_match(struct dmc_device *dev, struct dmc_driver *drv)
{
	if (dev->p->driver_override)
		return !strcmp(dev->p->driver_override, drv->name);
	return dev->bus->match ? dev->bus->match(dev, drv) : 1;
}

bool dmc_driver_match_device(struct dmc_driver *drv, struct dmc_device *dev)
{
	return dmc_match(dev, drv) > 0;
}

/* Added, "add" sent, not being deleted: may be probed. Device lock held. */
static bool dmc_device_probe_ready(struct dmc_device *dev)
{
	return !dev->p->dead && dev->p->ready_to_probe;
}

static void dmc_autoprobe(struct dmc_device *dev);
static void dmc_sync_state_queue(struct dmc_device *dev);

/* The probe succeeded: record the binding and tell everyone. */
static void dmc_driver_bound(struct dmc_device *dev)
{
	struct dmc_driver *drv = dev->driver;
	struct dmc_devvec autoprobe = {}, sync = {};
	size_t i;
	int err;

	dmc_model_change_begin();
	err = dmc_klist_add(&drv->p->klist_devices, &dev->p->knode_driver, false);
	dmc_model_change_end();
	if (err)
		pr_warn_ratelimited("dmcore: '%s' bound to '%s' but not listed\n",
				    dev->kobj.name, drv->name);
	dmc_sysfs_link(&dev->kobj, "driver", &drv->p->kobj);
	dmc_sysfs_link(&drv->p->kobj, dev->kobj.name, &dev->kobj);
	dmc_deferred_probe_del(dev);
	dmc_device_links_driver_bound(dev, &autoprobe, &sync);
	for (i = 0; i < autoprobe.n; i++)
		dmc_autoprobe(autoprobe.v[i]);	/* takes the reference */
	dmc_devvec_free(&autoprobe);
	for (i = 0; i < sync.n; i++)
		dmc_sync_state_queue(sync.v[i]);	/* takes the reference */
	dmc_devvec_free(&sync);
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_BOUND_DRIVER);
	trace_dmcore_bind(dev->kobj.name, drv->name);
	dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_BIND);
	/* Waiters on this device, and everyone who named nothing. */
	if (dmc_deferred_trigger(dev->kobj.name, true))
		dmc_deferred_kick();
}

/* May @drv probe @dev now? 0, or why not. */
static int dmc_really_probe_check(struct dmc_device *dev, struct dmc_driver *drv)
{
	if (!dmc_device_probe_ready(dev))
		return -ENODEV;
	if (dev->driver)
		return -EBUSY;
	/* They would be released with a binding they do not belong to. */
	if (dmc_devres_any(dev)) {
		pr_err_ratelimited("dmcore: cannot probe '%s': it has managed resources from before its probe\n",
				   dev->kobj.name);
		return -EBUSY;
	}
	/* The driver's link to @dev would take the name of one of its files. */
	if (dmc_kobject_name_reserved(&drv->p->kobj, dev->kobj.name)) {
		pr_err_ratelimited("dmcore: cannot bind '%s' to '%s': the driver has a file of that name\n",
				   dev->kobj.name, drv->name);
		return -EEXIST;
	}
	return 0;
}

/* The bus's probe, else the driver's; 0 when there is none. */
static int dmc_call_probe(struct dmc_device *dev, struct dmc_driver *drv)
{
	if (dev->bus->probe) {
		atomic_long_inc(&dmc_probe_calls);
		return dev->bus->probe(dev);
	}
	if (drv->probe) {
		atomic_long_inc(&dmc_probe_calls);
		return drv->probe(dev);
	}
	return 0;
}

/* The bus's remove, else the driver's, timed. Device lock held. */
static void dmc_call_remove(struct dmc_device *dev, struct dmc_driver *drv)
{
	void (*remove)(struct dmc_device *dev) = dev->bus->remove ?: drv->remove;
	u64 t;

	if (!remove)
		return;
	t = local_clock();
	remove(dev);
	WRITE_ONCE(dev->p->remove_ns, dmc_clock_since(t));
}

/* The last probe of @dev (device lock held) deferred, none was called. */
static void dmc_probe_set_deferred(struct dmc_device *dev)
{
	WRITE_ONCE(dev->p->probe_status, DMC_PROBE_STATUS(DMC_PROBE_DEFERRED, 0));
}

/*
 * A probe call of @dev (device lock held) by @drv (active) took @ns and
 * ended with @ret (0: bound): the device's last result and duration, the
 * driver's histogram.
 */
static void dmc_probe_record(struct dmc_device *dev, struct dmc_driver *drv,
			     int ret, u64 ns)
{
	struct dmc_driver_private *dp = drv->p;
	struct dmc_device_private *p = dev->p;
	enum dmc_probe_result res;

	if (!ret)
		res = DMC_PROBE_OK;
	else if (ret == -EPROBE_DEFER)
		res = DMC_PROBE_DEFERRED;
	else
		res = DMC_PROBE_FAILED;
	WRITE_ONCE(p->probe_status,
		   DMC_PROBE_STATUS(res, res == DMC_PROBE_FAILED ? abs(ret) : 0));
	WRITE_ONCE(p->probes, p->probes + 1);
	WRITE_ONCE(p->probe_ns, ns);

	spin_lock(&dp->hist_lock);
	dp->hist.count++;
	if (res == DMC_PROBE_OK)
		dp->hist.ok++;
	else if (res == DMC_PROBE_DEFERRED)
		dp->hist.deferred++;
	else
		dp->hist.failed++;
	dp->hist.total_ns += ns;
	dp->hist.buckets[dmc_probe_hist_bucket(ns)]++;
	spin_unlock(&dp->hist_lock);
}

/* The probe failed: its resources go, and @dev has no driver again. */
static void dmc_probe_failed(struct dmc_device *dev)
{
	__dmc_devres_release_all(dev);
	dmc_device_links_no_driver(dev);
	WRITE_ONCE(dev->driver, NULL);
	dev->driver_data = NULL;
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_DRIVER_NOT_BOUND);
}

/*
 * Probe @dev with @drv. Caller holds the device lock, an active reference
 * on @drv (dmc_driver_active_get()), has matched and counted the probe in
 * dmc_probe_inflight.
 * Return: 0 when bound, -EPROBE_DEFER when parked, another error when
 * @drv refused the device.
 */
static int dmc_really_probe(struct dmc_device *dev, struct dmc_driver *drv)
{
	char supplier[DMC_NAME_MAX + 1] dmc_noinit;
	int trigger, ret;
	u64 t;

	lockdep_assert_held(&dev->mutex);
	ret = dmc_really_probe_check(dev, drv);
	if (ret)
		return ret;
	dmc_clear_waits_for(dev);
	trigger = dmc_deferred_triggers();

	smp_mb();	/* counted before the flag; pairs with dmc_device_block_probing() */
	if (READ_ONCE(dmc_defer_all_probes)) {
		dmc_dev_err_probe(dev, -EPROBE_DEFER, "%s: probing is blocked", drv->name);
		goto defer;
	}
	ret = dmc_device_links_check_suppliers(dev, supplier, sizeof(supplier));
	if (ret) {
		dmc_probe_defer(dev, supplier);
		goto defer;
	}

	WRITE_ONCE(dev->driver, drv);
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_BIND_DRIVER);
	dmc_pm_runtime_probe_begin(dev);
	trace_dmcore_probe_start(dev->kobj.name, drv->name);
	t = local_clock();
	ret = dmc_call_probe(dev, drv);
	t = dmc_clock_since(t);
	trace_dmcore_probe_end(dev->kobj.name, drv->name, ret, t);
	if (!ret) {
		/* The driver's files on the device, as Linux's really_probe(). */
		ret = dmc_device_add_groups(dev, drv->dev_groups);
		if (!ret) {
			dmc_probe_record(dev, drv, 0, t);
			dmc_driver_bound(dev);
			dmc_pm_runtime_probe_end(dev);
			return 0;
		}
		pr_err_ratelimited("dmcore: '%s': the dev_groups of '%s' could not be added: %d\n",
				   dev->kobj.name, drv->name, ret);
		dmc_call_remove(dev, drv);
	}

	dmc_probe_record(dev, drv, ret, t);
	dmc_probe_failed(dev);
	dmc_pm_runtime_probe_end(dev);
	if (ret == -EPROBE_DEFER)
		goto defer;
	if (ret != -ENODEV && ret != -ENXIO)
		pr_warn_ratelimited("dmcore: probe of '%s' by '%s' failed: %d\n",
				    dev->kobj.name, drv->name, ret);
	return ret;

defer:
	dmc_probe_set_deferred(dev);
	pr_debug("dmcore: '%s' deferred (%s)\n", dev->kobj.name,
		 dev->p->waits_for ?: "unnamed");
	if (dmc_deferred_probe_add(dev, trigger, drv))
		dmc_deferred_kick();
	return -EPROBE_DEFER;
}

/* dmc_really_probe(), counted for dmc_device_block_probing(). */
static int __dmc_really_probe(struct dmc_device *dev, struct dmc_driver *drv)
{
	int ret;

	atomic_inc(&dmc_probe_inflight);
	ret = dmc_really_probe(dev, drv);
	if (atomic_dec_and_test(&dmc_probe_inflight))
		wake_up_all(&dmc_probe_waitq);
	return ret;
}

/* dmc_driver_try()'s results besides 0 and negative errnos */
#define DMC_TRY_NO_MATCH	1	/* the bus's match said no (or failed) */
#define DMC_TRY_ASYNC		2	/* matched; probe it asynchronously */

/* dmc_driver_try()'s flags */
#define DMC_TRY_ALLOW_ASYNC	BIT(0)	/* an async driver is left to a worker */
#define DMC_TRY_PARK_DEFER	BIT(1)	/* park the device on a match deferral */

/*
 * What follows a match of @dev with @drv that said @match (>0 yes,
 * -EPROBE_DEFER, else no): park, probe or leave it to a worker. Caller
 * holds the device lock and @drv in use (active), and read the deferred
 * trigger count @trigger before the match.
 * Return: as dmc_driver_try().
 */
static int dmc_driver_matched(struct dmc_device *dev, struct dmc_driver *drv,
			      int match, int trigger, unsigned int flags)
{
	u64 t;
	int ret;

	if (match == -EPROBE_DEFER) {
		if (flags & DMC_TRY_PARK_DEFER) {
			dmc_clear_waits_for(dev);
			dmc_probe_set_deferred(dev);
			if (dmc_deferred_probe_add(dev, trigger, NULL))
				dmc_deferred_kick();
		}
		return -EPROBE_DEFER;
	}
	if (match <= 0) {
		if (match)
			pr_debug("dmcore: match of '%s' with '%s' failed: %d\n",
				 dev->kobj.name, drv->name, match);
		return DMC_TRY_NO_MATCH;
	}
	if ((flags & DMC_TRY_ALLOW_ASYNC) && dmc_driver_allows_async_probing(drv))
		return DMC_TRY_ASYNC;
	t = dmc_phase_start();
	ret = __dmc_really_probe(dev, drv);
	dmc_phase_lap(DMC_PHASE_PROBE, &t);
	return ret;
}

/*
 * The one way the core offers a device to one given driver: match, then
 * probe. Caller holds the device lock and a reference on @dp. The device
 * must be ready (added, "add" sent) and alive, and the driver stays
 * registered for the match and the probe (an active reference), so an
 * unregistration that returned has no match or probe with its driver left
 * behind. dmc_device_try_drivers() does the same for every driver of the
 * bus, matching under dmc_driver_srcu instead.
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
	if (!dmc_device_probe_ready(dev))
		return -ENODEV;
	if (dev->driver)
		return -EBUSY;
	drv = dmc_driver_active_get(dp);
	if (!drv)
		return -ENODEV;
	trigger = dmc_deferred_triggers();
	/* A driver the bus's match index does not name is not asked. */
	ret = dmc_match_driver_lists(dev, dp) ? dmc_match(dev, drv) : 0;
	ret = dmc_driver_matched(dev, drv, ret, trigger, flags);
	dmc_driver_active_put(dp);
	return ret;
}

/*
 * Where a walk over @priv's drivers goes on after @dp, which it left for
 * a probe: @dp's successor while @dp is on the list, else the first
 * driver registered after it. Caller holds dmc_driver_srcu.
 */
static struct list_head *dmc_drivers_after(struct dmc_subsys_private *priv,
					   struct dmc_driver_private *dp)
{
	struct list_head *pos;

	if (READ_ONCE(dp->on_bus))
		return srcu_dereference(list_next_rcu(&dp->bus_entry), &dmc_driver_srcu);
	for (pos = srcu_dereference(list_next_rcu(&priv->drivers), &dmc_driver_srcu);
	     pos != &priv->drivers;
	     pos = srcu_dereference(list_next_rcu(pos), &dmc_driver_srcu))
		if (list_entry(pos, struct dmc_driver_private, bus_entry)->seq > dp->seq)
			break;
	return pos;
}

/*
 * Where a device's offer to the drivers of its bus stands: the position in
 * the bus's list for the full walk, or (@keyed) the cursor over the
 * drivers the bus's match index names for the device's key.
 */
struct dmc_drivers_cursor {
	struct list_head *pos;
	bool keyed;
	struct dmc_match_cursor m;
};

/* The next driver to offer the device to, or NULL. Under dmc_driver_srcu. */
static struct dmc_driver_private *dmc_drivers_next(struct dmc_drivers_cursor *c)
{
	struct dmc_driver_private *dp;

	if (c->keyed)
		return dmc_match_next(&c->m);
	if (c->pos == &c->m.priv->drivers)
		return NULL;
	dp = list_entry(c->pos, struct dmc_driver_private, bus_entry);
	c->pos = srcu_dereference(list_next_rcu(c->pos), &dmc_driver_srcu);
	return dp;
}

/* Go on after @dp, which the walk left for a probe. Under dmc_driver_srcu. */
static void dmc_drivers_resume(struct dmc_drivers_cursor *c,
			       struct dmc_driver_private *dp)
{
	if (c->keyed)
		dmc_match_seek(&c->m);	/* after c->m.seq, @dp's number */
	else
		c->pos = dmc_drivers_after(c->m.priv, dp);
}

/*
 * Offer @dev, locked, to each driver of its bus in registration order
 * (only to those its match key names, on a bus with a match index) until
 * one binds or the device is deferred. Matching runs under
 * dmc_driver_srcu with no reference per driver; a driver that matched is
 * made active and referenced, and probes outside the read side. A driver
 * that refuses, or is asynchronous with DMC_TRY_ALLOW_ASYNC, leaves the
 * next one its chance; if it was unregistered meanwhile, the walk goes on
 * with the drivers registered after it.
 * Return: as dmc_driver_try(), where 0 is also "bound before",
 * DMC_TRY_NO_MATCH "no driver took it" and DMC_TRY_ASYNC "none bound,
 * an asynchronous driver matched".
 */
static int dmc_device_try_drivers(struct dmc_device *dev, unsigned int flags)
{
	struct dmc_drivers_cursor c dmc_noinit;
	struct dmc_driver_private *dp;
	struct dmc_driver *drv;
	bool want_async = false;
	int ret = DMC_TRY_NO_MATCH;
	int idx, trigger, match;

	lockdep_assert_held(&dev->mutex);
	if (!dmc_device_probe_ready(dev))
		return -ENODEV;
	if (dev->driver)
		return 0;
	c.m.priv = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	if (!c.m.priv)
		return DMC_TRY_NO_MATCH;
	c.keyed = dmc_match_device_key(dev, c.m.priv, c.m.key, &c.m.hash);
	c.m.seq = 0;
	idx = srcu_read_lock(&dmc_driver_srcu);
	if (c.keyed)
		dmc_match_seek(&c.m);
	else
		c.pos = srcu_dereference(list_next_rcu(&c.m.priv->drivers),
					 &dmc_driver_srcu);
	while ((dp = dmc_drivers_next(&c))) {
		drv = READ_ONCE(dp->driver);
		if (!drv)
			continue;	/* being unregistered */
		trigger = dmc_deferred_triggers();
		match = dmc_match(dev, drv);
		if (match <= 0 && match != -EPROBE_DEFER) {
			if (match)
				pr_debug("dmcore: match of '%s' with '%s' failed: %d\n",
					 dev->kobj.name, drv->name, match);
			continue;
		}
		/* Matched: probe outside the read side, the driver in use. */
		if (!dmc_driver_active_get(dp))
			continue;
		dmc_kobject_get(&dp->kobj);
		srcu_read_unlock(&dmc_driver_srcu, idx);
		ret = dmc_driver_matched(dev, drv, match, trigger, flags);
		dmc_driver_active_put(dp);
		idx = srcu_read_lock(&dmc_driver_srcu);
		dmc_drivers_resume(&c, dp);
		dmc_kobject_put(&dp->kobj);
		if (!ret || ret == -EPROBE_DEFER)
			break;
		if (ret == DMC_TRY_ASYNC)
			want_async = true;
		ret = DMC_TRY_NO_MATCH;	/* refused: the next driver gets its chance */
	}
	srcu_read_unlock(&dmc_driver_srcu, idx);
	if (ret == DMC_TRY_NO_MATCH && want_async)
		ret = DMC_TRY_ASYNC;
	return ret;
}

/* ---- attaching a device ------------------------------------------------------ */

static void dmc_async_probe(struct dmc_device *dev, struct dmc_driver_private *dp);

/*
 * The one attach path: offer @dev (referenced by the caller, not locked)
 * to @dp's driver, or for @dp NULL to every driver of its bus. Takes the
 * device lock around the offer; dmc_driver_try() takes the active
 * reference on each driver around its match and probe. If an
 * asynchronous driver matched (only with DMC_TRY_ALLOW_ASYNC) and none
 * bound, the same offer is queued for a worker once the lock is dropped,
 * which makes it with DMC_TRY_PARK_DEFER alone.
 *
 * Its callers, and what each passes:
 * - device add, dmc_device_initial_probe(): @dp NULL,
 *   DMC_TRY_PARK_DEFER | DMC_TRY_ALLOW_ASYNC.
 * - driver register, dmc_driver_attach() -> dmc_driver_attach_one(): the
 *   new driver (its registration holds @dp), DMC_TRY_PARK_DEFER |
 *   DMC_TRY_ALLOW_ASYNC, for each device of the bus not seen bound by an
 *   unlocked check before the lock.
 * - the deferred worker, dmc_deferred_work_fn(): @dp NULL,
 *   DMC_TRY_PARK_DEFER; the device's reference is the deferred lists'.
 * - asynchronous probing, dmc_async_probe_fn() (or dmc_async_probe()
 *   itself without memory for the work): the driver the attach above
 *   queued (the work holds @dp) or NULL, DMC_TRY_PARK_DEFER.
 * - dmc_device_attach() (drivers_probe, reprobe): @dp NULL,
 *   DMC_TRY_PARK_DEFER.
 * - dmc_device_driver_attach() (a driver's bind file): the driver (the
 *   caller keeps it registered), no flag: a match deferral is returned,
 *   the device not parked.
 *
 * Return: as dmc_driver_try() for a given @dp, as
 * dmc_device_try_drivers() for NULL.
 */
static int __dmc_device_attach(struct dmc_device *dev,
			       struct dmc_driver_private *dp, unsigned int flags)
{
	int ret;

	dmc_device_lock(dev);
	if (dp)
		ret = dmc_driver_try(dev, dp, flags);
	else
		ret = dmc_device_try_drivers(dev, flags);
	dmc_device_unlock(dev);

	if (ret == DMC_TRY_ASYNC)
		dmc_async_probe(dev, dp);
	return ret;
}

/* ---- asynchronous probing and the deferred worker ------------------------------ */

struct dmc_async_probe {
	struct work_struct work;
	struct dmc_device *dev;
	struct dmc_driver_private *dp;	/* referenced; NULL: any driver of the bus */
};

static void dmc_async_probe_fn(struct work_struct *work)
{
	struct dmc_async_probe *ap = container_of(work, struct dmc_async_probe, work);

	__dmc_device_attach(ap->dev, ap->dp, DMC_TRY_PARK_DEFER);
	dmc_device_put(ap->dev);
	if (ap->dp)
		dmc_kobject_put(&ap->dp->kobj);
	kfree(ap);
	dmc_probe_work_done();
}

/* Offer @dev to @dp's driver, or any driver of its bus, from a worker. */
static void dmc_async_probe(struct dmc_device *dev, struct dmc_driver_private *dp)
{
	struct dmc_async_probe *ap;

	ap = kzalloc(sizeof(*ap), GFP_KERNEL);
	if (!ap) {
		/* No memory for the work: probe here instead. */
		__dmc_device_attach(dev, dp, DMC_TRY_PARK_DEFER);
		return;
	}
	INIT_WORK(&ap->work, dmc_async_probe_fn);
	ap->dev = dmc_device_get(dev);
	if (dp) {
		dmc_kobject_get(&dp->kobj);
		ap->dp = dp;
	}
	dmc_probe_queue(&ap->work);
}

/*
 * A supplier bound: probe its AUTOPROBE_CONSUMER consumer @dev from a
 * worker (not here: the supplier's lock is held, and the consumer's
 * binding may take it for sync_state()). Takes over the caller's
 * reference on @dev.
 */
static void dmc_autoprobe(struct dmc_device *dev)
{
	struct dmc_async_probe *ap;

	ap = kzalloc(sizeof(*ap), GFP_KERNEL);
	if (!ap) {	/* the allocator warned; the consumer stays unbound */
		dmc_device_put(dev);
		return;
	}
	INIT_WORK(&ap->work, dmc_async_probe_fn);
	ap->dev = dev;
	dmc_probe_queue(&ap->work);
}

/* A supplier's sync_state() made due by a consumer's binding. */
struct dmc_sync_work {
	struct work_struct work;
	struct dmc_device *dev;
};

static void dmc_sync_state_fn(struct work_struct *work)
{
	struct dmc_sync_work *sw = container_of(work, struct dmc_sync_work, work);

	dmc_device_links_call_sync_state(sw->dev);
	dmc_device_put(sw->dev);
	kfree(sw);
	dmc_probe_work_done();
}

/*
 * Call @dev's sync_state() from the probe worker, under its own device
 * lock only (link_state.c says why); dmc_wait_for_device_probe() waits
 * for it. Takes the caller's reference on @dev.
 */
static void dmc_sync_state_queue(struct dmc_device *dev)
{
	struct dmc_sync_work *sw = kzalloc(sizeof(*sw), GFP_KERNEL);

	if (!sw) {	/* the allocator warned; this binding is not synced */
		dmc_device_put(dev);
		return;
	}
	INIT_WORK(&sw->work, dmc_sync_state_fn);
	sw->dev = dev;
	dmc_probe_queue(&sw->work);
}

/* Retry the devices deferred.c queued, until none is left. */
static void dmc_deferred_work_fn(struct work_struct *work)
{
	struct dmc_device *dev;

	while ((dev = dmc_deferred_next())) {
		__dmc_device_attach(dev, NULL, DMC_TRY_PARK_DEFER);
		dmc_device_put(dev);	/* the list's reference */
	}
	dmc_probe_work_done();
}

/* ---- the callers' ends of an attach -------------------------------------------- */

/* Offer a newly added device to its bus's drivers. */
void dmc_device_initial_probe(struct dmc_device *dev)
{
	__dmc_device_attach(dev, NULL, DMC_TRY_PARK_DEFER | DMC_TRY_ALLOW_ASYNC);
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
	int ret;

	if (!dev || !dev->p || !dev->bus)
		return -EINVAL;
	ret = __dmc_device_attach(dev, NULL, DMC_TRY_PARK_DEFER);
	if (!ret)
		return 1;
	return ret == DMC_TRY_NO_MATCH ? 0 : ret;
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
	ret = __dmc_device_attach(dev, dp, 0);
	return ret == DMC_TRY_NO_MATCH ? -ENODEV : ret;
}
EXPORT_SYMBOL_GPL(dmc_device_driver_attach);

static int dmc_driver_attach_one(struct dmc_device *dev, void *data)
{
	if (dmc_device_is_bound(dev))
		return 0;
	__dmc_device_attach(dev, data, DMC_TRY_PARK_DEFER | DMC_TRY_ALLOW_ASYNC);
	return 0;
}

/* Offer a newly registered driver to every unbound device of its bus. */
int dmc_driver_attach(struct dmc_driver *drv)
{
	dmc_deferred_probe_extend_timeout();
	return dmc_bus_walk_devices(drv->bus, drv->p, dmc_driver_attach_one);
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

/* ---- unbinding ---------------------------------------------------------------- */

bool dmc_device_driver_is(struct dmc_device *dev, struct dmc_driver *drv)
{
	return READ_ONCE(dev->driver) == drv;
}

/*
 * Unbind every bound consumer of @dev (before @dev itself unbinds),
 * deepest first: each round unbinds one device with no bound consumer
 * left, so dmc_device_release_driver() does not come back here with more
 * work, however long the chain of consumers is.
 */
static void dmc_device_links_unbind_consumers(struct dmc_device *dev)
{
	struct dmc_device *leaf;

	while ((leaf = dmc_links_bound_leaf(dev))) {
		dmc_device_release_driver(leaf);
		dmc_device_put(leaf);
		cond_resched();	/* a chain of thousands is one call */
	}
}

/*
 * Caller holds the device lock and has unbound the consumers.
 *
 * While @dev is on its driver's list, the driver's unregistration has not
 * passed its walk over that list (it would wait for the device lock held
 * here), so the driver and its private part are there. Taking @dev off
 * the list lets that walk miss it: from then on until the unbind is done,
 * @dp->unbinding keeps the unregistration waiting (raised before, so a
 * walk that misses @dev sees it), and @dev->driver is cleared before it
 * drops, so no one finds the driver through @dev after the owner freed it.
 */
static void __dmc_device_release_driver(struct dmc_device *dev)
{
	struct dmc_driver *drv = dev->driver;
	struct dmc_driver_private *dp;

	if (!drv)
		return;
	dp = drv->p;
	if (WARN_ON_ONCE(!dp))	/* bound to a driver past its unregistration */
		return;
	/* Active around the notifier, as Linux's; the remove sees it idled. */
	dmc_pm_runtime_get_sync(dev);
	dmc_pm_runtime_barrier(dev);
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_UNBIND_DRIVER);
	dmc_pm_runtime_put_sync(dev);
	/* Before the remove, as Linux: their shows may use the driver's data. */
	dmc_device_remove_groups(dev, drv->dev_groups);
	dmc_call_remove(dev, drv);
	trace_dmcore_unbind(dev->kobj.name, drv->name);
	/* What the driver acquired for the binding, newest first, as Linux. */
	__dmc_devres_release_all(dev);
	atomic_inc(&dp->unbinding);
	/* Off the list first: the derived "driver" link follows it (walk_links). */
	dmc_model_change_begin();
	dmc_klist_del(&dp->klist_devices, &dev->p->knode_driver);
	dmc_model_change_end();
	dmc_sysfs_unlink(&dp->kobj, dev->kobj.name);
	dmc_sysfs_unlink(&dev->kobj, "driver");
	dmc_device_links_driver_cleanup(dev);
	WRITE_ONCE(dev->driver, NULL);
	dev->driver_data = NULL;
	/* No runtime callback of @drv from here on (waits for those running). */
	dmc_pm_runtime_reinit(dev);
	/*
	 * Full barrier: the above before the count, for dmc_driver_remove().
	 * Nothing below touches the driver, and the notifier runs after, so
	 * that a notifier callback never holds up an unregistration.
	 */
	if (atomic_dec_and_test(&dp->unbinding))
		wake_up_var(&dp->unbinding);
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
	if (dev && dev->p)
		dmc_device_release_driver_from(dev, NULL);
}
EXPORT_SYMBOL_GPL(dmc_device_release_driver);

/*
 * Unbind @dev if it is bound to @drv (NULL: to any driver), checked under
 * the device lock, as Linux's device_release_driver_internal() does: a
 * device rebound to another driver since its caller looked is left bound.
 * Return: true if @dev was bound to @drv (or to a driver, for NULL) and
 * is unbound now.
 */
bool dmc_device_release_driver_from(struct dmc_device *dev, struct dmc_driver *drv)
{
	bool was;

	for (;;) {
		if (drv && !dmc_device_driver_is(dev, drv))
			return false;
		dmc_device_links_unbind_consumers(dev);
		dmc_device_lock(dev);
		/* A consumer that bound meanwhile goes first, too. */
		if (!dev->driver || (drv && dev->driver != drv) ||
		    !dmc_device_links_busy(dev))
			break;
		dmc_device_unlock(dev);
	}
	was = dev->driver && (!drv || dev->driver == drv);
	if (was)
		__dmc_device_release_driver(dev);
	dmc_device_unlock(dev);
	return was;
}

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
	dmc_device_release_driver_from(dev, data);
	return 0;
}

/* Unbind every device @drv serves. */
void dmc_driver_detach(struct dmc_driver *drv)
{
	dmc_driver_walk_devices(drv, drv, dmc_driver_detach_one);
}

int dmc_probe_init(void)
{
	int err;

	err = dmc_deferred_init();
	if (err)
		return err;
	INIT_WORK(&dmc_deferred_work, dmc_deferred_work_fn);
	dmc_probe_wq = alloc_workqueue("dmcore_probe", WQ_UNBOUND, 0);
	if (!dmc_probe_wq) {
		dmc_deferred_exit();
		return -ENOMEM;
	}
	mutex_lock(&dmc_deferred_timeout_lock);
	dmc_deferred_timer_on = true;
	dmc_deferred_timeout_arm(dmc_deferred_timeout);
	mutex_unlock(&dmc_deferred_timeout_lock);
	return 0;
}

void dmc_probe_exit(void)
{
	mutex_lock(&dmc_deferred_timeout_lock);
	dmc_deferred_timer_on = false;
	mutex_unlock(&dmc_deferred_timeout_lock);
	cancel_delayed_work_sync(&dmc_deferred_timeout_work);
	dmc_wait_for_device_probe();
	destroy_workqueue(dmc_probe_wq);
	dmc_deferred_exit();
}

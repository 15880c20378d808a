// SPDX-License-Identifier: GPL-2.0
/*
 * What the core remembers of probes, read back: a device's last probe
 * result, probe calls and callback durations (dmc_device_probe_info(),
 * for the snapshot file), a driver's probe-latency histogram
 * (dmc_driver_probe_hist()) and the walk over every registered driver's
 * histogram that stats prints (dmc_probe_hist_walk()). dd.c and power.c
 * write them (base.h: "Probe results and timings"); docs/snapshot.md
 * says how they are shown. No Linux counterpart: Linux keeps no per-device
 * probe result (only devices_deferred's reason) and times probes only
 * with initcall_debug or tracing.
 */

#include <linux/export.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "base.h"

static const char * const dmc_probe_result_names[] = {
	[DMC_PROBE_NONE] = "none",
	[DMC_PROBE_OK] = "ok",
	[DMC_PROBE_DEFERRED] = "deferred",
	[DMC_PROBE_FAILED] = "failed",
};

/**
 * dmc_probe_result_name() - a probe result's name, as docs/snapshot.md spells it
 * @result: the result
 *
 * Return: "none", "ok", "deferred" or "failed"; "?" for a value out of range.
 */
const char *dmc_probe_result_name(enum dmc_probe_result result)
{
	if ((unsigned int)result >= ARRAY_SIZE(dmc_probe_result_names))
		return "?";
	return dmc_probe_result_names[result];
}
EXPORT_SYMBOL_GPL(dmc_probe_result_name);

/**
 * dmc_device_probe_info() - what the core remembers of a device's probes
 * @dev: a device the caller holds a reference on
 * @info: filled in
 *
 * Reads the result of @dev's last probe with its errno, its probe calls
 * and the durations of its last probe, remove, system suspend and resume
 * callbacks without the device lock: each field is one value a writer
 * stored (the result and errno one pair), not necessarily all from the
 * same moment while the device is being probed, unbound or suspended
 * elsewhere. For a deferred result, @info->waits and @info->reason are
 * copied under dmc_deferred_mutex; a probe beginning meanwhile clears
 * them, so they may read "" beside "deferred". A device never added has
 * no private part and reads as never probed.
 *
 * Context: may sleep. Takes dmc_deferred_mutex (only for a deferred
 * result) and no other lock: no device lock, so it may be called with any
 * lock of the core held that is above dmc_deferred_mutex in base.h's
 * order and is not held by the deferred-probe code itself (which runs
 * under device locks).
 */
void dmc_device_probe_info(struct dmc_device *dev, struct dmc_probe_info *info)
{
	struct dmc_device_private *p = dev ? READ_ONCE(dev->p) : NULL;
	u32 st;

	memset(info, 0, sizeof(*info));
	if (!p)
		return;
	st = READ_ONCE(p->probe_status);
	info->result = DMC_PROBE_STATUS_RESULT(st);
	info->err = DMC_PROBE_STATUS_ERR(st);
	info->probes = READ_ONCE(p->probes);
	info->probe_ns = READ_ONCE(p->probe_ns);
	info->remove_ns = READ_ONCE(p->remove_ns);
	info->suspend_ns = READ_ONCE(p->suspend_ns);
	info->resume_ns = READ_ONCE(p->resume_ns);
	if (info->result == DMC_PROBE_DEFERRED)
		dmc_deferred_copy(dev, info->waits, info->reason,
				  sizeof(info->waits));
}
EXPORT_SYMBOL_GPL(dmc_device_probe_info);

/* A copy of @dp's histogram, taken under its lock. */
static void dmc_probe_hist_copy(struct dmc_driver_private *dp,
				struct dmc_probe_hist *hist)
{
	spin_lock(&dp->hist_lock);
	*hist = dp->hist;
	spin_unlock(&dp->hist_lock);
}

/**
 * dmc_driver_probe_hist() - a registered driver's probe histogram
 * @drv: the driver; the caller keeps it registered for the call
 * @hist: filled in with a consistent copy
 *
 * Context: any but NMI; takes the histogram's spinlock.
 * Return: 0, or -EINVAL for NULL or a driver that is not registered
 * (@hist then zeroed).
 */
int dmc_driver_probe_hist(struct dmc_driver *drv, struct dmc_probe_hist *hist)
{
	struct dmc_driver_private *dp = drv ? READ_ONCE(drv->p) : NULL;

	if (!hist)
		return -EINVAL;
	if (!dp) {
		memset(hist, 0, sizeof(*hist));
		return -EINVAL;
	}
	dmc_probe_hist_copy(dp, hist);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_driver_probe_hist);

/**
 * dmc_probe_hist_walk() - every registered driver's probe histogram
 * @data: passed to @fn
 * @fn: called for each driver with its bus's name, its name and a copy of
 *	its histogram; a nonzero return stops the walk. It may sleep; the
 *	names are valid only for the call.
 *
 * Buses in registration order, each bus's drivers in its list's order
 * (klist walks, safe against buses and drivers coming and going: each
 * bus's and driver's private part is referenced while @fn runs, no lock is
 * held across @fn). A driver registered or unregistered during the walk
 * may or may not be seen.
 *
 * Context: may sleep.
 * Return: the first nonzero value of @fn, or 0.
 */
int dmc_probe_hist_walk(void *data,
			int (*fn)(const char *bus, const char *drv,
				  const struct dmc_probe_hist *hist, void *data))
{
	struct dmc_subsys_private *priv;
	struct dmc_driver_private *dp;
	struct dmc_probe_hist hist;
	struct dmc_kset_iter bi;
	struct dmc_klist_iter di;
	struct dmc_kobject *kobj;
	struct dmc_klist_node *n;
	int ret = 0;

	if (!fn || !dmc_bus_kset)
		return 0;
	dmc_kset_iter_start(dmc_bus_kset, &bi);
	while (!ret && (kobj = dmc_kset_iter_next(&bi))) {
		priv = to_subsys_private(kobj);
		dmc_klist_iter_start(&priv->klist_drivers, &di);
		while (!ret && (n = dmc_klist_iter_next(&di))) {
			dp = container_of(n, struct dmc_driver_private, knode_bus);
			dmc_probe_hist_copy(dp, &hist);
			ret = fn(kobj->name, dp->kobj.name, &hist, data);
		}
		dmc_klist_iter_exit(&di);
	}
	dmc_kset_iter_exit(&bi);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_probe_hist_walk);

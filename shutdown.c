// SPDX-License-Identifier: GPL-2.0
/*
 * Shutting the model down: dmc_shutdown_all() quiesces every device as
 * Linux's device_shutdown() (drivers/base/core.c) does at reboot, in the
 * reverse of the power order, with probing blocked first and left
 * blocked. A file of its own above power.c and dd.c, which it uses:
 * dd.c reaches power.c (through link.c), so power.c may not call dd.c.
 */

#include <linux/export.h>
#include <linux/mm.h>

#include "base.h"

/* Quiesce @dev; its lock and its parent's held, as Linux. */
static void dmc_shutdown_one(struct dmc_device *dev)
{
	if (dev->p->dead)
		return;	/* deleted since the snapshot: nothing to quiesce */
	/*
	 * No runtime callback during the shutdown, as Linux's
	 * device_shutdown(): a usage reference keeps the device from
	 * suspending and the barrier waits for what is queued or running.
	 * Linux keeps that reference (the machine goes down); dmcore's
	 * devices live on, so it is dropped after, without an idle check.
	 */
	dmc_pm_runtime_get_noresume(dev);
	dmc_pm_runtime_barrier(dev);
	/*
	 * A device still on its bus has its bus registered (unregistering
	 * deletes it under its lock) and a bound driver its driver.
	 */
	if (dev->bus && dev->bus->shutdown)
		dev->bus->shutdown(dev);
	else if (dev->driver && dev->driver->shutdown)
		dev->driver->shutdown(dev);
	dmc_pm_runtime_put_noidle(dev);
}

/**
 * dmc_shutdown_all() - quiesce every device, children and consumers first
 *
 * Linux's device_shutdown(): waits for the probes under way, blocks
 * probing (dmc_device_block_probing(); it stays blocked after the return,
 * as the system is going down, until dmc_device_unblock_probing()), then
 * walks the power order from its tail, so children before parents and
 * consumers before suppliers. For each device still registered, with its
 * parent's lock and its own held, it calls its bus's shutdown when the
 * bus has one (bound or not), else its bound driver's shutdown. Devices
 * added meanwhile are not probed and not shut down; devices deleted
 * meanwhile are passed over.
 *
 * Context: may sleep; must not be called from a dmcore callback or with
 * a device lock held. Without memory for the snapshot of the power order
 * nothing is shut down (probing is blocked all the same).
 */
void dmc_shutdown_all(void)
{
	struct dmc_device **devs;
	size_t n;

	dmc_wait_for_device_probe();
	dmc_device_block_probing();
	devs = dmc_dpm_snapshot();
	if (!devs) {
		pr_err("dmcore: shutdown: no memory for the power order\n");
		return;
	}
	for (n = 0; devs[n]; n++)
		;
	while (n--) {
		struct dmc_device *dev = devs[n];
		/* Held by @dev, which the snapshot holds. */
		struct dmc_device *parent = dev->parent;

		if (parent)
			dmc_device_lock(parent);
		dmc_device_lock(dev);
		dmc_shutdown_one(dev);
		dmc_device_unlock(dev);
		if (parent)
			dmc_device_unlock(parent);
		dmc_device_put(dev);
		cond_resched();
	}
	kvfree(devs);
}
EXPORT_SYMBOL_GPL(dmc_shutdown_all);

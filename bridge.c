// SPDX-License-Identifier: GPL-2.0
/*
 * The real-event bridge: the running kernel's PCI and platform buses,
 * mirrored into dmcore.
 *
 * For each mirrored bus (module parameter "bridge", default "pci,platform")
 * the bridge registers a shadow dmc_bus_type of the same name and a bus
 * notifier on the real bus_type. Each real device on it becomes a shadow
 * dmc_device of the same name, under a shadow of its real parent, so that
 * dmcore/devices/ repeats the real /sys/devices/ path of every mirrored
 * device (taken from the device's kobject when the add is recorded, so
 * class directories on the way, as in pnp0/00:06/rtc/rtc0, are repeated
 * too); ancestors that are on no mirrored bus (pci0000:00, platform, rtc)
 * are "glue" devices: plain dmc_devices made when their first shadow child
 * comes and deleted with their last. A real binding becomes a shadow
 * dmc_driver of the real driver's name, bound to the shadow device.
 *
 * Two halves, so that the real kernel is never delayed (this file is the
 * first, bridge_shadow.c the second; bridge.h is what they share):
 *
 *  - The notifier and the coldplug walk run in the real kernel's context.
 *    They only record: under dmc_bridge_lock they look the device up in
 *    the record map, take or drop the record and queue an operation. A
 *    record holds a reference on its real device from the device's add
 *    (or coldplug import) to its removal, and no longer.
 *
 *  - One work item applies the queued operations in order to dmcore: it
 *    makes and deletes shadow devices, makes shadow drivers, binds and
 *    unbinds. Everything it does is dmcore's own locking; it never takes a
 *    real device's lock, so the real kernel never waits for it.
 *
 * Coldplug without loss or duplication: the notifier is registered first,
 * then the devices already there are walked. A device seen by both is
 * queued once (the record map answers "already known"). A device whose
 * removal the notifier saw while the walk was running is remembered in a
 * list of pointers kept only during the walk, so that a walk that reaches
 * it late does not bring it back. The walk reads a device's driver under
 * the device lock, which also orders it against the notifier's bind and
 * unbind events (the real core sends them with that lock held).
 *
 * What is mirrored: devices (name, parent chain, bus) and bindings of the
 * mirrored buses; PCI vendor, device and class IDs; the real sysfs path.
 * What is not: the real devices' other attributes, classes, links, power
 * states, and drivers registered after the load until they bind a device
 * (real drivers have no registration notifier; the coldplug imports the
 * drivers registered at load). A shadow driver stays until the bridge
 * goes, since the real core does not say when a driver is unregistered.
 */

#include <linux/device.h>
#include <linux/device/bus.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <dmcore/bus.h>

#include "base.h"
#include "clients.h"
#include "bridge.h"

static char *bridge = "pci,platform";
module_param(bridge, charp, 0444);
MODULE_PARM_DESC(bridge,
		 "real buses to mirror, comma-separated: pci, platform (default both; empty: off)");

static int dmc_bridge_notify(struct notifier_block *nb, unsigned long action,
			     void *data);

static struct dmc_bridge_bus dmc_bridge_buses[] = {
#if IS_ENABLED(CONFIG_PCI)
	{
		.name = "pci",
		.real = &pci_bus_type,
		.type = &dmc_bridge_pci_type,
	},
#endif
	{
		.name = "platform",
		.real = &platform_bus_type,
		.type = &dmc_bridge_platform_type,
	},
};

/*
 * Under dmc_bridge_lock: the devices removed while the coldplug walk ran
 * (items with @real set, not to be imported), and the events lost.
 */
static LIST_HEAD(dmc_bridge_gone_list);
static bool dmc_bridge_coldplugging;
static unsigned long dmc_bridge_lost;

/* ---- the real kernel's side: notifier and coldplug --------------------------------- */

static struct dmc_bridge_item *dmc_bridge_item_alloc(struct dmc_bridge_bus *bb,
						     enum dmc_bridge_op op,
						     const char *name)
{
	size_t len = name ? strlen(name) + 1 : 0;
	struct dmc_bridge_item *it;

	it = kzalloc(struct_size(it, name, len), GFP_KERNEL);
	if (!it)
		return NULL;
	it->op = op;
	it->bb = bb;
	if (name)
		memcpy(it->name, name, len);
	return it;
}

static void dmc_bridge_lose(struct dmc_bridge_bus *bb, struct device *dev,
			    const char *what)
{
	spin_lock(&dmc_bridge_lock);
	dmc_bridge_lost++;
	spin_unlock(&dmc_bridge_lock);
	pr_err_ratelimited("dmcore: bridge: out of memory: %s of %s device %s not mirrored\n",
			   what, bb->name, dev_name(dev));
}

/* Was @dev removed while the coldplug walk ran? */
static bool dmc_bridge_was_removed(const struct device *dev)
{
	struct dmc_bridge_item *it;

	lockdep_assert_held(&dmc_bridge_lock);
	list_for_each_entry(it, &dmc_bridge_gone_list, node)
		if (it->real == dev)
			return true;
	return false;
}

/*
 * A real device joined @bb's bus (@coldplug false) or was found there by
 * the coldplug walk: record it, with a reference, once.
 */
static void dmc_bridge_record_add(struct dmc_bridge_bus *bb, struct device *dev,
				  bool coldplug)
{
	struct dmc_bridge_rec *rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	struct dmc_bridge_item *it = dmc_bridge_item_alloc(bb, DMC_BRIDGE_ADD, NULL);
	char *path = kobject_get_path(&dev->kobj, GFP_KERNEL);

	if (!rec || !it || !path) {
		kfree(path);
		kfree(rec);
		kfree(it);
		dmc_bridge_lose(bb, dev, "add");
		return;
	}
	spin_lock(&dmc_bridge_lock);
	if (dmc_bridge_rec_find(dev) ||
	    (coldplug && dmc_bridge_was_removed(dev))) {
		spin_unlock(&dmc_bridge_lock);
		kfree(path);
		kfree(rec);
		kfree(it);
		return;
	}
	rec->path = path;
	rec->real = get_device(dev);
	rec->bb = bb;
	dmc_bridge_rec_insert(rec);
	it->rec = rec;
	dmc_bridge_queue_locked(it);
	spin_unlock(&dmc_bridge_lock);
}

/*
 * A bind (@name: the driver), unbind or removal of a recorded device.
 * A removal takes the record out of the map; the queued operation frees
 * it. A removal during the coldplug walk is remembered, recorded device
 * or not, so that the walk does not import it afterwards: the walk may
 * hold the device already (its iterator took it before the real core
 * took it off the bus list) and reach it only after this removal -- a
 * device recorded by its add notification, then forgotten here, would
 * otherwise be recorded again, its shadow made after its deletion and
 * never deleted (seen in bridge.sh's churn, in CI).
 */
static void dmc_bridge_record_op(struct dmc_bridge_bus *bb, struct device *dev,
				 enum dmc_bridge_op op, const char *name)
{
	struct dmc_bridge_item *it = dmc_bridge_item_alloc(bb, op, name);
	struct dmc_bridge_item *gone = NULL;
	struct dmc_bridge_rec *rec;

	/* Cheap, and freed unused once the walk is over. */
	if (op == DMC_BRIDGE_DEL)
		gone = dmc_bridge_item_alloc(bb, op, NULL);
	if (!it || (op == DMC_BRIDGE_DEL && !gone)) {
		kfree(gone);
		kfree(it);
		dmc_bridge_lose(bb, dev, op == DMC_BRIDGE_DEL ? "removal" : "binding");
		return;
	}
	spin_lock(&dmc_bridge_lock);
	if (gone && dmc_bridge_coldplugging) {
		gone->real = dev;
		list_add_tail(&gone->node, &dmc_bridge_gone_list);
		gone = NULL;
	}
	rec = dmc_bridge_rec_find(dev);
	if (!rec) {
		spin_unlock(&dmc_bridge_lock);
		kfree(gone);
		kfree(it);
		return;
	}
	if (op == DMC_BRIDGE_DEL)
		dmc_bridge_rec_remove(rec);
	it->rec = rec;
	dmc_bridge_queue_locked(it);
	spin_unlock(&dmc_bridge_lock);
	kfree(gone);
}

/*
 * The real core calls this in its own context (for binding events with
 * the device lock held): only record, never wait for the shadow.
 */
static int dmc_bridge_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct dmc_bridge_bus *bb = container_of(nb, struct dmc_bridge_bus, nb);
	struct device *dev = data;

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		dmc_bridge_record_add(bb, dev, false);
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_BIND, dev->driver->name);
		break;
	case BUS_NOTIFY_UNBOUND_DRIVER:
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_UNBIND, NULL);
		break;
	case BUS_NOTIFY_REMOVED_DEVICE:
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_DEL, NULL);
		break;
	}
	return NOTIFY_DONE;
}

/*
 * Coldplug, one device: the device lock keeps its driver from changing
 * until its bind is queued, behind any binding event already queued.
 */
static int dmc_bridge_coldplug_dev(struct device *dev, void *data)
{
	struct dmc_bridge_bus *bb = data;

	device_lock(dev);
	dmc_bridge_record_add(bb, dev, true);
	if (dev->driver)
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_BIND, dev->driver->name);
	device_unlock(dev);
	return 0;
}

/* Coldplug, one driver: its shadow is made even with nothing bound. */
static int dmc_bridge_coldplug_drv(struct device_driver *drv, void *data)
{
	struct dmc_bridge_bus *bb = data;
	struct dmc_bridge_item *it;

	it = dmc_bridge_item_alloc(bb, DMC_BRIDGE_DRIVER, drv->name);
	if (!it)
		return -ENOMEM;
	spin_lock(&dmc_bridge_lock);
	dmc_bridge_queue_locked(it);
	spin_unlock(&dmc_bridge_lock);
	return 0;
}

/* ---- setup and teardown ------------------------------------------------------------ */

/* Which buses "bridge" names; -EINVAL for a name the bridge does not know. */
static int dmc_bridge_parse(bool *want)
{
	const char *s = bridge ?: "";
	unsigned int i;
	size_t len;

	while (*s) {
		len = strcspn(s, ",");
		for (i = 0; len && i < ARRAY_SIZE(dmc_bridge_buses); i++) {
			if (strlen(dmc_bridge_buses[i].name) == len &&
			    !strncmp(dmc_bridge_buses[i].name, s, len))
				break;
		}
		if (len && i == ARRAY_SIZE(dmc_bridge_buses)) {
			pr_err("dmcore: bridge=%s: unknown bus '%.*s' (known: pci, platform)\n",
			       bridge, (int)len, s);
			return -EINVAL;
		}
		if (len)
			want[i] = true;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* Forget the devices removed during the coldplug walk, which is over. */
static void dmc_bridge_coldplug_done(void)
{
	struct dmc_bridge_item *it, *tmp;
	LIST_HEAD(gone);

	spin_lock(&dmc_bridge_lock);
	dmc_bridge_coldplugging = false;
	list_splice_init(&dmc_bridge_gone_list, &gone);
	spin_unlock(&dmc_bridge_lock);
	list_for_each_entry_safe(it, tmp, &gone, node)
		kfree(it);
}

/* Everything the bridge made, with its notifiers already gone. */
static void dmc_bridge_teardown(void)
{
	unsigned int i;

	dmc_bridge_shadows_teardown();
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++)
		if (dmc_bridge_buses[i].on)
			dmc_bridge_shadow_bus_unregister(&dmc_bridge_buses[i]);
	dmc_bridge_worker_stop();
	if (dmc_bridge_lost)
		pr_err("dmcore: bridge: %lu real events were lost (out of memory)\n",
		       dmc_bridge_lost);
}

/**
 * dmc_bridge_init() - mirror the running kernel's buses named by "bridge"
 *
 * For each: registers the shadow bus, then the real bus's notifier, then
 * imports the devices, bindings and drivers already there. Returns once
 * the import is applied, so the shadow is complete when dmcore's load
 * returns. Called by dmcore's init after the core is up.
 *
 * Context: process context, may sleep; takes each real device's lock
 * briefly during the import.
 * Return: 0 (also when "bridge" is empty); -EINVAL for an unknown bus
 * name; -ENOMEM; an error of the shadow bus's or the notifier's
 * registration. On failure nothing is left behind.
 */
int dmc_bridge_init(void)
{
	bool want[ARRAY_SIZE(dmc_bridge_buses)] = { };
	unsigned int i, n = 0;
	int err;

	err = dmc_bridge_parse(want);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++)
		n += want[i];
	if (!n)
		return 0;

	err = dmc_bridge_worker_start();
	if (err)
		return err;

	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		struct dmc_bridge_bus *bb = &dmc_bridge_buses[i];

		if (!want[i])
			continue;
		err = dmc_bridge_shadow_bus_register(bb);
		if (err) {
			pr_err("dmcore: bridge: shadow bus %s: error %d\n",
			       bb->name, err);
			goto err_buses;
		}
	}

	spin_lock(&dmc_bridge_lock);
	dmc_bridge_coldplugging = true;
	spin_unlock(&dmc_bridge_lock);
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		struct dmc_bridge_bus *bb = &dmc_bridge_buses[i];

		if (!bb->on)
			continue;
		bb->nb.notifier_call = dmc_bridge_notify;
		err = bus_register_notifier(bb->real, &bb->nb);
		if (err) {
			pr_err("dmcore: bridge: notifier on %s: error %d\n",
			       bb->name, err);
			goto err_notifiers;
		}
	}
	/* Drivers first, then devices in the real buses' own order. */
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		struct dmc_bridge_bus *bb = &dmc_bridge_buses[i];

		if (!bb->on)
			continue;
		err = bus_for_each_drv(bb->real, NULL, bb, dmc_bridge_coldplug_drv);
		if (!err)
			err = bus_for_each_dev(bb->real, NULL, bb,
					       dmc_bridge_coldplug_dev);
		if (err)
			goto err_all_notifiers;
	}
	dmc_bridge_coldplug_done();
	dmc_bridge_settle();

	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++)
		if (dmc_bridge_buses[i].on)
			pr_info("dmcore: bridge: mirroring %s: %u devices\n",
				dmc_bridge_buses[i].name,
				dmc_bus_device_count(&dmc_bridge_buses[i].shadow));
	return 0;

err_all_notifiers:
	i = ARRAY_SIZE(dmc_bridge_buses);
err_notifiers:
	while (i--)
		if (dmc_bridge_buses[i].on)
			bus_unregister_notifier(dmc_bridge_buses[i].real,
						&dmc_bridge_buses[i].nb);
	dmc_bridge_coldplug_done();
	dmc_bridge_teardown();
	return err;

err_buses:
	while (i--)
		if (dmc_bridge_buses[i].on)
			dmc_bridge_shadow_bus_unregister(&dmc_bridge_buses[i]);
	dmc_bridge_worker_stop();
	return err;
}

/**
 * dmc_bridge_exit() - stop mirroring and remove every shadow
 *
 * Unregisters the notifiers (which waits for calls in progress), applies
 * what they queued, then deletes the shadow devices, drops every real
 * device reference and removes the shadow drivers and buses. Real devices
 * may still be present: nothing of theirs is touched but the references.
 *
 * Context: process context, may sleep. Called by dmcore's exit first.
 */
void dmc_bridge_exit(void)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		if (!dmc_bridge_buses[i].on)
			continue;
		any = true;
		bus_unregister_notifier(dmc_bridge_buses[i].real,
					&dmc_bridge_buses[i].nb);
	}
	if (any)
		dmc_bridge_teardown();
}

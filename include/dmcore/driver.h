/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore drivers. The counterpart of include/linux/device/driver.h.
 *
 * A driver serves devices on one bus. Registering it offers it every
 * unbound device of the bus; unregistering it unbinds every device it
 * serves.
 */
#ifndef _DMCORE_DRIVER_H
#define _DMCORE_DRIVER_H

#include <dmcore/kobject.h>

struct dmc_bus_type;
struct dmc_dev_pm_ops;
struct dmc_device;
struct dmc_driver_private;

/**
 * enum dmc_probe_type - when a driver probes
 * @DMC_PROBE_SYNC: in the thread that adds the device or the driver
 * @DMC_PROBE_ASYNC: on a workqueue; dmc_wait_for_device_probe() waits
 */
enum dmc_probe_type {
	DMC_PROBE_SYNC,
	DMC_PROBE_ASYNC,
};

/**
 * struct dmc_driver - a driver
 * @name: unique on its bus
 * @bus: the bus it serves; must be registered
 * @probe_type: sync or async
 * @probe: bind to @dev: 0 on success; -EPROBE_DEFER (best through
 *	dmc_probe_defer()) to be retried later; any other error leaves the
 *	device to the next driver. Called with the device lock held.
 * @remove: unbind from @dev; called with the device lock held
 * @shutdown: quiesce @dev at shutdown
 * @suspend: suspend @dev; an error stops a system suspend, which is
 *	then rolled back. Called with the device lock and the power-transition
 *	mutex held: it must not suspend or resume devices itself.
 * @resume: resume @dev; called as @suspend
 * @suppress_bind_attrs: no "bind" and "unbind" files: the driver's
 *	bindings are decided elsewhere (the real-event bridge's shadow
 *	drivers follow the running kernel), as with Linux's field of that name
 * @groups: attributes of the driver
 * @pm: runtime PM callbacks and prepare (<dmcore/pm_runtime.h>), or NULL
 * @p: private to the core
 */
struct dmc_driver {
	const char *name;
	struct dmc_bus_type *bus;
	enum dmc_probe_type probe_type;
	bool suppress_bind_attrs;
	int (*probe)(struct dmc_device *dev);
	void (*remove)(struct dmc_device *dev);
	void (*shutdown)(struct dmc_device *dev);
	int (*suspend)(struct dmc_device *dev);
	int (*resume)(struct dmc_device *dev);
	const struct dmc_attribute_group **groups;
	const struct dmc_dev_pm_ops *pm;
	struct dmc_driver_private *p;
};

/**
 * struct dmc_driver_attribute - an attribute of a driver
 * @attr: name and mode
 * @show: fill @buf (PAGE_SIZE); return the length or a negative errno
 * @store: parse @count bytes of @buf; return @count or a negative errno
 */
struct dmc_driver_attribute {
	struct dmc_attribute attr;
	ssize_t (*show)(struct dmc_driver *drv, char *buf);
	ssize_t (*store)(struct dmc_driver *drv, const char *buf, size_t count);
};

int dmc_driver_register(struct dmc_driver *drv);
void dmc_driver_unregister(struct dmc_driver *drv);
bool dmc_driver_is_registered(const struct dmc_driver *drv);
int dmc_driver_walk_devices(struct dmc_driver *drv, void *data,
			    int (*fn)(struct dmc_device *dev, void *data));
unsigned int dmc_driver_device_count(struct dmc_driver *drv);
struct dmc_kobject *dmc_driver_kobj(struct dmc_driver *drv);

#endif /* _DMCORE_DRIVER_H */

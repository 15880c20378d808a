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
 * enum dmc_probe_type - how a driver probes the devices added after it
 *	and those there when it registers (Linux's enum probe_type)
 * @DMC_PROBE_DEFAULT_STRATEGY: synchronously, unless the module parameter
 *	driver_async_probe names the driver (or is "*"), as Linux's
 *	driver_async_probe= command line
 * @DMC_PROBE_PREFER_ASYNCHRONOUS: on a workqueue, after the add or the
 *	registration returned; dmc_wait_for_device_probe() waits for it
 * @DMC_PROBE_FORCE_SYNCHRONOUS: always in the thread that adds the
 *	device or registers the driver
 *
 * Binding by a bind file, drivers_probe, a reprobe or the deferred
 * worker is synchronous whatever the type, as in Linux.
 */
enum dmc_probe_type {
	DMC_PROBE_DEFAULT_STRATEGY,
	DMC_PROBE_PREFER_ASYNCHRONOUS,
	DMC_PROBE_FORCE_SYNCHRONOUS,
};

/**
 * struct dmc_driver - a driver
 * @name: unique on its bus
 * @bus: the bus it serves; must be registered
 * @probe_type: synchronous or asynchronous probing (enum dmc_probe_type)
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
 * @sync_state: called once per binding of a device, with its device lock
 *	held, when every consumer of its managed device links is bound
 *	(link.c); as Linux's sync_state(), the point where a supplier may
 *	drop what it kept on for consumers not yet probed
 * @groups: attributes of the driver
 * @dev_groups: attributes the driver adds to each device it binds: added
 *	after its probe succeeded (a failure to add them fails the probe,
 *	after its remove), removed before its remove at unbind, as Linux's
 *	driver->dev_groups
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
	void (*sync_state)(struct dmc_device *dev);
	const struct dmc_attribute_group **groups;
	const struct dmc_attribute_group **dev_groups;
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

/* DMC_DRIVER_ATTR_RW(foo): dmc_driver_attr_foo, as Linux's DRIVER_ATTR_RW(). */
#define DMC_DRIVER_ATTR_RW(_name)					\
	struct dmc_driver_attribute dmc_driver_attr_##_name = __DMC_ATTR_RW(_name)
#define DMC_DRIVER_ATTR_RO(_name)					\
	struct dmc_driver_attribute dmc_driver_attr_##_name = __DMC_ATTR_RO(_name)
#define DMC_DRIVER_ATTR_WO(_name)					\
	struct dmc_driver_attribute dmc_driver_attr_##_name = __DMC_ATTR_WO(_name)

int dmc_driver_register(struct dmc_driver *drv);
void dmc_driver_unregister(struct dmc_driver *drv);
bool dmc_driver_is_registered(const struct dmc_driver *drv);
int dmc_driver_walk_devices(struct dmc_driver *drv, void *data,
			    int (*fn)(struct dmc_device *dev, void *data));
unsigned int dmc_driver_device_count(struct dmc_driver *drv);
struct dmc_kobject *dmc_driver_kobj(struct dmc_driver *drv);
int dmc_driver_set_override(struct dmc_device *dev, const char **override,
			    const char *s, size_t len);
int dmc_device_set_driver_override(struct dmc_device *dev, const char *s);

#endif /* _DMCORE_DRIVER_H */

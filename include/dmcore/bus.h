/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore buses. The counterpart of include/linux/device/bus.h.
 *
 * A bus is a type of connection that devices sit on and drivers serve:
 * it decides which driver matches which device. Registering a bus makes
 * bus/<name>/ with its "devices" and "drivers" sets; a bus keeps its
 * devices and drivers indexed by name, so finding one costs O(1) expected
 * time (Linux walks a list).
 */
#ifndef _DMCORE_BUS_H
#define _DMCORE_BUS_H

#include <linux/notifier.h>
#include <dmcore/kobject.h>

struct dmc_dev_pm_ops;
struct dmc_device;
struct dmc_driver;
struct dmc_subsys_private;
struct dmc_uevent_env;

/* The size of a buffer for a match key, its NUL included. */
#define DMC_MATCH_KEY_MAX	64

/**
 * struct dmc_bus_type - a bus
 * @name: the bus's name, e.g. "pci"
 * @bus_groups: attributes of the bus itself
 * @dev_groups: attributes of every device on the bus
 * @drv_groups: attributes of every driver on the bus
 * @match: does @drv serve @dev? Return 0 for no, > 0 for yes,
 *	-EPROBE_DEFER to try again later, another negative errno on error
 *	(the driver is then skipped). NULL: every driver matches.
 * @dev_match_key: optional, with @drv_match_keys: write @dev's match key
 *	(the id the bus matches on: a vendor:device pair, a compatible
 *	string) into @buf of @size (DMC_MATCH_KEY_MAX) bytes and return its
 *	length, as snprintf() does; 0 or a negative errno when @dev has none.
 *	A device with a key is offered only to the drivers whose keys
 *	include it and to the drivers that list none (in registration
 *	order when it probes; also when a driver registers, or its bind
 *	file is written), and @match decides for each; so a driver must
 *	list every key it can match. A device without a key, or with one
 *	that does not fit, is offered to every driver, as on a bus without
 *	these two. Called under the device lock. Both callbacks are kept
 *	when the bus registers. Linux has no counterpart: its buses always
 *	walk every driver.
 * @drv_match_keys: the keys @drv serves (its id table as strings): a
 *	NULL-terminated array the driver owns and keeps unchanged while it
 *	is registered, or NULL (or empty) for a driver that may match any
 *	device. Read once, when the driver is registered.
 * @uevent: add variables to the events of the bus's devices
 * @probe: called instead of the driver's probe, if set
 * @remove: called instead of the driver's remove, if set
 * @shutdown: called instead of the driver's shutdown by dmc_shutdown_all(),
 *	for every device on the bus, bound or not, with its lock held (and
 *	its parent's), as Linux's device_shutdown() calls bus->shutdown
 * @online: bring @dev back online after @offline (dmc_device_online());
 *	0 or a negative errno. Called with the device lock held.
 * @offline: prepare @dev for a hot removal (dmc_device_offline()); 0 or a
 *	negative errno, which leaves it online. Called with the device lock
 *	held. A bus with both @online and @offline gives its devices an
 *	"online" file.
 * @sync_state: called instead of the driver's sync_state, if set
 * @pm: power callbacks used before the driver's (<dmcore/pm_runtime.h>):
 *	a callback the bus leaves NULL is the driver's
 * @p: private to the core
 */
struct dmc_bus_type {
	const char *name;
	const struct dmc_attribute_group **bus_groups;
	const struct dmc_attribute_group **dev_groups;
	const struct dmc_attribute_group **drv_groups;
	int (*match)(struct dmc_device *dev, const struct dmc_driver *drv);
	int (*dev_match_key)(const struct dmc_device *dev, char *buf, size_t size);
	const char * const *(*drv_match_keys)(const struct dmc_driver *drv);
	int (*uevent)(const struct dmc_device *dev, struct dmc_uevent_env *env);
	int (*probe)(struct dmc_device *dev);
	void (*remove)(struct dmc_device *dev);
	void (*shutdown)(struct dmc_device *dev);
	int (*online)(struct dmc_device *dev);
	int (*offline)(struct dmc_device *dev);
	void (*sync_state)(struct dmc_device *dev);
	const struct dmc_dev_pm_ops *pm;
	struct dmc_subsys_private *p;
};

/* What a bus notifier is told; the data passed is the struct dmc_device. */
enum dmc_bus_notify {
	DMC_BUS_NOTIFY_ADD_DEVICE = 1,	/* device added to the bus */
	DMC_BUS_NOTIFY_DEL_DEVICE,	/* device about to leave the bus */
	DMC_BUS_NOTIFY_BIND_DRIVER,	/* a driver is about to probe it */
	DMC_BUS_NOTIFY_BOUND_DRIVER,	/* the driver bound */
	DMC_BUS_NOTIFY_UNBIND_DRIVER,	/* the driver is about to be unbound */
	DMC_BUS_NOTIFY_UNBOUND_DRIVER,	/* the driver was unbound */
	DMC_BUS_NOTIFY_DRIVER_NOT_BOUND, /* the probe failed */
};

/**
 * struct dmc_bus_attribute - an attribute of a bus
 * @attr: name and mode
 * @show: fill @buf (PAGE_SIZE); return the length or a negative errno
 * @store: parse @count bytes of @buf; return @count or a negative errno
 */
struct dmc_bus_attribute {
	struct dmc_attribute attr;
	ssize_t (*show)(struct dmc_bus_type *bus, char *buf);
	ssize_t (*store)(struct dmc_bus_type *bus, const char *buf, size_t count);
};

/* DMC_BUS_ATTR_RW(foo): dmc_bus_attr_foo, as Linux's BUS_ATTR_RW(). */
#define DMC_BUS_ATTR_RW(_name)						\
	struct dmc_bus_attribute dmc_bus_attr_##_name = __DMC_ATTR_RW(_name)
#define DMC_BUS_ATTR_RO(_name)						\
	struct dmc_bus_attribute dmc_bus_attr_##_name = __DMC_ATTR_RO(_name)
#define DMC_BUS_ATTR_WO(_name)						\
	struct dmc_bus_attribute dmc_bus_attr_##_name = __DMC_ATTR_WO(_name)

int dmc_bus_register(struct dmc_bus_type *bus);
void dmc_bus_unregister(struct dmc_bus_type *bus);
struct dmc_bus_type *dmc_bus_find(const char *name);
bool dmc_bus_is_registered(const struct dmc_bus_type *bus);

int dmc_bus_register_notifier(struct dmc_bus_type *bus,
			      struct notifier_block *nb);
int dmc_bus_unregister_notifier(struct dmc_bus_type *bus,
				struct notifier_block *nb);

int dmc_bus_walk_devices(struct dmc_bus_type *bus, void *data,
			 int (*fn)(struct dmc_device *dev, void *data));
int dmc_bus_walk_drivers(struct dmc_bus_type *bus, void *data,
			 int (*fn)(struct dmc_driver *drv, void *data));
struct dmc_device *dmc_bus_find_device_by_name(struct dmc_bus_type *bus,
					       const char *name);
struct dmc_driver *dmc_bus_find_driver(struct dmc_bus_type *bus,
				       const char *name);
unsigned int dmc_bus_device_count(struct dmc_bus_type *bus);

int dmc_bus_set_autoprobe(struct dmc_bus_type *bus, bool on);
bool dmc_bus_get_autoprobe(struct dmc_bus_type *bus);
int dmc_bus_rescan_devices(struct dmc_bus_type *bus);

#endif /* _DMCORE_BUS_H */

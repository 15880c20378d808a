/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore devices: the nodes of the model. The counterpart of struct device
 * in include/linux/device.h, with its buses, drivers and classes in the
 * headers included below.
 *
 * Contract, as in Linux: a device is initialized, then added; once added
 * it is deleted, then put; a failed add is followed by a put and nothing
 * else. Only the release function frees a device.
 */
#ifndef _DMCORE_DEVICE_H
#define _DMCORE_DEVICE_H

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <dmcore/kobject.h>
#include <dmcore/kset.h>
#include <dmcore/event.h>
#include <dmcore/bus.h>
#include <dmcore/driver.h>
#include <dmcore/class.h>

struct dmc_device_private;

/**
 * enum dmc_power_state - power state of a device
 * @DMC_POWER_ON: working
 * @DMC_POWER_SUSPENDED: suspended; its children and consumers are too
 */
enum dmc_power_state {
	DMC_POWER_ON,
	DMC_POWER_SUSPENDED,
};

/**
 * struct dmc_device_type - what devices of one kind share
 * @name: DEVTYPE of their events
 * @groups: attribute groups every device of the type shows
 * @uevent: add variables to the device's events
 * @release: frees the device when it has no release of its own
 */
struct dmc_device_type {
	const char *name;
	const struct dmc_attribute_group **groups;
	int (*uevent)(const struct dmc_device *dev, struct dmc_uevent_env *env);
	void (*release)(struct dmc_device *dev);
};

/**
 * struct dmc_device - a device
 * @kobj: its kobject; devices live under the "devices" root
 * @parent: the device it hangs under, or NULL
 * @p: bookkeeping private to the core (see base.h)
 * @init_name: name used by dmc_device_add() when none was set
 * @type: its device type, or NULL
 * @bus: the bus it sits on, or NULL
 * @driver: the driver bound to it, or NULL; changed only by the core
 *	with @mutex held
 * @class: its class, or NULL
 * @groups: extra attribute groups
 * @driver_data: for the bound driver (dmc_dev_set_drvdata())
 * @mutex: the device lock, held by the core across probe, remove,
 *	suspend and resume of this device
 * @release: frees the device; else the type's, else the class's is used
 */
struct dmc_device {
	struct dmc_kobject kobj;
	struct dmc_device *parent;
	struct dmc_device_private *p;
	const char *init_name;
	const struct dmc_device_type *type;
	struct dmc_bus_type *bus;
	struct dmc_driver *driver;
	struct dmc_class *class;
	const struct dmc_attribute_group **groups;
	void *driver_data;
	struct mutex mutex;	/* the device lock: see above */
	void (*release)(struct dmc_device *dev);
};

/**
 * struct dmc_device_attribute - an attribute of a device
 * @attr: name and mode
 * @show: fill @buf (PAGE_SIZE) and return the length, or a negative errno
 * @store: parse @count bytes of @buf; return @count or a negative errno.
 *	Must not delete @dev itself.
 *
 * Put them in a struct dmc_attribute_group of the device (@groups), its
 * type, its bus (dev_groups) or its class (dev_groups).
 */
struct dmc_device_attribute {
	struct dmc_attribute attr;
	ssize_t (*show)(struct dmc_device *dev, struct dmc_device_attribute *attr,
			char *buf);
	ssize_t (*store)(struct dmc_device *dev, struct dmc_device_attribute *attr,
			 const char *buf, size_t count);
};

/*
 * As Linux's DEVICE_ATTR() family: DMC_DEVICE_ATTR_RO(foo) defines
 * dmc_dev_attr_foo, 0444, shown by foo_show(); _RW adds foo_store(),
 * 0644; _WO has foo_store() only, 0200; _ADMIN_ are 0400 and 0600.
 */
#define DMC_DEVICE_ATTR(_name, _mode, _show, _store)			\
	struct dmc_device_attribute dmc_dev_attr_##_name =		\
		__DMC_ATTR(_name, _mode, _show, _store)
#define DMC_DEVICE_ATTR_RW(_name)					\
	struct dmc_device_attribute dmc_dev_attr_##_name = __DMC_ATTR_RW(_name)
#define DMC_DEVICE_ATTR_ADMIN_RW(_name)					\
	struct dmc_device_attribute dmc_dev_attr_##_name =		\
		__DMC_ATTR_RW_MODE(_name, 0600)
#define DMC_DEVICE_ATTR_RO(_name)					\
	struct dmc_device_attribute dmc_dev_attr_##_name = __DMC_ATTR_RO(_name)
#define DMC_DEVICE_ATTR_ADMIN_RO(_name)					\
	struct dmc_device_attribute dmc_dev_attr_##_name =		\
		__DMC_ATTR_RO_MODE(_name, 0400)
#define DMC_DEVICE_ATTR_WO(_name)					\
	struct dmc_device_attribute dmc_dev_attr_##_name = __DMC_ATTR_WO(_name)

int dmc_device_add_groups(struct dmc_device *dev,
			  const struct dmc_attribute_group **groups);
void dmc_device_remove_groups(struct dmc_device *dev,
			      const struct dmc_attribute_group **groups);
int dmc_device_add_group(struct dmc_device *dev,
			 const struct dmc_attribute_group *grp);
void dmc_device_remove_group(struct dmc_device *dev,
			     const struct dmc_attribute_group *grp);
int dmc_device_create_file(struct dmc_device *dev,
			   const struct dmc_device_attribute *attr);
void dmc_device_remove_file(struct dmc_device *dev,
			    const struct dmc_device_attribute *attr);
int dmc_device_create_bin_file(struct dmc_device *dev,
			       const struct dmc_bin_attribute *attr);
void dmc_device_remove_bin_file(struct dmc_device *dev,
				const struct dmc_bin_attribute *attr);

static inline struct dmc_device *to_dmc_device(struct dmc_kobject *kobj)
{
	return container_of(kobj, struct dmc_device, kobj);
}

static inline const char *dmc_dev_name(const struct dmc_device *dev)
{
	return dev->kobj.name ?: dev->init_name;
}

static inline void *dmc_dev_get_drvdata(const struct dmc_device *dev)
{
	return dev->driver_data;
}

static inline void dmc_dev_set_drvdata(struct dmc_device *dev, void *data)
{
	dev->driver_data = data;
}

static inline void dmc_device_lock(struct dmc_device *dev)
{
	mutex_lock(&dev->mutex);
}

static inline int dmc_device_trylock(struct dmc_device *dev)
{
	return mutex_trylock(&dev->mutex);
}

static inline void dmc_device_unlock(struct dmc_device *dev)
{
	mutex_unlock(&dev->mutex);
}

void dmc_device_initialize(struct dmc_device *dev);
int dmc_device_add(struct dmc_device *dev);
int dmc_device_register(struct dmc_device *dev);
void dmc_device_del(struct dmc_device *dev);
void dmc_device_unregister(struct dmc_device *dev);
struct dmc_device *dmc_device_get(struct dmc_device *dev);
void dmc_device_put(struct dmc_device *dev);
__printf(2, 3) int dmc_device_set_name(struct dmc_device *dev,
				       const char *fmt, ...);
bool dmc_device_is_registered(const struct dmc_device *dev);
bool dmc_device_is_dead(const struct dmc_device *dev);
bool dmc_device_is_bound(struct dmc_device *dev);

int dmc_device_walk_children(struct dmc_device *parent, void *data,
			     int (*fn)(struct dmc_device *dev, void *data));
struct dmc_device *dmc_device_find_child(struct dmc_device *parent, const void *data,
					 int (*match)(struct dmc_device *dev,
						      const void *data));
struct dmc_device *dmc_device_find_child_by_name(struct dmc_device *parent,
						 const char *name);

/* Rename and move: device_move.c, as device_rename()/device_move() in Linux */

/**
 * enum dmc_dpm_order - where dmc_device_move() puts a device in the power order
 * @DMC_DPM_ORDER_NONE: leave it, unless it came before its new parent
 * @DMC_DPM_ORDER_DEV_AFTER_PARENT: after its new parent
 * @DMC_DPM_ORDER_PARENT_BEFORE_DEV: keep it if its new parent comes before it
 * @DMC_DPM_ORDER_DEV_LAST: at the end
 *
 * Linux's enum dpm_order; see dmc_device_move() for what each does to
 * the device's children and consumers.
 */
enum dmc_dpm_order {
	DMC_DPM_ORDER_NONE,
	DMC_DPM_ORDER_DEV_AFTER_PARENT,
	DMC_DPM_ORDER_PARENT_BEFORE_DEV,
	DMC_DPM_ORDER_DEV_LAST,
};

int dmc_device_rename(struct dmc_device *dev, const char *new_name);
int dmc_device_move(struct dmc_device *dev, struct dmc_device *new_parent,
		    enum dmc_dpm_order dpm_order);
const char *dmc_dpm_order_name(enum dmc_dpm_order order);

/* Probing: dd.c (and deferred.c), as dd.c in Linux */
int dmc_device_attach(struct dmc_device *dev);
int dmc_device_driver_attach(struct dmc_driver *drv, struct dmc_device *dev);
void dmc_device_release_driver(struct dmc_device *dev);
int dmc_device_reprobe(struct dmc_device *dev);
int dmc_probe_defer(struct dmc_device *dev, const char *waits_for);
__printf(3, 4)
int dmc_dev_err_probe(const struct dmc_device *dev, int err, const char *fmt, ...);
const char *dmc_device_deferred_reason(struct dmc_device *dev, char *buf,
				       size_t size);
bool dmc_device_is_deferred(struct dmc_device *dev);
void dmc_wait_for_device_probe(void);
unsigned long dmc_probe_count(void);
void dmc_device_block_probing(void);
void dmc_device_unblock_probing(void);
int dmc_driver_deferred_probe_check_state(struct dmc_device *dev);
int dmc_deferred_probe_set_timeout(int secs);

/* Hotplug: taking a device offline and back (device_online.c) */
void dmc_lock_device_hotplug(void);
void dmc_unlock_device_hotplug(void);
int dmc_device_online(struct dmc_device *dev);
int dmc_device_offline(struct dmc_device *dev);
bool dmc_device_is_offline(struct dmc_device *dev);
int dmc_device_set_offline_disabled(struct dmc_device *dev, bool disabled);

/*
 * Device links: a consumer depends on a supplier. The flags and states
 * have Linux's values (DL_FLAG_*, DL_STATE_* in include/linux/device.h).
 */
#define DMC_DL_FLAG_STATELESS		BIT(0)
#define DMC_DL_FLAG_AUTOREMOVE_CONSUMER	BIT(1)
#define DMC_DL_FLAG_PM_RUNTIME		BIT(2)
#define DMC_DL_FLAG_RPM_ACTIVE		BIT(3)
#define DMC_DL_FLAG_AUTOREMOVE_SUPPLIER	BIT(4)
#define DMC_DL_FLAG_AUTOPROBE_CONSUMER	BIT(5)
#define DMC_DL_FLAG_MANAGED		BIT(6)
#define DMC_DL_FLAG_SYNC_STATE_ONLY	BIT(7)

/**
 * enum dmc_device_link_state - the state of a managed link
 * @DMC_DL_STATE_NONE: not tracked (a stateless link)
 * @DMC_DL_STATE_DORMANT: neither driver is bound
 * @DMC_DL_STATE_AVAILABLE: the supplier is bound, the consumer is not
 * @DMC_DL_STATE_CONSUMER_PROBE: the consumer is probing
 * @DMC_DL_STATE_ACTIVE: both are bound
 * @DMC_DL_STATE_SUPPLIER_UNBIND: the supplier is unbinding
 */
enum dmc_device_link_state {
	DMC_DL_STATE_NONE = -1,
	DMC_DL_STATE_DORMANT = 0,
	DMC_DL_STATE_AVAILABLE,
	DMC_DL_STATE_CONSUMER_PROBE,
	DMC_DL_STATE_ACTIVE,
	DMC_DL_STATE_SUPPLIER_UNBIND,
};

struct dmc_device_link;
struct dmc_device_link *dmc_device_link_add(struct dmc_device *consumer,
					    struct dmc_device *supplier,
					    u32 flags);
void dmc_device_link_del(struct dmc_device_link *link);
int dmc_device_link_remove(struct dmc_device *consumer,
			   struct dmc_device *supplier);
struct dmc_device_link *dmc_device_link_find(struct dmc_device *consumer,
					     struct dmc_device *supplier);
enum dmc_device_link_state dmc_device_link_status(struct dmc_device_link *link);
u32 dmc_device_link_flags(struct dmc_device_link *link);
void dmc_device_links_supplier_sync_state_pause(void);
void dmc_device_links_supplier_sync_state_resume(void);
bool dmc_dev_state_synced(struct dmc_device *dev);

/* Power */
enum dmc_power_state dmc_device_power_state(struct dmc_device *dev);
const char *dmc_power_state_name(enum dmc_power_state state);
int dmc_device_suspend(struct dmc_device *dev);
int dmc_device_resume(struct dmc_device *dev);
int dmc_suspend_all(struct dmc_device **failed);
int dmc_resume_all(void);
int dmc_dpm_walk(void *data, int (*fn)(struct dmc_device *dev, void *data));
void dmc_shutdown_all(void);

#endif /* _DMCORE_DEVICE_H */

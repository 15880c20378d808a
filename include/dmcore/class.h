/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore classes. The counterpart of include/linux/device/class.h.
 *
 * A class is a view of devices by what they do ("input", "net"), whatever
 * bus they sit on: the seed article's answer to "where is the mouse?".
 * A device joins its class when it is added; class interfaces are told of
 * every member, present and future.
 */
#ifndef _DMCORE_CLASS_H
#define _DMCORE_CLASS_H

#include <linux/list.h>
#include <dmcore/kobject.h>

struct dmc_device;
struct dmc_subsys_private;
struct dmc_uevent_env;

/**
 * struct dmc_class - a class of devices
 * @name: the class's name, e.g. "input"
 * @class_groups: attributes of the class itself (struct
 *	dmc_class_attribute), in class/<name>/
 * @dev_groups: attributes of every member device
 * @dev_uevent: add variables to the members' events
 * @dev_release: frees a member that has no release of its own or of its type
 * @p: private to the core
 */
struct dmc_class {
	const char *name;
	const struct dmc_attribute_group **class_groups;
	const struct dmc_attribute_group **dev_groups;
	int (*dev_uevent)(const struct dmc_device *dev, struct dmc_uevent_env *env);
	void (*dev_release)(struct dmc_device *dev);
	struct dmc_subsys_private *p;
};

/**
 * struct dmc_class_interface - code told of every device of a class
 * @class: the class
 * @add_dev: a device joined (or was a member when the interface registered);
 *	called with the class's mutex held: it must not add or remove members
 *	of the same class, nor suspend or resume devices
 * @remove_dev: a device left (or the interface is unregistering); called
 *	as @add_dev
 * @node: private to the core
 */
struct dmc_class_interface {
	struct dmc_class *class;
	int (*add_dev)(struct dmc_device *dev, struct dmc_class_interface *intf);
	void (*remove_dev)(struct dmc_device *dev, struct dmc_class_interface *intf);
	struct list_head node;
};

/**
 * struct dmc_class_attribute - an attribute of a class
 * @attr: name and mode
 * @show: fill @buf (PAGE_SIZE); return the length or a negative errno
 * @store: parse @count bytes of @buf; return @count or a negative errno
 *
 * Shown and stored under a use of the class that its unregistration
 * waits for, as a bus's attributes.
 */
struct dmc_class_attribute {
	struct dmc_attribute attr;
	ssize_t (*show)(struct dmc_class *class, struct dmc_class_attribute *attr,
			char *buf);
	ssize_t (*store)(struct dmc_class *class, struct dmc_class_attribute *attr,
			 const char *buf, size_t count);
};

/* DMC_CLASS_ATTR_RW(foo): dmc_class_attr_foo, as Linux's CLASS_ATTR_RW(). */
#define DMC_CLASS_ATTR_RW(_name)					\
	struct dmc_class_attribute dmc_class_attr_##_name = __DMC_ATTR_RW(_name)
#define DMC_CLASS_ATTR_RO(_name)					\
	struct dmc_class_attribute dmc_class_attr_##_name = __DMC_ATTR_RO(_name)
#define DMC_CLASS_ATTR_WO(_name)					\
	struct dmc_class_attribute dmc_class_attr_##_name = __DMC_ATTR_WO(_name)

int dmc_class_register(struct dmc_class *cls);
void dmc_class_unregister(struct dmc_class *cls);
bool dmc_class_is_registered(const struct dmc_class *cls);
int dmc_class_interface_register(struct dmc_class_interface *intf);
void dmc_class_interface_unregister(struct dmc_class_interface *intf);
int dmc_class_walk_devices(struct dmc_class *cls, void *data,
			   int (*fn)(struct dmc_device *dev, void *data));
struct dmc_device *dmc_class_find_device(struct dmc_class *cls, const void *data,
					 int (*match)(struct dmc_device *dev,
						      const void *data));
struct dmc_device *dmc_class_find_device_by_name(struct dmc_class *cls,
						 const char *name);
unsigned int dmc_class_device_count(struct dmc_class *cls);

#endif /* _DMCORE_CLASS_H */

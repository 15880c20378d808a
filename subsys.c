// SPDX-License-Identifier: GPL-2.0
/*
 * Subsystems: registering and unregistering buses and classes, the
 * article's "subsystems" (bus/<name>/ with devices/ and drivers/,
 * class/<name>/), the roots bus/ and class/, and a bus's own files
 * (uevent, drivers_autoprobe, drivers_probe). The counterpart of
 * bus_register() and class_register() in Linux's drivers/base/bus.c and
 * class.c, and of their struct subsys_private.
 *
 * Unregistering a bus removes what is still on it: every device is
 * deleted (after unbinding) and every driver detached. An owner's later
 * dmc_device_unregister() or dmc_driver_unregister() of those is then
 * harmless, so a bus module and its driver modules can be unloaded in
 * either order. Unregistering a class deletes its member devices the
 * same way. So this file stands above devices, drivers and binding: it
 * is the top of the device floor, and nothing below it calls in.
 * What is on a bus or in a class, once registered, is bus.c's and
 * class.c's.
 */

#include <linux/export.h>
#include <linux/kstrtox.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "base.h"

/* Release of a bus's or class's private part, through its subsys kobject. */
static void dmc_subsys_release(struct dmc_kobject *kobj)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);

	dmc_match_index_destroy(priv);
	dmc_klist_destroy(&priv->klist_devices);
	dmc_klist_destroy(&priv->klist_drivers);
	kfree(priv);
}

/* ---- the bus's files -------------------------------------------------------- */

static struct dmc_bus_type *dmc_kobj_to_bus(struct dmc_kobject *kobj)
{
	return READ_ONCE(to_subsys_private(kobj)->bus);
}

/*
 * Begin a use of a bus's structure and callbacks, as
 * dmc_driver_active_get() does for a driver: dmc_bus_unregister() clears
 * priv->bus, then waits for these uses to end. Return: the bus, or NULL
 * (nothing to end) once its unregistration began.
 */
static struct dmc_bus_type *dmc_bus_active_get(struct dmc_subsys_private *priv)
{
	struct dmc_bus_type *bus;

	atomic_inc(&priv->active);
	smp_mb__after_atomic();	/* count before the check; pairs with dmc_bus_unregister() */
	bus = READ_ONCE(priv->bus);
	if (!bus && atomic_dec_and_test(&priv->active))
		wake_up_var(&priv->active);
	return bus;
}

static void dmc_bus_active_put(struct dmc_subsys_private *priv)
{
	if (atomic_dec_and_test(&priv->active))
		wake_up_var(&priv->active);
}

/*
 * A bus attribute's show and store run under an active use of the bus,
 * so dmc_bus_unregister() waits for them: its owner may free the bus and
 * its module may go once it returned. @attr may be the owner's: it is
 * read only after the use began.
 */
static ssize_t dmc_bus_attr_show(struct dmc_kobject *kobj,
				 struct dmc_attribute *attr, char *buf)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);
	struct dmc_bus_attribute *ba = container_of(attr, struct dmc_bus_attribute,
						    attr);
	struct dmc_bus_type *bus = dmc_bus_active_get(priv);
	ssize_t ret;

	if (!bus)
		return -ENODEV;
	ret = ba->show ? ba->show(bus, buf) : -EIO;
	dmc_bus_active_put(priv);
	return ret;
}

static ssize_t dmc_bus_attr_store(struct dmc_kobject *kobj,
				  struct dmc_attribute *attr, const char *buf,
				  size_t count)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);
	struct dmc_bus_attribute *ba = container_of(attr, struct dmc_bus_attribute,
						    attr);
	struct dmc_bus_type *bus = dmc_bus_active_get(priv);
	ssize_t ret;

	if (!bus)
		return -ENODEV;
	ret = ba->store ? ba->store(bus, buf, count) : -EIO;
	dmc_bus_active_put(priv);
	return ret;
}

static const struct dmc_sysfs_ops dmc_bus_sysfs_ops = {
	.show = dmc_bus_attr_show,
	.store = dmc_bus_attr_store,
};

static ssize_t bus_uevent_store(struct dmc_bus_type *bus, const char *buf,
				size_t count)
{
	struct dmc_subsys_private *priv = READ_ONCE(bus->p);

	if (!priv)
		return -ENODEV;
	return dmc_kobject_uevent_store(&priv->subsys.kobj, buf, count);
}

static ssize_t drivers_autoprobe_show(struct dmc_bus_type *bus, char *buf)
{
	return sysfs_emit(buf, "%d\n", dmc_bus_get_autoprobe(bus));
}

static ssize_t drivers_autoprobe_store(struct dmc_bus_type *bus, const char *buf,
				       size_t count)
{
	bool on;

	if (kstrtobool(buf, &on)) {
		pr_err_ratelimited("dmcore: %s/drivers_autoprobe: write 0 or 1\n",
				   bus->name);
		return -EINVAL;
	}
	dmc_bus_set_autoprobe(bus, on);
	return count;
}

/* drivers_probe: offer the named device to the bus's drivers. */
static ssize_t drivers_probe_store(struct dmc_bus_type *bus, const char *buf,
				   size_t count)
{
	char name[DMC_NAME_MAX + 1];
	struct dmc_device *dev;
	size_t len = count;
	int ret;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > DMC_NAME_MAX)
		return -EINVAL;
	memcpy(name, buf, len);
	name[len] = '\0';
	dev = dmc_bus_find_device_by_name(bus, name);
	if (!dev) {
		pr_err_ratelimited("dmcore: %s/drivers_probe: no device '%s'\n",
				   bus->name, name);
		return -ENODEV;
	}
	ret = dmc_device_attach(dev);
	dmc_device_put(dev);
	return ret < 0 && ret != -EPROBE_DEFER ? ret : count;
}

static struct dmc_bus_attribute dmc_bus_attr_uevent = {
	.attr = { .name = "uevent", .mode = 0200 },
	.store = bus_uevent_store,
};

static struct dmc_bus_attribute dmc_bus_attr_drivers_autoprobe = {
	.attr = { .name = "drivers_autoprobe", .mode = 0644 },
	.show = drivers_autoprobe_show,
	.store = drivers_autoprobe_store,
};

static struct dmc_bus_attribute dmc_bus_attr_drivers_probe = {
	.attr = { .name = "drivers_probe", .mode = 0200, .break_active = true },
	.store = drivers_probe_store,
};

static struct dmc_attribute *dmc_bus_core_attrs[] = {
	&dmc_bus_attr_uevent.attr,
	&dmc_bus_attr_drivers_autoprobe.attr,
	&dmc_bus_attr_drivers_probe.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_bus_core_group = {
	.attrs = dmc_bus_core_attrs,
};

static const struct dmc_attribute_group *dmc_bus_core_groups[] = {
	&dmc_bus_core_group,
	NULL,
};

static int dmc_bus_walk_groups(struct dmc_kobject *kobj, void *data,
			       int (*fn)(struct dmc_kobject *kobj,
					 const struct dmc_attribute_group *grp,
					 void *data))
{
	struct dmc_bus_type *bus = dmc_kobj_to_bus(kobj);
	int ret;

	ret = dmc_walk_group_list(kobj, dmc_bus_core_groups, data, fn);
	if (!ret && bus)
		ret = dmc_walk_group_list(kobj, bus->bus_groups, data, fn);
	return ret;
}

static const struct dmc_kobj_type dmc_bus_ktype = {
	.name = "bus",
	.indexed_elsewhere = true,
	.release = dmc_subsys_release,
	.sysfs_ops = &dmc_bus_sysfs_ops,
	.walk_groups = dmc_bus_walk_groups,
};

/*
 * bus/<bus>/devices: a link per device on the bus, named after it. The
 * set's parent is the bus's directory, which it references until its
 * release; the bus's list of devices outlives the set.
 */
static int dmc_bus_devices_walk_links(struct dmc_kobject *kobj, const char *name,
				      void *data,
				      int (*fn)(struct dmc_kobject *kobj, const char *name,
						struct dmc_kobject *target, void *data))
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj->parent);

	return dmc_device_list_walk_links(kobj, &priv->klist_devices,
					  offsetof(struct dmc_device_private, knode_bus),
					  name, data, fn);
}

/* The type of a bus's devices/ set: a kset with links. */
static const struct dmc_kobj_type dmc_bus_devices_ktype = {
	.name = "kset",
	.release = dmc_kset_release,
	.walk_links = dmc_bus_devices_walk_links,
};

/*
 * Of the objects under bus/, only the buses themselves send events (as
 * Linux's bus_uevent_filter() decides): not their devices/ and drivers/
 * sets. Drivers send theirs through the drivers/ set.
 */
static int dmc_bus_uevent_filter(const struct dmc_kobject *kobj)
{
	return kobj->ktype == &dmc_bus_ktype;
}

static const struct dmc_kset_uevent_ops dmc_bus_uevent_ops = {
	.filter = dmc_bus_uevent_filter,
};

static bool dmc_bus_dev_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(&container_of(n, struct dmc_device_private,
							 knode_bus)->device->kobj);
}

static void dmc_bus_dev_put(struct dmc_klist_node *n)
{
	dmc_device_put(container_of(n, struct dmc_device_private, knode_bus)->device);
}

static const char *dmc_bus_dev_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_device_private, knode_bus)->device->kobj.name;
}

static bool dmc_bus_drv_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(&container_of(n, struct dmc_driver_private,
							 knode_bus)->kobj);
}

static void dmc_bus_drv_put(struct dmc_klist_node *n)
{
	dmc_kobject_put(&container_of(n, struct dmc_driver_private, knode_bus)->kobj);
}

static const char *dmc_bus_drv_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_driver_private, knode_bus)->kobj.name;
}

/* Allocate and set up the private part shared by buses and classes. */
static struct dmc_subsys_private *dmc_subsys_alloc(const char *name)
{
	struct dmc_subsys_private *priv;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return NULL;
	if (dmc_klist_init(&priv->klist_devices, dmc_bus_dev_get, dmc_bus_dev_put,
			   dmc_bus_dev_name, true))
		goto err_free;
	if (dmc_klist_init(&priv->klist_drivers, dmc_bus_drv_get, dmc_bus_drv_put,
			   dmc_bus_drv_name, true))
		goto err_devices;
	if (dmc_kobject_set_name(&priv->subsys.kobj, "%s", name))
		goto err_drivers;
	BLOCKING_INIT_NOTIFIER_HEAD(&priv->bus_notifier);
	INIT_LIST_HEAD(&priv->drivers);
	INIT_LIST_HEAD(&priv->interfaces);
	mutex_init(&priv->mutex);
	return priv;

err_drivers:
	dmc_klist_destroy(&priv->klist_drivers);
err_devices:
	dmc_klist_destroy(&priv->klist_devices);
err_free:
	kfree(priv);
	return NULL;
}

/* Undo dmc_subsys_alloc() for a private part never registered. */
static void dmc_subsys_free(struct dmc_subsys_private *priv)
{
	dmc_match_index_destroy(priv);
	dmc_name_free(priv->subsys.kobj.name);
	dmc_klist_destroy(&priv->klist_drivers);
	dmc_klist_destroy(&priv->klist_devices);
	kfree(priv);
}

/**
 * dmc_bus_register() - register a bus
 * @bus: the bus, with a name
 *
 * Makes bus/<name>/ with devices/ and drivers/ and sends "add" for the
 * bus. New devices and drivers bind at once (drivers_autoprobe on). A
 * bus with dev_match_key gets a match index (match.c).
 *
 * Context: may sleep.
 * Return: 0; -EINVAL for NULL or a nameless bus, or one with only one of
 * dev_match_key and drv_match_keys; -EBUSY if @bus is
 * registered already; -EEXIST if another bus has the name; -ENOMEM.
 */
int dmc_bus_register(struct dmc_bus_type *bus)
{
	struct dmc_subsys_private *priv;
	int err;

	if (!bus || !bus->name) {
		pr_err_ratelimited("dmcore: bus_register: %s\n",
				   bus ? "bus without a name" : "NULL bus");
		return -EINVAL;
	}
	if (bus->p) {
		pr_err_ratelimited("dmcore: bus '%s' registered twice\n", bus->name);
		return -EBUSY;
	}
	if (!bus->dev_match_key != !bus->drv_match_keys) {
		pr_err_ratelimited("dmcore: bus '%s': dev_match_key and drv_match_keys go together\n",
				   bus->name);
		return -EINVAL;
	}
	priv = dmc_subsys_alloc(bus->name);
	if (!priv)
		return -ENOMEM;
	priv->bus = bus;
	if (dmc_match_index_init(priv)) {
		dmc_subsys_free(priv);
		return -ENOMEM;
	}
	priv->drivers_autoprobe = true;
	priv->subsys.kobj.kset = dmc_bus_kset;
	priv->subsys.kobj.ktype = &dmc_bus_ktype;
	err = dmc_kobject_init(&priv->subsys.kobj, &dmc_bus_ktype);
	if (err) {
		dmc_subsys_free(priv);
		return err;
	}
	err = dmc_kset_register(&priv->subsys);
	if (err)
		goto err_put;

	err = -ENOMEM;
	priv->devices_kset = __dmc_kset_create_and_add("devices", NULL,
						       &priv->subsys.kobj, true,
						       &dmc_bus_devices_ktype);
	if (!priv->devices_kset)
		goto err_unregister;
	priv->drivers_kset = dmc_kset_create_and_add("drivers", NULL,
						     &priv->subsys.kobj);
	if (!priv->drivers_kset)
		goto err_devices;

	dmc_model_change_begin();
	WRITE_ONCE(bus->p, priv);
	dmc_model_change_end();
	return 0;

err_devices:
	dmc_kset_unregister(priv->devices_kset);
err_unregister:
	dmc_kobject_del(&priv->subsys.kobj);
err_put:
	dmc_kset_put(&priv->subsys);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_bus_register);

/* A walk's callback at a bus's or class's unregistration: the member goes. */
static int dmc_subsys_del_member(struct dmc_device *dev, void *data)
{
	dmc_device_del(dev);
	return 0;
}

/**
 * dmc_bus_unregister() - unregister a bus and remove what is on it
 * @bus: a registered bus
 *
 * Every device still on the bus is deleted (its driver unbound first) and
 * every driver detached; a later dmc_driver_unregister() of such a driver
 * does nothing and a later dmc_device_unregister() of such a device only
 * drops its reference. Adding a device or a driver to the bus fails with
 * -EINVAL once this began. It waits for the shows and stores of the
 * bus's attributes under way and for the unregistrations of its drivers
 * running elsewhere: when it returns, the core holds no pointer to @bus
 * and calls none of its callbacks, so the owner may free it and its
 * module may go (dmcore takes no reference on the owner's module; it
 * drains the uses at unregistration, as kernfs does for sysfs files).
 *
 * Context: may sleep; runs drivers' remove callbacks. Must not be called
 * from a callback of the bus or of one of its drivers.
 */
void dmc_bus_unregister(struct dmc_bus_type *bus)
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	if (!bus || !bus->p) {
		pr_err_ratelimited("dmcore: unregister of a bus that is not registered\n");
		return;
	}
	priv = bus->p;
	/* No new use of @bus through its attributes: wait for those under way. */
	dmc_model_change_begin();	/* the snapshot shows it "removing" */
	WRITE_ONCE(priv->bus, NULL);
	dmc_model_change_end();
	smp_mb();	/* clear before reading the count; pairs with dmc_bus_active_get() */
	wait_var_event(&priv->active, !atomic_read(&priv->active));

	dmc_bus_walk_devices(bus, NULL, dmc_subsys_del_member);
	dmc_klist_iter_start(&priv->klist_drivers, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		dmc_wait_for_device_probe();
		dmc_driver_remove(container_of(n, struct dmc_driver_private, knode_bus));
	}
	dmc_klist_iter_exit(&it);

	dmc_model_change_begin();
	WRITE_ONCE(bus->p, NULL);
	dmc_model_change_end();
	dmc_kset_unregister(priv->drivers_kset);
	dmc_kset_unregister(priv->devices_kset);
	dmc_kset_unregister(&priv->subsys);
}
EXPORT_SYMBOL_GPL(dmc_bus_unregister);

/**
 * dmc_bus_find() - find a registered bus by name
 * @name: the bus's name
 *
 * No reference is taken: the caller must know the bus stays registered
 * while it uses it (for example because the bus's module is its own).
 *
 * Return: the bus, or NULL.
 */
struct dmc_bus_type *dmc_bus_find(const char *name)
{
	struct dmc_bus_type *bus = NULL;
	struct dmc_kobject *kobj;

	kobj = dmc_kset_find_obj(dmc_bus_kset, name);
	if (kobj) {
		bus = READ_ONCE(to_subsys_private(kobj)->bus);
		dmc_kobject_put(kobj);
	}
	return bus;
}
EXPORT_SYMBOL_GPL(dmc_bus_find);

/* ---- classes ---------------------------------------------------------------- */

static void dmc_class_release(struct dmc_kobject *kobj)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);

	lockdep_unregister_key(&priv->lock_key);
	dmc_subsys_release(kobj);
}

/* A class's links: one per member device, named after it. */
static int dmc_class_walk_links(struct dmc_kobject *kobj, const char *name,
				void *data,
				int (*fn)(struct dmc_kobject *kobj, const char *name,
					  struct dmc_kobject *target, void *data))
{
	return dmc_device_list_walk_links(kobj, &to_subsys_private(kobj)->klist_devices,
					  offsetof(struct dmc_device_private, knode_class),
					  name, data, fn);
}

/*
 * A class attribute's show and store run under an active use of the
 * class, as a bus's: dmc_class_unregister() clears priv->class and waits
 * for them.
 */
static struct dmc_class *dmc_class_active_get(struct dmc_subsys_private *priv)
{
	struct dmc_class *cls;

	atomic_inc(&priv->active);
	smp_mb__after_atomic();	/* pairs with dmc_class_unregister() */
	cls = READ_ONCE(priv->class);
	if (!cls && atomic_dec_and_test(&priv->active))
		wake_up_var(&priv->active);
	return cls;
}

static ssize_t dmc_class_attr_show(struct dmc_kobject *kobj,
				   struct dmc_attribute *attr, char *buf)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);
	struct dmc_class_attribute *ca = container_of(attr, struct dmc_class_attribute,
						      attr);
	struct dmc_class *cls = dmc_class_active_get(priv);
	ssize_t ret;

	if (!cls)
		return -ENODEV;
	ret = ca->show ? ca->show(cls, ca, buf) : -EIO;
	dmc_bus_active_put(priv);
	return ret;
}

static ssize_t dmc_class_attr_store(struct dmc_kobject *kobj,
				    struct dmc_attribute *attr, const char *buf,
				    size_t count)
{
	struct dmc_subsys_private *priv = to_subsys_private(kobj);
	struct dmc_class_attribute *ca = container_of(attr, struct dmc_class_attribute,
						      attr);
	struct dmc_class *cls = dmc_class_active_get(priv);
	ssize_t ret;

	if (!cls)
		return -ENODEV;
	ret = ca->store ? ca->store(cls, ca, buf, count) : -EIO;
	dmc_bus_active_put(priv);
	return ret;
}

static const struct dmc_sysfs_ops dmc_class_sysfs_ops = {
	.show = dmc_class_attr_show,
	.store = dmc_class_attr_store,
};

/* A class's groups: its class_groups, while it is registered. */
static int dmc_class_walk_groups(struct dmc_kobject *kobj, void *data,
				 int (*fn)(struct dmc_kobject *kobj,
					   const struct dmc_attribute_group *grp,
					   void *data))
{
	struct dmc_class *cls = READ_ONCE(to_subsys_private(kobj)->class);

	return cls ? dmc_walk_group_list(kobj, cls->class_groups, data, fn) : 0;
}

static const struct dmc_kobj_type dmc_class_ktype = {
	.name = "class",
	.indexed_elsewhere = true,
	.release = dmc_class_release,
	.sysfs_ops = &dmc_class_sysfs_ops,
	.walk_groups = dmc_class_walk_groups,
	.walk_links = dmc_class_walk_links,
};

static bool dmc_class_dev_get(struct dmc_klist_node *n)
{
	return dmc_kobject_get_unless_zero(&container_of(n, struct dmc_device_private,
							 knode_class)->device->kobj);
}

static void dmc_class_dev_put(struct dmc_klist_node *n)
{
	dmc_device_put(container_of(n, struct dmc_device_private,
				    knode_class)->device);
}

static const char *dmc_class_dev_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_device_private, knode_class)->device->kobj.name;
}

/**
 * dmc_class_register() - register a class
 * @cls: the class, with a name
 *
 * Makes class/<name>/ and sends "add" for it.
 *
 * Context: may sleep.
 * Return: 0; -EINVAL for NULL or a nameless class; -EBUSY if @cls is
 * registered already; -EEXIST if another class has the name; -ENOMEM.
 */
int dmc_class_register(struct dmc_class *cls)
{
	struct dmc_subsys_private *priv;
	int err;

	if (!cls || !cls->name) {
		pr_err_ratelimited("dmcore: class_register: %s\n",
				   cls ? "class without a name" : "NULL class");
		return -EINVAL;
	}
	if (cls->p) {
		pr_err_ratelimited("dmcore: class '%s' registered twice\n", cls->name);
		return -EBUSY;
	}
	priv = dmc_subsys_alloc(cls->name);
	if (!priv)
		return -ENOMEM;
	/*
	 * A lockdep class per class, as Linux's class_register() has one per
	 * call site: an interface's add_dev may add a member to another
	 * class, nesting that class's mutex in this one's.
	 */
	lockdep_register_key(&priv->lock_key);
	lockdep_set_class(&priv->mutex, &priv->lock_key);
	/* A class's members are listed through their knode_class. */
	priv->klist_devices.get = dmc_class_dev_get;
	priv->klist_devices.put = dmc_class_dev_put;
	priv->klist_devices.name = dmc_class_dev_name;
	priv->class = cls;
	priv->subsys.kobj.kset = dmc_class_kset;
	priv->subsys.kobj.ktype = &dmc_class_ktype;
	err = dmc_kobject_init(&priv->subsys.kobj, &dmc_class_ktype);
	if (err) {
		lockdep_unregister_key(&priv->lock_key);
		dmc_subsys_free(priv);
		return err;
	}
	err = dmc_kset_register(&priv->subsys);
	if (err) {
		dmc_kset_put(&priv->subsys);
		return err;
	}
	dmc_model_change_begin();
	WRITE_ONCE(cls->p, priv);
	dmc_model_change_end();
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_class_register);

/**
 * dmc_class_unregister() - unregister a class and delete its members
 * @cls: a registered class
 *
 * Member devices still in the class are deleted (their owners' later
 * dmc_device_unregister() only drops the reference). Interfaces must be
 * unregistered first.
 *
 * Context: may sleep.
 */
void dmc_class_unregister(struct dmc_class *cls)
{
	struct dmc_subsys_private *priv;
	struct dmc_kobject *glue;

	if (!cls || !cls->p) {
		pr_err_ratelimited("dmcore: unregister of a class that is not registered\n");
		return;
	}
	priv = cls->p;
	WARN_ON(!list_empty(&priv->interfaces));
	dmc_class_walk_devices(cls, NULL, dmc_subsys_del_member);

	dmc_model_change_begin();
	WRITE_ONCE(cls->p, NULL);
	WRITE_ONCE(priv->class, NULL);
	dmc_model_change_end();
	/* The shows and stores of class_groups under way end first. */
	smp_mb();
	wait_var_event(&priv->active, !atomic_read(&priv->active));
	mutex_lock(&priv->mutex);
	glue = priv->glue_dir;
	priv->glue_dir = NULL;
	mutex_unlock(&priv->mutex);
	if (glue) {
		dmc_kobject_del(glue);
		dmc_kobject_put(glue);
	}
	dmc_kset_unregister(&priv->subsys);
}
EXPORT_SYMBOL_GPL(dmc_class_unregister);

/* ---- the root: bus/ ---------------------------------------------------------- */

struct dmc_kset *dmc_bus_kset;

/* At load: bus/, the kset of every bus. Linux's buses_init(). */
int dmc_buses_init(void)
{
	dmc_bus_kset = dmc_kset_create_and_add("bus", &dmc_bus_uevent_ops, NULL);
	return dmc_bus_kset ? 0 : -ENOMEM;
}

void dmc_buses_exit(void)
{
	dmc_kset_unregister(dmc_bus_kset);
}

/* ---- the root: class/ -------------------------------------------------------- */

struct dmc_kset *dmc_class_kset;

/* At load: class/, the kset of every class. Linux's classes_init(). */
int dmc_classes_init(void)
{
	dmc_class_kset = dmc_kset_create_and_add("class", NULL, NULL);
	return dmc_class_kset ? 0 : -ENOMEM;
}

void dmc_classes_exit(void)
{
	dmc_kset_unregister(dmc_class_kset);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What is in a class: views of devices by function, whatever bus they
 * sit on, and the interfaces told of their members. The counterpart of
 * the membership half of Linux's class code in drivers/base/.
 *
 * A class's members are kept in an indexed klist, so "is there an input
 * device called mouse0?" costs O(1) expected time. A member with neither
 * parent nor bus lives under devices/virtual/<class>/, a directory made
 * for the first such member.
 *
 * Registering and unregistering a class (class/<name>/; unregistering
 * deletes the member devices still in it) is in subsys.c.
 */

#include <linux/export.h>
#include <linux/mutex.h>

#include "base.h"

/**
 * dmc_class_is_registered() - is the class registered?
 * @cls: the class
 *
 * Return: true between dmc_class_register() and dmc_class_unregister().
 */
bool dmc_class_is_registered(const struct dmc_class *cls)
{
	return cls && READ_ONCE(cls->p);
}
EXPORT_SYMBOL_GPL(dmc_class_is_registered);

/*
 * devices/virtual/<class>, made on first use; returned with a reference
 * for the caller, or NULL. The caller is a device add: it ends with
 * dmc_class_glue_dir_put(), which knows whether the add failed.
 */
struct dmc_kobject *dmc_class_glue_dir(struct dmc_class *cls)
{
	struct dmc_subsys_private *priv = READ_ONCE(cls->p);
	struct dmc_kobject *glue;

	if (!priv)
		return NULL;
	mutex_lock(&priv->mutex);
	if (!priv->glue_dir)
		priv->glue_dir = dmc_kobject_create_and_add(cls->name,
							    dmc_virtual_dir);
	glue = dmc_kobject_get(priv->glue_dir);
	if (glue)
		priv->glue_users++;
	mutex_unlock(&priv->mutex);
	return glue;
}

/*
 * End a device add's use of @glue. When the add failed, a glue directory
 * that no other add is using and that has no child is removed again, so
 * a failed first add leaves the tree as it was (Linux's device_add()
 * cleans up its glue directory the same way). A successful add leaves a
 * child in it, and then it stays until the class is unregistered.
 */
void dmc_class_glue_dir_put(struct dmc_class *cls, struct dmc_kobject *glue,
			    bool failed)
{
	struct dmc_subsys_private *priv = READ_ONCE(cls->p);
	struct dmc_kobject *gone = NULL;
	bool empty;

	if (!glue)
		return;
	if (priv) {
		mutex_lock(&priv->mutex);
		priv->glue_users--;
		if (failed && !priv->glue_users && priv->glue_dir == glue) {
			mutex_lock(&dmc_tree_mutex);
			empty = list_empty(&glue->children);
			mutex_unlock(&dmc_tree_mutex);
			if (empty) {
				gone = glue;
				priv->glue_dir = NULL;
			}
		}
		mutex_unlock(&priv->mutex);
	}
	if (gone) {
		dmc_kobject_del(gone);
		dmc_kobject_put(gone);	/* the class's reference */
	}
	dmc_kobject_put(glue);
}

/* Join @dev to its class and tell the class's interfaces. */
int dmc_class_add_device(struct dmc_device *dev)
{
	struct dmc_class_interface *intf;
	struct dmc_subsys_private *priv;
	int err;

	if (!dev->class)
		return 0;
	priv = READ_ONCE(dev->class->p);
	if (!priv)
		return -EINVAL;
	err = dmc_klist_add(&priv->klist_devices, &dev->p->knode_class, true);
	if (err) {
		if (err == -EEXIST)
			pr_err_ratelimited("dmcore: class '%s' has a device '%s' already\n",
					   dev->class->name, dev->kobj.name);
		return err;
	}
	dmc_kobject_get(&priv->subsys.kobj);
	mutex_lock(&priv->mutex);
	list_for_each_entry(intf, &priv->interfaces, node)
		if (intf->add_dev)
			intf->add_dev(dev, intf);
	mutex_unlock(&priv->mutex);
	return 0;
}

/* Take @dev out of its class, telling the interfaces first. */
void dmc_class_remove_device(struct dmc_device *dev)
{
	struct dmc_class_interface *intf;
	struct dmc_subsys_private *priv;

	if (!dev->class || !dmc_klist_node_attached(&dev->p->knode_class))
		return;
	priv = dev->class->p;
	if (!priv)
		return;
	mutex_lock(&priv->mutex);
	list_for_each_entry(intf, &priv->interfaces, node)
		if (intf->remove_dev)
			intf->remove_dev(dev, intf);
	mutex_unlock(&priv->mutex);
	if (dmc_klist_del(&priv->klist_devices, &dev->p->knode_class))
		dmc_kobject_put(&priv->subsys.kobj);
}

/**
 * dmc_class_interface_register() - be told of a class's members
 * @intf: the interface, with its class set
 *
 * @intf->add_dev is called at once for every current member, then for
 * each device that joins; @intf->remove_dev for each that leaves. Both
 * run under the class's mutex, as in Linux: they may add or remove
 * members of other classes, devices and links, but not members of the
 * same class, and must not suspend or resume devices (see base.h).
 *
 * Context: may sleep; not from an add_dev or remove_dev of the same class.
 * Return: 0, or -EINVAL for NULL or an unregistered class.
 */
int dmc_class_interface_register(struct dmc_class_interface *intf)
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	if (!intf || !dmc_class_is_registered(intf->class)) {
		pr_err_ratelimited("dmcore: class interface without a registered class\n");
		return -EINVAL;
	}
	priv = intf->class->p;
	mutex_lock(&priv->mutex);
	list_add_tail(&intf->node, &priv->interfaces);
	if (intf->add_dev) {
		dmc_klist_iter_start(&priv->klist_devices, &it);
		while ((n = dmc_klist_iter_next(&it)))
			intf->add_dev(container_of(n, struct dmc_device_private,
						   knode_class)->device, intf);
		dmc_klist_iter_exit(&it);
	}
	mutex_unlock(&priv->mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_class_interface_register);

/**
 * dmc_class_interface_unregister() - stop being told
 * @intf: a registered interface
 *
 * @intf->remove_dev is called for every current member.
 *
 * Context: may sleep.
 */
void dmc_class_interface_unregister(struct dmc_class_interface *intf)
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	if (!intf || !dmc_class_is_registered(intf->class))
		return;
	priv = intf->class->p;
	mutex_lock(&priv->mutex);
	list_del_init(&intf->node);
	if (intf->remove_dev) {
		dmc_klist_iter_start(&priv->klist_devices, &it);
		while ((n = dmc_klist_iter_next(&it)))
			intf->remove_dev(container_of(n, struct dmc_device_private,
						      knode_class)->device, intf);
		dmc_klist_iter_exit(&it);
	}
	mutex_unlock(&priv->mutex);
}
EXPORT_SYMBOL_GPL(dmc_class_interface_unregister);

/**
 * dmc_class_walk_devices() - call @fn for each member of a class
 * @cls: the class
 * @data: passed to @fn
 * @fn: called with a referenced device; a nonzero return stops the walk
 *
 * Context: may sleep.
 * Return: the first nonzero value of @fn, 0, or -EINVAL.
 */
int dmc_class_walk_devices(struct dmc_class *cls,
			   void *data, int (*fn)(struct dmc_device *dev, void *data))
{
	struct dmc_subsys_private *priv;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	int ret = 0;

	if (!cls || !fn)
		return -EINVAL;
	priv = READ_ONCE(cls->p);
	if (!priv)
		return -EINVAL;
	dmc_klist_iter_start(&priv->klist_devices, &it);
	while (!ret && (n = dmc_klist_iter_next(&it)))
		ret = fn(container_of(n, struct dmc_device_private,
				      knode_class)->device, data);
	dmc_klist_iter_exit(&it);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_class_walk_devices);

struct dmc_class_find {
	const void *data;
	int (*match)(struct dmc_device *dev, const void *data);
	struct dmc_device *found;
};

static int dmc_class_find_one(struct dmc_device *dev, void *data)
{
	struct dmc_class_find *f = data;

	if (!f->match(dev, f->data))
		return 0;
	f->found = dmc_device_get(dev);
	return 1;
}

/**
 * dmc_class_find_device() - find a member of a class
 * @cls: the class
 * @data: passed to @match
 * @match: returns nonzero for the wanted device
 *
 * Context: may sleep.
 * Return: the first member @match accepts, with a reference (drop it with
 * dmc_device_put()), or NULL.
 */
struct dmc_device *dmc_class_find_device(struct dmc_class *cls, const void *data,
					 int (*match)(struct dmc_device *dev,
						      const void *data))
{
	struct dmc_class_find f = { .data = data, .match = match };

	if (!match)
		return NULL;
	dmc_class_walk_devices(cls, &f, dmc_class_find_one);
	return f.found;
}
EXPORT_SYMBOL_GPL(dmc_class_find_device);

/**
 * dmc_class_find_device_by_name() - find a member of a class by name
 * @cls: the class
 * @name: the device's name
 *
 * O(1) expected time.
 *
 * Return: the device with a reference, or NULL.
 */
struct dmc_device *dmc_class_find_device_by_name(struct dmc_class *cls,
						 const char *name)
{
	struct dmc_subsys_private *priv = cls ? READ_ONCE(cls->p) : NULL;
	struct dmc_klist_node *n;

	if (!priv || !name)
		return NULL;
	n = dmc_klist_find(&priv->klist_devices, name);
	return n ? container_of(n, struct dmc_device_private, knode_class)->device
		 : NULL;
}
EXPORT_SYMBOL_GPL(dmc_class_find_device_by_name);

/**
 * dmc_class_device_count() - number of members of a class
 * @cls: the class
 *
 * Return: the count, 0 for an unregistered class.
 */
unsigned int dmc_class_device_count(struct dmc_class *cls)
{
	struct dmc_subsys_private *priv = cls ? READ_ONCE(cls->p) : NULL;

	return priv ? dmc_klist_count(&priv->klist_devices) : 0;
}
EXPORT_SYMBOL_GPL(dmc_class_device_count);

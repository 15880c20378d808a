// SPDX-License-Identifier: GPL-2.0
/*
 * A device entering and leaving the model: dmc_device_initialize(),
 * dmc_device_add() and dmc_device_del(), with _register() and
 * _unregister(). The counterpart of device_initialize(), device_add()
 * and device_del() in drivers/base/core.c.
 *
 * dmc_device_add() checks the device and its names, then puts it in the
 * tree, on its bus, in its class, among its parent's children and in the
 * power order, tells the bus notifiers, sends "add" and offers it to the
 * drivers; dmc_device_del() undoes this, children first, in a loop (a
 * user can make the tree as deep as they like). The device's lifetime
 * (references, release) is device.c's.
 */

#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "base.h"

/**
 * dmc_device_initialize() - prepare a device for dmc_device_add()
 * @dev: the device, zeroed apart from fields the caller set
 *
 * The device then holds one reference, owned by the caller: from here on
 * it is freed only by its release function, after the last
 * dmc_device_put(). Set its bus, class, parent, type, groups, release and
 * name after this and before dmc_device_add().
 */
void dmc_device_initialize(struct dmc_device *dev)
{
	if (!dev)
		return;
	dev->kobj.kset = dmc_devices_kset;
	if (dmc_kobject_init(&dev->kobj, &dmc_device_ktype))
		return;
	dmc_kobj_set_flag(&dev->kobj, DMC_KOBJ_IS_DEVICE);
	mutex_init(&dev->mutex);
	/*
	 * Like Linux, device locks nest (a supplier's unbind takes its
	 * consumers' locks) in orders lockdep cannot follow by class.
	 */
	lockdep_set_novalidate_class(&dev->mutex);
}
EXPORT_SYMBOL_GPL(dmc_device_initialize);

static bool dmc_device_has_release(const struct dmc_device *dev)
{
	return dev->release || (dev->type && dev->type->release) ||
	       (dev->class && dev->class->dev_release);
}

/*
 * Is @dev's name taken on its bus or in its class? The klists check again
 * when the device joins them, so a racing add still fails cleanly; this
 * early check only spares the common case any visible trace, so it is
 * skipped when no listener watches the tree (nothing else could see the
 * device come and go: its "add" is sent after it joined both).
 */
static int dmc_device_check_names(struct dmc_device *dev)
{
	struct dmc_device *other = NULL;
	const char *where = NULL;

	if (!dmc_listeners_watch_tree())
		return 0;
	if (dev->bus) {
		other = dmc_bus_find_device_by_name(dev->bus, dev->kobj.name);
		where = dev->bus->name;
	}
	if (!other && dev->class) {
		other = dmc_class_find_device_by_name(dev->class, dev->kobj.name);
		where = dev->class->name;
	}
	if (!other)
		return 0;
	pr_err_ratelimited("dmcore: device '%s' exists already in '%s'\n",
			   dev->kobj.name, where);
	dmc_device_put(other);
	return -EEXIST;
}

/*
 * The steps of dmc_device_add(), in order, and of dmc_device_del_one(),
 * their undoing.
 */

/*
 * Refuse a second add of @dev, give it its private part and its name
 * from ->init_name.
 */
static int dmc_device_add_prepare(struct dmc_device *dev)
{
	int err;

	if (dev->p && (dev->p->registered || dev->p->dead)) {
		pr_err_ratelimited("dmcore: device '%s' added twice\n",
				   dmc_dev_name(dev));
		return -EINVAL;
	}
	if (!dev->p) {
		err = dmc_device_private_init(dev);
		if (err)
			return err;
		dmc_pm_runtime_init(dev);
	}
	if (dev->init_name) {
		err = dmc_kobject_set_name(&dev->kobj, "%s", dev->init_name);
		if (err)
			return err;
		dev->init_name = NULL;
	}
	return 0;
}

/*
 * Refuse @dev before anything is visible: no name, no release function,
 * a bus or class not registered, or a name taken on them.
 */
static int dmc_device_add_check(struct dmc_device *dev)
{
	if (!dev->kobj.name) {
		pr_err_ratelimited("dmcore: device %p added without a name\n", dev);
		return -EINVAL;
	}
	if (DMC_MISUSE(!dmc_device_has_release(dev),
		       "device '%s' has no release function, refused\n",
		       dev->kobj.name))
		return -EINVAL;
	if (dev->bus && !dmc_bus_is_registered(dev->bus)) {
		pr_err_ratelimited("dmcore: device '%s': bus '%s' is not registered\n",
				   dev->kobj.name, dev->bus->name);
		return -EINVAL;
	}
	if (dev->class && !dmc_class_is_registered(dev->class)) {
		pr_err_ratelimited("dmcore: device '%s': class '%s' is not registered\n",
				   dev->kobj.name, dev->class->name);
		return -EINVAL;
	}
	/* Catch the common clashes before anything is visible. */
	return dmc_device_check_names(dev);
}

/*
 * The directory @dev goes in: its parent's, which must be registered;
 * for a parentless class device not on a bus devices/virtual/<class>, a
 * glue directory held until dmc_device_put_dir(); else NULL (devices/).
 */
static struct dmc_kobject *dmc_device_get_dir(struct dmc_device *dev)
{
	struct dmc_device *parent = dev->parent;
	struct dmc_kobject *glue;

	if (parent) {
		if (!dmc_device_is_registered(parent)) {
			pr_err_ratelimited("dmcore: device '%s': parent '%s' is not registered\n",
					   dev->kobj.name, dmc_dev_name(parent));
			return ERR_PTR(-ENOENT);
		}
		return &parent->kobj;
	}
	if (dev->class && !dev->bus) {
		glue = dmc_class_glue_dir(dev->class);
		return glue ?: ERR_PTR(-ENOMEM);
	}
	return NULL;
}

/* Let go of @dir from dmc_device_get_dir() if it is a glue directory. */
static void dmc_device_put_dir(struct dmc_device *dev, struct dmc_kobject *dir,
			       bool failed)
{
	if (dir && !dev->parent)
		dmc_class_glue_dir_put(dev->class, dir, failed);
}

static void dmc_device_mark_registered(struct dmc_device *dev)
{
	dmc_device_lock(dev);
	dmc_model_change_begin();
	/* Pairs with the acquire in dmc_device_put(). */
	smp_store_release(&dev->p->registered, true);
	dmc_model_change_end();
	dmc_device_unlock(dev);
}

/* Mark @dev deleted, and wake whoever waits for that. */
static void dmc_device_mark_unregistered(struct dmc_device *dev)
{
	struct dmc_device_private *p = dev->p;

	dmc_device_lock(dev);
	/* No section: the snapshot left it out when ->dead was set. */
	WRITE_ONCE(p->registered, false);
	WRITE_ONCE(p->del_task, NULL);
	dmc_device_unlock(dev);
	/* Waiters test ->registered (or the parent link) after queueing. */
	smp_mb();
	wake_up_var(&p->registered);
}

/*
 * Did @dev's parent begin its deletion while @dev joined it? It may have
 * walked its children before this one joined: then nobody else will
 * delete @dev.
 */
static bool dmc_device_parent_went_away(struct dmc_device *dev)
{
	struct dmc_device *parent = dev->parent;

	/* Pairs with the barrier in dmc_device_del_claim(). */
	smp_mb();
	if (!parent || !READ_ONCE(parent->p->dead))
		return false;
	pr_err_ratelimited("dmcore: device '%s': parent '%s' went away\n",
			   dev->kobj.name, dmc_dev_name(parent));
	return true;
}

/* Tell the bus notifiers, send "add" and offer @dev to its bus's drivers. */
static void dmc_device_add_announce(struct dmc_device *dev, u64 *t)
{
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_ADD_DEVICE);
	dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_ADD);
	dmc_phase_lap(DMC_PHASE_ADD_EVENT, t);
	dmc_bus_probe_device(dev);
	dmc_phase_lap(DMC_PHASE_ADD_PROBE, t);
}

/*
 * Tell the bus notifiers, unbind @dev's driver (its consumers' first),
 * then remove its device links and any deferred probe of it.
 */
static void dmc_device_del_unbind(struct dmc_device *dev)
{
	dmc_bus_notify(dev, DMC_BUS_NOTIFY_DEL_DEVICE);
	dmc_device_release_driver(dev);
	/*
	 * Resources of a device never bound (a bus's, or one holding a
	 * reference on the device itself, which its last put would then
	 * never come to release): released with the deletion, as Linux's.
	 */
	__dmc_devres_release_all(dev);
	dmc_device_links_purge(dev);
	dmc_deferred_probe_del(dev);
}

/**
 * dmc_device_add() - add an initialized device to the model
 * @dev: the device, after dmc_device_initialize() and with a name (set
 *	through @dev->init_name or dmc_device_set_name())
 *
 * Puts the device in the tree (under its parent; a parentless class
 * device under devices/virtual/<class>), on its bus and in its class,
 * adds it to the power order, tells the bus notifiers, sends "add" and
 * offers the device to the bus's drivers. Takes a reference on the
 * parent, dropped when @dev is released.
 *
 * Whatever the result, the caller keeps its reference. After a failure
 * call dmc_device_put() and nothing else; after success, end with
 * dmc_device_del() and dmc_device_put() (or dmc_device_unregister()).
 * On success the device also holds a reference on itself, the
 * registration's, as Linux's klists hold one for their members: only
 * dmc_device_del() drops it, so a device is never freed while it is on a
 * list of the model; a dmc_device_put() without dmc_device_del() is a
 * counted misuse (see dmc_device_put()).
 *
 * Context: may sleep; runs the bus's match and the drivers' probe.
 * Return: 0; -EINVAL (no name, no release function, unregistered bus or
 * class, added before); -ENOENT (parent not registered); -EEXIST (the
 * name is taken on the bus, in the class or under the parent); -ENOMEM.
 */
int dmc_device_add(struct dmc_device *dev)
{
	struct dmc_kobject *dir;
	u64 t = dmc_phase_start();
	int err;

	if (!dev)
		return -EINVAL;
	if (DMC_MISUSE(!dmc_kobj_test_flag(&dev->kobj, DMC_KOBJ_INITIALIZED),
		       "add of uninitialized device %p\n", dev))
		return -EINVAL;
	dev = dmc_device_get(dev);
	err = dmc_device_add_prepare(dev);
	if (err)
		goto out_put;
	err = dmc_device_add_check(dev);
	if (err)
		goto out_put;
	dmc_phase_lap(DMC_PHASE_ADD_NAME, &t);
	dir = dmc_device_get_dir(dev);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
		goto out_put;
	}
	err = dmc_kobject_add(&dev->kobj, dir, NULL);	/* named by _prepare() */
	if (err)
		goto err_dir;
	dmc_phase_lap(DMC_PHASE_ADD_TREE, &t);
	err = dmc_bus_add_device(dev);
	if (err)
		goto err_kobj;
	dmc_phase_lap(DMC_PHASE_ADD_BUS, &t);
	err = dmc_class_add_device(dev);
	if (err)
		goto err_bus;
	dmc_phase_lap(DMC_PHASE_ADD_CLASS, &t);
	err = dmc_device_join_parent(dev);
	if (err)
		goto err_class;
	dmc_dpm_add(dev);
	dmc_device_add_links(dev);
	/* The registration's own reference, dropped by dmc_device_del(). */
	dmc_device_get(dev);
	dmc_device_mark_registered(dev);

	if (dmc_device_parent_went_away(dev)) {
		dmc_device_del(dev);
		dmc_device_put(dev);
		return -ENOENT;
	}
	dmc_phase_lap(DMC_PHASE_ADD_ORDER, &t);
	dmc_device_add_announce(dev, &t);
	dmc_device_put_dir(dev, dir, false);
	dmc_device_put(dev);
	return 0;

err_class:
	dmc_class_remove_device(dev);
err_bus:
	dmc_bus_remove_device(dev);
err_kobj:
	dmc_kobject_del(&dev->kobj);
err_dir:
	dmc_device_put_dir(dev, dir, true);
out_put:
	dmc_device_put(dev);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_device_add);

/**
 * dmc_device_register() - dmc_device_initialize() and dmc_device_add()
 * @dev: the device
 *
 * Return: as dmc_device_add(); after a failure call dmc_device_put().
 */
int dmc_device_register(struct dmc_device *dev)
{
	dmc_device_initialize(dev);
	return dmc_device_add(dev);
}
EXPORT_SYMBOL_GPL(dmc_device_register);

/* What dmc_device_del_claim() found. */
enum dmc_del_claim {
	DMC_DEL_CLAIMED,	/* the caller deletes it now */
	DMC_DEL_NOTHING,	/* deleted already, or never added */
	DMC_DEL_BUSY,		/* another task deletes it */
	DMC_DEL_MINE,		/* this task began deleting it, further out */
	DMC_DEL_ADDING,		/* its dmc_device_add() has not finished */
	DMC_DEL_MOVED,		/* no longer the child of the parent named */
};

/*
 * Claim @dev's deletion for the current task. When claimed, @dev is dead
 * (no more probing, no new child, no move), and the deleter holds a
 * reference that dmc_device_del_one() drops. With @parent, only while
 * @dev is still its child: dmc_device_move() changes dev->parent under
 * the device lock, so a parent's deletion that found @dev among its
 * children before a move took it away leaves it alone.
 */
static enum dmc_del_claim dmc_device_del_claim(struct dmc_device *dev,
					       struct dmc_device *parent)
{
	struct dmc_device_private *p = dev->p;
	enum dmc_del_claim ret;

	dmc_device_lock(dev);
	if (parent && dev->parent != parent)
		ret = DMC_DEL_MOVED;
	else if (!p->registered)
		ret = p->dead ? DMC_DEL_NOTHING : DMC_DEL_ADDING;
	else if (p->dead)
		ret = p->del_task == current ? DMC_DEL_MINE : DMC_DEL_BUSY;
	else
		ret = DMC_DEL_CLAIMED;
	if (ret == DMC_DEL_CLAIMED) {
		/* Gone from the snapshot from here: before its "remove" event. */
		dmc_model_change_begin();
		WRITE_ONCE(p->dead, true);
		dmc_model_change_end();
		WRITE_ONCE(p->del_task, current);
	}
	dmc_device_unlock(dev);
	if (ret == DMC_DEL_CLAIMED) {
		/* A child added meanwhile sees ->dead; see dmc_device_add(). */
		smp_mb();
		dmc_device_get(dev);
	}
	return ret;
}

/*
 * The first child of @parent that this task is not deleting further out
 * (a callback of that deletion deleting an ancestor), referenced; NULL if
 * there is none.
 */
static struct dmc_device *dmc_device_first_child(struct dmc_device *parent)
{
	struct dmc_klist *children = dmc_device_children(parent->p);
	struct dmc_device *child = NULL;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	if (!children)
		return NULL;
	dmc_klist_iter_start(children, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		struct dmc_device_private *cp = container_of(n, struct dmc_device_private,
							     knode_parent);

		if (READ_ONCE(cp->del_task) != current) {
			child = dmc_device_get(cp->device);
			break;
		}
	}
	dmc_klist_iter_exit(&it);
	return child;
}

/*
 * Delete @dev itself, claimed by this task, once it has no children left:
 * unbind it, take it off every list and out of the tree, then mark it
 * deleted, wake whoever waits for that, and drop the registration's and
 * the deleter's references.
 */
static void dmc_device_del_one(struct dmc_device *dev)
{
	u64 t = dmc_phase_start();

	dmc_device_del_unbind(dev);
	dmc_device_remove_links(dev);
	dmc_phase_lap(DMC_PHASE_DEL_UNBIND, &t);
	dmc_class_remove_device(dev);
	/*
	 * Unbound before it leaves its bus, as in Linux: done above already,
	 * and a dead device binds no more (the probe checks under the device
	 * lock, which the unbind above took).
	 */
	if (dev->bus && WARN_ON_ONCE(READ_ONCE(dev->driver)))
		dmc_device_release_driver(dev);
	dmc_bus_remove_device(dev);
	dmc_phase_lap(DMC_PHASE_DEL_LISTS, &t);
	dmc_pm_runtime_remove(dev);
	dmc_dpm_remove(dev);
	dmc_device_leave_parent(dev);
	dmc_phase_lap(DMC_PHASE_DEL_ORDER, &t);
	/* Gone already if its parent's kobject was deleted under it. */
	if (dmc_kobject_in_tree(&dev->kobj))
		dmc_kobject_del(&dev->kobj);
	dmc_phase_lap(DMC_PHASE_DEL_TREE, &t);
	dmc_device_mark_unregistered(dev);
	dmc_device_put(dev);	/* the registration's reference */
	dmc_device_put(dev);	/* the deleter's, from dmc_device_del_claim() */
	dmc_phase_lap(DMC_PHASE_DEL_RELEASE, &t);
}

/* Wait until another task's deletion of @dev has finished. */
static void dmc_device_del_wait(struct dmc_device *dev)
{
	struct dmc_device_private *p = dev->p;

	wait_var_event(&p->registered, !READ_ONCE(p->registered));
}

/*
 * Wait until @child, a child of a device this task deletes, has left its
 * parent's children: another task deletes it, or its dmc_device_add()
 * will, having seen the parent dead.
 */
static void dmc_device_del_wait_child(struct dmc_device *child)
{
	struct dmc_device_private *p = child->p;

	wait_var_event(&p->registered, !dmc_klist_node_attached(&p->knode_parent));
}

/*
 * Delete @root, claimed by this task, with everything below it, deepest
 * first. A walk up and down the tree through ->parent, with no stack of
 * its own: a user can nest devices as deep as they like.
 */
static void dmc_device_del_tree(struct dmc_device *root)
{
	struct dmc_device *pos = root, *child, *parent;

	for (;;) {
		child = dmc_device_first_child(pos);
		if (child) {
			switch (dmc_device_del_claim(child, pos)) {
			case DMC_DEL_CLAIMED:
				pos = child;	/* held by the claim's reference */
				break;
			case DMC_DEL_BUSY:
			case DMC_DEL_ADDING:
				dmc_device_del_wait_child(child);
				break;
			case DMC_DEL_MOVED:
				break;	/* moved away: no longer ours */
			case DMC_DEL_NOTHING:
			case DMC_DEL_MINE:
				/* Off the list already, or skipped: cannot be. */
				WARN_ON_ONCE(dmc_klist_node_attached(&child->p->knode_parent));
				break;
			}
			dmc_device_put(child);
			continue;
		}
		/* Claimed devices hold their parents: they stay allocated. */
		parent = pos->parent;
		dmc_device_del_one(pos);
		if (pos == root)
			return;
		pos = parent;
		cond_resched();		/* a subtree may be thousands deep */
	}
}

/**
 * dmc_device_del() - take a device out of the model
 * @dev: a device added with dmc_device_add(); the caller holds a reference
 *
 * Stops any further probing of @dev, deletes its child devices first
 * (each completely, deepest first, however deep the tree), tells the bus
 * notifiers, unbinds its driver (unbinding its consumers before it),
 * removes its device links, takes it off the deferred list, out of its
 * class, its bus and the power order, sends "remove", and drops the
 * reference the device held on itself since dmc_device_add(). The
 * reference on the parent is kept until @dev is released. The caller's
 * reference is untouched: end with dmc_device_put().
 *
 * Idempotent: a device deleted already (for instance with its parent,
 * bus or class) is left alone, so an owner's later dmc_device_unregister()
 * is safe. When another task is deleting @dev, this waits until that
 * deletion has finished, so that on return @dev is out of the model
 * whoever deleted it. Called from a callback of @dev's own deletion (a
 * bus notifier, a class interface, a child's remove), it returns at once.
 * Must not be called while holding a lock that another task's deletion
 * of @dev may need (such as the device lock of a device linked to it).
 *
 * Context: may sleep; runs drivers' remove callbacks.
 */
void dmc_device_del(struct dmc_device *dev)
{
	if (!dev || !dev->p)
		return;
	switch (dmc_device_del_claim(dev, NULL)) {
	case DMC_DEL_CLAIMED:
		dmc_device_del_tree(dev);
		break;
	case DMC_DEL_BUSY:
		dmc_device_del_wait(dev);
		break;
	case DMC_DEL_MOVED:
	case DMC_DEL_NOTHING:
	case DMC_DEL_MINE:
	case DMC_DEL_ADDING:
		break;
	}
}
EXPORT_SYMBOL_GPL(dmc_device_del);

/**
 * dmc_device_unregister() - dmc_device_del() then dmc_device_put()
 * @dev: the device
 */
void dmc_device_unregister(struct dmc_device *dev)
{
	u64 t;

	if (!dev)
		return;
	dmc_device_del(dev);
	t = dmc_phase_start();
	dmc_device_put(dev);
	dmc_phase_lap(DMC_PHASE_DEL_RELEASE, &t);
}
EXPORT_SYMBOL_GPL(dmc_device_unregister);

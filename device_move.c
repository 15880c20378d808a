// SPDX-License-Identifier: GPL-2.0
/*
 * Renaming and moving a device: dmc_device_rename() and dmc_device_move(),
 * the counterparts of device_rename() and device_move() in
 * drivers/base/core.c. Both end with the "move" event and its
 * DEVPATH_OLD, as kobject_rename() and kobject_move() send it; the tree
 * (dmcfs) follows by lookup, its cached entries revalidated by name and
 * parent, and its links derived from the indexes updated here.
 *
 * A device is found by name in more places than the tree: its bus's and
 * its class's device lists (the bus's devices/ and the class's directory
 * are links named after it, found through those indexes), its driver's
 * directory, the named deferrals (a probe waiting for a device of that
 * name). dmc_kobject_rename() and dmc_kobject_move() refuse a device for
 * that reason; this file changes all of them in one step.
 *
 * Locking (the order of base.h, outermost first):
 *
 * Rename holds the device lock throughout: the device's deletion (claimed
 * under it), its bind and unbind (which read its name for the driver's
 * link and the named deferral) and its move wait or come after. Inside
 * it, dmc_tree_mutex, then the locks of the devices/ kset's members, the
 * bus's and the class's device lists (nested in that order, taken only
 * here together, under dmc_tree_mutex), then dmc_name_lock: the clash
 * check and the new name in every index are one step, so a lookup by
 * name in the tree, on the bus or in the class finds the device under its
 * old name or its new one, never neither, and an add of a device with the
 * new name that races either fails or makes the rename fail.
 *
 * Move holds the power-transition mutex throughout, as Linux's
 * device_move() holds device_pm_lock(): moves are serialized, a parent
 * changes only there, and no power state changes meanwhile (a system
 * suspend waits for a move, or a move for it). Then the new parent's
 * device lock, then the device's: the new parent's deletion is claimed
 * before (the move is refused) or after (it then finds the device among
 * its children); likewise the device's own deletion. A deletion of the old
 * parent that found the device among its children before the move claims
 * it only if dev->parent is still that parent (dmc_device_del_claim()).
 * Then a class's mutex (its glue directory), dmc_links_mutex (the cycle
 * check through parents and links reads parents under it, so a link added
 * meanwhile cannot close a cycle with the new parent; the parent and the
 * power order change under it, as the invariant checker reads them),
 * dmc_dpm_mutex and dmc_tree_mutex.
 *
 * Runtime PM: a move holds the device's runtime PM still (disabled) and,
 * if it is active, moves its count from the old parent's active children
 * to the new one's, resumed for it (runtime_ops.c); Linux's leaves the
 * counts with the old parent.
 *
 * Neither may be called with a lock of this list held, nor from a
 * suspend or resume callback, nor (move) holding the device lock of the
 * device or of its new parent, as from their probe.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

/* ---- rename ------------------------------------------------------------- */

/* Is @name a device name? "", "/", "." and ".." are not (-EINVAL). */
static int dmc_device_check_new_name(const struct dmc_device *dev, const char *name)
{
	const char *why = NULL;
	int err;

	if (!*name)
		why = "is empty";
	else if (strchr(name, '/'))
		why = "holds a '/'";
	else if (!strcmp(name, ".") || !strcmp(name, ".."))
		why = "is '.' or '..'";
	if (why) {
		pr_err_ratelimited("dmcore: rename of device '%s': the new name %s\n",
				   dmc_dev_name(dev), why);
		return -EINVAL;
	}
	err = dmc_kobject_check_name(name);
	if (err)
		pr_err_ratelimited("dmcore: rename of device '%s': the new name is longer than %d bytes\n",
				   dmc_dev_name(dev), DMC_NAME_MAX);
	return err;
}

/*
 * Under dmc_tree_mutex, just renamed: the links named after the device
 * (its entry in its bus's devices/, its class and its driver) are
 * withdrawn under the old name and announced under the new one.
 */
static void dmc_device_renamed_links(struct dmc_kobject *kobj, const char *old_name,
				     void *arg)
{
	struct dmc_device *dev = to_dmc_device(kobj);
	struct dmc_subsys_private *bp = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	struct dmc_subsys_private *cp = dev->class ? READ_ONCE(dev->class->p) : NULL;
	struct dmc_kobject *dirs[3];
	unsigned int i, n = 0;

	if (bp && dmc_klist_node_attached(&dev->p->knode_bus))
		dirs[n++] = &bp->devices_kset->kobj;
	if (cp && dmc_klist_node_attached(&dev->p->knode_class))
		dirs[n++] = &cp->subsys.kobj;
	if (dev->driver && dmc_klist_node_attached(&dev->p->knode_driver))
		dirs[n++] = &dev->driver->p->kobj;
	for (i = 0; i < n; i++) {
		dmc_listeners_link_removed(dirs[i], old_name);
		dmc_listeners_link_added(dirs[i], kobj->name, kobj);
	}
}

/*
 * The device lists @dev is on, by name: its bus's and its class's. The
 * device lock is held and @dev is registered, so its bus and class are
 * (their unregistration deletes their devices first).
 */
static unsigned int dmc_device_name_lists(struct dmc_device *dev,
					  struct dmc_klist_member *m)
{
	struct dmc_subsys_private *bp = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	struct dmc_subsys_private *cp = dev->class ? READ_ONCE(dev->class->p) : NULL;
	unsigned int n = 0;

	if (bp)
		m[n++] = (struct dmc_klist_member){ &bp->klist_devices,
						    &dev->p->knode_bus, true };
	if (cp)
		m[n++] = (struct dmc_klist_member){ &cp->klist_devices,
						    &dev->p->knode_class, true };
	return n;
}

/**
 * dmc_device_rename() - give a registered device a new name
 * @dev: the device; the caller holds a reference
 * @new_name: the new name: 1..255 bytes, no '/', not "." or ".."
 *
 * As Linux's device_rename(): the device's directory, its entries in its
 * bus's devices/, its class's directory and its driver's directory take
 * the new name, and a "move" event with DEVPATH_OLD is sent. Unlike
 * Linux, every index that finds the device by name follows in one step
 * (see the top of this file), a clash anywhere is refused before anything
 * changed, and a bound device renamed wakes the probes deferred until a
 * device of its new name binds. Pointers returned by dmc_dev_name()
 * before become invalid, as in Linux.
 *
 * Context: may sleep; takes the device lock (not from the device's own
 * probe or remove), dmc_tree_mutex.
 * Return: 0 (also when the name is the same: then no event), -EINVAL
 * (NULL, a bad name), -ENAMETOOLONG, -ENODEV (@dev not registered, or
 * being deleted), -EEXIST (a device of that name under the same parent,
 * on the bus or in the class, or a name reserved there or in the bound
 * driver's directory), -ENOMEM. Each
 * refusal logs one rate-limited line; on error nothing changed.
 */
int dmc_device_rename(struct dmc_device *dev, const char *new_name)
{
	struct dmc_klist_member m[2];
	const char *old_name;
	char *name, *devpath_old;
	bool bound;
	int err;

	if (!dev || !dev->p || !new_name) {
		pr_err_ratelimited("dmcore: device rename: NULL device or name\n");
		return -EINVAL;
	}
	err = dmc_device_check_new_name(dev, new_name);
	if (err)
		return err;
	name = dmc_name_dup(new_name, strlen(new_name));
	if (!name)
		return -ENOMEM;
	dmc_device_get(dev);
	dmc_device_lock(dev);
	if (!dmc_device_is_registered(dev)) {
		pr_err_ratelimited("dmcore: rename of device '%s' to '%s': not registered, or being deleted\n",
				   dmc_dev_name(dev), name);
		err = -ENODEV;
		goto out_unlock;
	}
	/* The driver's link to @dev, renamed too, would take a file's name. */
	if (dev->driver && dev->driver->p &&
	    dmc_kobject_name_reserved(&dev->driver->p->kobj, name)) {
		pr_err_ratelimited("dmcore: rename of device '%s' to '%s': its driver '%s' has a file of that name\n",
				   dmc_dev_name(dev), name, dev->driver->name);
		err = -EEXIST;
		goto out_unlock;
	}
	devpath_old = dmc_kobject_devpath_old(&dev->kobj);
	if (!devpath_old) {
		err = -ENOMEM;
		goto out_unlock;
	}
	dmc_model_change_begin();
	err = __dmc_kobject_rename_in(&dev->kobj, name, m, dmc_device_name_lists(dev, m),
				      &old_name, dmc_device_renamed_links, NULL);
	dmc_model_change_end();
	if (err) {
		if (err == -EEXIST)	/* the tree logs its own clashes */
			pr_err_ratelimited("dmcore: rename of device '%s' to '%s': refused (-EEXIST)\n",
					   dmc_dev_name(dev), name);
		kfree(devpath_old);
		err = err < 0 ? err : 0;
		goto out_unlock;
	}
	dmc_name_free(old_name);
	dmc_kobject_send_move(&dev->kobj, devpath_old);
	bound = !!dev->driver;
	/* Waiters for a bound device of the new name (deferred.c). */
	if (bound && dmc_deferred_trigger(dev->kobj.name, false))
		dmc_deferred_kick();
	dmc_device_unlock(dev);
	dmc_device_put(dev);
	return 0;

out_unlock:
	dmc_device_unlock(dev);
	dmc_device_put(dev);
	dmc_name_free(name);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_device_rename);

/* ---- move --------------------------------------------------------------- */

static const char * const dmc_dpm_order_names[] = {
	[DMC_DPM_ORDER_NONE] = "none",
	[DMC_DPM_ORDER_DEV_AFTER_PARENT] = "dev-after-parent",
	[DMC_DPM_ORDER_PARENT_BEFORE_DEV] = "parent-before-dev",
	[DMC_DPM_ORDER_DEV_LAST] = "dev-last",
};

/**
 * dmc_dpm_order_name() - the name of a power order for dmc_device_move()
 * @order: the order
 *
 * Return: "none", "dev-after-parent", "parent-before-dev", "dev-last", or
 * NULL for a value out of range.
 */
const char *dmc_dpm_order_name(enum dmc_dpm_order order)
{
	return (unsigned int)order < ARRAY_SIZE(dmc_dpm_order_names) ?
	       dmc_dpm_order_names[order] : NULL;
}
EXPORT_SYMBOL_GPL(dmc_dpm_order_name);

/* Is @dev @np or above it? Parents stay put under the transition mutex. */
static bool dmc_device_is_above(const struct dmc_device *dev, const struct dmc_device *np)
{
	for (; np; np = np->parent)
		if (np == dev)
			return true;
	return false;
}

/* What a move refuses before taking anything: -errno logged, or 0. */
static int dmc_device_move_check(struct dmc_device *dev, struct dmc_device *np)
{
	const char *nn = np ? dmc_dev_name(np) : "(top)";

	if (!dmc_device_is_registered(dev)) {
		pr_err_ratelimited("dmcore: move of device '%s': not registered, or being deleted\n",
				   dmc_dev_name(dev));
		return -ENODEV;
	}
	if (np && !dmc_device_is_registered(np)) {
		pr_err_ratelimited("dmcore: move of device '%s': new parent '%s' is not registered, or being deleted\n",
				   dmc_dev_name(dev), nn);
		return -ENOENT;
	}
	if (dmc_device_is_above(dev, np)) {
		pr_err_ratelimited("dmcore: move of device '%s' under '%s', itself or its descendant: a cycle\n",
				   dmc_dev_name(dev), nn);
		return -EINVAL;
	}
	if (np && dmc_device_power_state(dev) == DMC_POWER_ON &&
	    dmc_device_power_state(np) == DMC_POWER_SUSPENDED) {
		pr_err_ratelimited("dmcore: move of device '%s', which is on, under '%s', which is suspended\n",
				   dmc_dev_name(dev), nn);
		return -EBUSY;
	}
	return 0;
}

/*
 * Under dmc_links_mutex: does @np depend on @dev through links (a
 * cycle), and does the power order need @dev (and what depends on it)
 * at its tail? Return: 0, -EINVAL (logged) or -ENOMEM.
 */
static int dmc_device_move_order(struct dmc_device *dev, struct dmc_device *np,
				 enum dmc_dpm_order order, bool *to_tail)
{
	int dep;

	lockdep_assert_held(&dmc_links_mutex);
	dep = np ? dmc_links_depends_on(np, dev) : 0;
	if (dep < 0)
		return dep;
	if (dep) {
		pr_err_ratelimited("dmcore: move of device '%s' under '%s', which depends on it through links: a cycle\n",
				   dmc_dev_name(dev), dmc_dev_name(np));
		return -EINVAL;
	}
	switch (order) {
	case DMC_DPM_ORDER_DEV_AFTER_PARENT:
	case DMC_DPM_ORDER_DEV_LAST:
		*to_tail = true;
		break;
	case DMC_DPM_ORDER_NONE:
	case DMC_DPM_ORDER_PARENT_BEFORE_DEV:
		mutex_lock(&dmc_dpm_mutex);
		*to_tail = np && !dmc_dpm_comes_before(np, dev);
		mutex_unlock(&dmc_dpm_mutex);
		break;
	}
	return 0;
}

/*
 * The steps of a move under dmc_links_mutex, the checks done: the power
 * order, the tree (which may still refuse: a name taken under the new
 * parent), then dev->parent and the children lists. *@old_kobj: the old
 * directory, whose reference the caller drops.
 */
static int dmc_device_move_locked(struct dmc_device *dev, struct dmc_device *np,
				  struct dmc_kobject *dir, enum dmc_dpm_order order,
				  struct dmc_kobject **old_kobj)
{
	struct dmc_devvec held = {};
	struct dmc_kobject *clash;
	bool to_tail = false;
	int err;

	mutex_lock(&dmc_links_mutex);
	err = dmc_device_move_order(dev, np, order, &to_tail);
	if (err)
		goto out;
	/* The common clash first, so that the order is left as it was. */
	clash = dmc_kobject_find_child(dir, dev->kobj.name);
	if (clash && clash != &dev->kobj) {
		dmc_kobject_put(clash);
		pr_err_ratelimited("dmcore: move of device '%s': the name is taken under '%s'\n",
				   dmc_dev_name(dev), dir->name);
		err = -EEXIST;
		goto out;
	}
	dmc_kobject_put(clash);
	/*
	 * To the tail first: a valid order under the old parent too (a
	 * device depending on @dev is not @np, or the move is a cycle).
	 */
	if (to_tail) {
		err = dmc_links_reorder_to_tail(dev, &held);
		if (err)
			goto out;
	}
	dmc_model_change_begin();
	err = __dmc_kobject_move(&dev->kobj, dir, old_kobj);
	if (err) {
		dmc_model_change_end();
		err = err < 0 ? err : 0;
		*old_kobj = NULL;
		goto out;
	}
	dmc_device_leave_parent(dev);
	dmc_pm_runtime_set_parent(dev, np);	/* and the runtime count */
	/* Cannot fail: the list was made by dmc_device_children_prepare(). */
	WARN_ON_ONCE(dmc_device_join_parent(dev));
	dmc_model_change_end();
out:
	mutex_unlock(&dmc_links_mutex);
	dmc_devvec_put_all(&held);
	return err;
}

/**
 * dmc_device_move() - give a registered device a new parent
 * @dev: the device; the caller holds a reference
 * @new_parent: the new parent, registered, on which the caller holds a
 *	reference; NULL: the top level (devices/, or devices/virtual/CLASS
 *	for a class device without a bus)
 * @dpm_order: where @dev goes in the power order
 *
 * As Linux's device_move(): the device's directory moves under the new
 * parent's, with its children; it leaves the old parent's children and
 * joins the new one's; the reference on the old parent goes to the new
 * one; a "move" event with DEVPATH_OLD is sent. The power order keeps
 * every device after its parent and suppliers whatever @dpm_order:
 * %DMC_DPM_ORDER_DEV_AFTER_PARENT and %DMC_DPM_ORDER_DEV_LAST put @dev,
 * its children and its consumers (transitively) at the tail, after the
 * new parent, as a new device link does; %DMC_DPM_ORDER_NONE and
 * %DMC_DPM_ORDER_PARENT_BEFORE_DEV leave the order as it is when the new
 * parent comes before @dev already, and do the same otherwise. (Linux
 * moves @dev alone, or its parent, which can leave a child before its
 * parent; see the README.)
 *
 * Refused, changing nothing, with one rate-limited log line: a cycle (the
 * new parent is @dev, below it, or depends on it through device links),
 * a device on moved under a suspended parent (the power order's rule),
 * a device or new parent being deleted, a name taken under the new
 * parent. (Only a device of the same name added under the new parent
 * while the move runs makes it fail after the power order changed, to an
 * order as sound as before.)
 *
 * Context: may sleep; takes the power-transition mutex (not from a
 * suspend or resume callback), the new parent's and @dev's device locks
 * (not from their probe or remove).
 * Return: 0 (also when @new_parent is the parent already: then nothing
 * changes and no event is sent), -EINVAL (NULL @dev, an order out of
 * range, a cycle), -ENODEV (@dev not registered or being deleted),
 * -ENOENT (@new_parent not registered or being deleted), -EBUSY (@dev on,
 * @new_parent suspended), -EEXIST (the name is taken under the new
 * parent), -ENOMEM.
 */
int dmc_device_move(struct dmc_device *dev, struct dmc_device *new_parent,
		    enum dmc_dpm_order dpm_order)
{
	struct dmc_kobject *dir, *old_kobj = NULL, *glue = NULL;
	struct dmc_device *old_parent;
	struct dmc_class *cls = NULL;
	char *devpath_old = NULL;
	bool rpm_active;
	int err;

	if (!dev || !dev->p || !dmc_dpm_order_name(dpm_order)) {
		pr_err_ratelimited("dmcore: device move: %s\n",
				   dev && dev->p ? "unknown power order" : "NULL device");
		return -EINVAL;
	}
	if (new_parent == dev) {	/* before its lock is taken twice */
		pr_err_ratelimited("dmcore: move of device '%s' under itself: a cycle\n",
				   dmc_dev_name(dev));
		return -EINVAL;
	}
	dmc_device_get(dev);
	dmc_pm_transition_lock();
	/*
	 * A descendant as the new parent is refused before any device lock:
	 * taking its lock before the device's would nest a child over its
	 * parent, against a shutdown or a probe holding them the other way.
	 * Parents stay put under the transition mutex.
	 */
	if (dmc_device_is_above(dev, new_parent)) {
		dmc_pm_transition_unlock();
		pr_err_ratelimited("dmcore: move of device '%s' under '%s', its descendant: a cycle\n",
				   dmc_dev_name(dev), dmc_dev_name(new_parent));
		dmc_device_put(dev);
		return -EINVAL;
	}
	if (new_parent)
		dmc_device_lock(new_parent);
	dmc_device_lock(dev);
	err = dmc_device_move_check(dev, new_parent);
	if (err || dev->parent == new_parent)
		goto out_unlock;
	err = dmc_device_children_prepare(new_parent);
	if (err)
		goto out_unlock;
	if (new_parent) {
		dir = &new_parent->kobj;
	} else if (dev->class && !dev->bus) {
		cls = dev->class;
		glue = dmc_class_glue_dir(cls);
		dir = glue;
		if (!dir) {
			err = -ENOMEM;
			goto out_unlock;
		}
	} else {
		dir = &dmc_devices_kset->kobj;
	}
	devpath_old = dmc_kobject_devpath_old(&dev->kobj);
	/* Runtime PM: the active-children count moves with the device. */
	old_parent = dmc_device_get(dev->parent);
	rpm_active = dmc_pm_runtime_move_begin(dev, new_parent);
	err = devpath_old ? dmc_device_move_locked(dev, new_parent, dir, dpm_order,
						   &old_kobj) : -ENOMEM;
	dmc_pm_runtime_move_end(dev, old_parent, new_parent, rpm_active, !err);
	dmc_device_put(old_parent);
	if (!err)
		dmc_kobject_send_move(&dev->kobj, devpath_old);
	else
		kfree(devpath_old);
	if (cls)
		dmc_class_glue_dir_put(cls, glue, !!err);
out_unlock:
	dmc_device_unlock(dev);
	if (new_parent)
		dmc_device_unlock(new_parent);
	dmc_pm_transition_unlock();
	dmc_kobject_put(old_kobj);
	dmc_device_put(dev);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_device_move);

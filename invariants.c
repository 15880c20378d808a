// SPDX-License-Identifier: GPL-2.0
/*
 * The model's invariants, checked from the inside: what must hold of the
 * core's private state whatever runs concurrently, and what must hold
 * once nothing runs. Used by the torture module (torture/) during and
 * after its run; it has no counterpart in Linux, whose driver core checks
 * itself only through scattered WARNs.
 *
 * Every check reads state under the lock that base.h names for it, so a
 * violation is a real inconsistency, never a torn read:
 *
 *  - the tree (dmc_tree_mutex): every in-tree object is referenced and
 *    its parent is in the tree too, so a parent outlives its children;
 *  - each device (its device lock): a registered device is in the tree,
 *    on its bus's and its class's lists; a bound device is on exactly its
 *    driver's list, and a device without a driver on none;
 *  - each bus and class (their klist locks): every listed device belongs
 *    there and is alive; every listed driver's devices are bound to it;
 *    a bus's match index (dmc_driver_srcu) is in registration order with
 *    each entry in its key's bucket;
 *  - the power order (dmc_links_mutex, then dmc_dpm_mutex): parents and
 *    suppliers come before their children and consumers; each link of
 *    two live devices shows its devlink device and symlinks (with
 *    dmc_tree_mutex too).
 *
 * The indexes (the tree's (parent, name) index under dmc_tree_mutex, each
 * indexed klist under its lock: the ksets' members, the buses' and
 * classes' lists) hold every member under its current key.
 *
 * With DMC_INV_QUIESCENT the caller promises that nothing changes the
 * model while the check runs; states that are only legal in the middle
 * of an add, a delete or a bind (a listed device not registered, a
 * deleted device still in the tree) then count too.
 */

#include <linux/export.h>
#include <linux/slab.h>

#include <dmcore/invariants.h>
#include "base.h"

/* Violations printed per call; every one is counted. */
#define DMC_INV_PRINT_MAX	20

struct dmc_inv {
	unsigned int flags;
	unsigned int violations;
	unsigned long devices;
	bool tree_spoiled;	/* DMC_INV_SELFTEST, done */
	bool klist_spoiled;
};

static __printf(2, 3) void dmc_inv_fail(struct dmc_inv *inv, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	inv->violations++;
	if (inv->violations > DMC_INV_PRINT_MAX)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("dmcore: INVARIANT: %pV\n", &vaf);
	va_end(args);
}

/* Is @pos one of @k's walk cursors? Caller holds k->lock. */
static bool dmc_inv_is_cursor(struct dmc_klist *k, struct list_head *pos)
{
	struct dmc_klist_iter *it;

	list_for_each_entry(it, &k->iters, node)
		if (&it->cursor == pos)
			return true;
	return false;
}

/* Is @n a member of @k? Takes k->lock. */
static bool dmc_inv_klist_has(struct dmc_klist *k, struct dmc_klist_node *n)
{
	struct list_head *pos;
	bool found = false;

	spin_lock(&k->lock);
	list_for_each(pos, &k->list) {
		if (pos == &n->entry) {
			found = true;
			break;
		}
	}
	spin_unlock(&k->lock);
	return found;
}

/*
 * Call @fn for each member node of @k under k->lock (it must not sleep)
 * and check the member count. Return the number of members.
 */
static unsigned int dmc_inv_klist_each(struct dmc_inv *inv, struct dmc_klist *k,
				       const char *what, void *data,
				       void (*fn)(struct dmc_inv *inv,
						  struct dmc_klist_node *n,
						  void *data))
{
	struct dmc_klist_node *member;
	struct list_head *pos;
	unsigned int n = 0;
	bool spoil;

	spin_lock(&k->lock);
	list_for_each(pos, &k->list) {
		if (dmc_inv_is_cursor(k, pos))
			continue;
		n++;
		member = list_entry(pos, struct dmc_klist_node, entry);
		spoil = (inv->flags & DMC_INV_SELFTEST) && k->indexed && !inv->klist_spoiled;
		if (spoil) {
			member->hnode.hash ^= 1;
			inv->klist_spoiled = true;
		}
		if (!dmc_klist_node_indexed(k, member))
			dmc_inv_fail(inv, "%s: a member is not indexed under its name's hash",
				     what);
		if (spoil)
			member->hnode.hash ^= 1;
		fn(inv, member, data);
	}
	if (n != k->count)
		dmc_inv_fail(inv, "%s: %u members listed, count says %u", what,
			     n, k->count);
	spin_unlock(&k->lock);
	return n;
}

/* ---- the tree ------------------------------------------------------------- */

static void dmc_inv_kset_member(struct dmc_inv *inv, struct dmc_klist_node *n,
				void *data)
{
}

/* Walk the whole tree iteratively (it may be deep) under dmc_tree_mutex. */
static void dmc_inv_tree(struct dmc_inv *inv, struct list_head *roots)
{
	struct dmc_kobject *kobj, *parent;
	struct list_head *head = roots;
	bool spoil;

	mutex_lock(&dmc_tree_mutex);
	kobj = list_first_entry_or_null(head, struct dmc_kobject, sibling);
	while (kobj) {
		spoil = (inv->flags & DMC_INV_SELFTEST) && !inv->tree_spoiled;
		if (spoil) {
			kobj->sib_node.hash ^= 1;
			inv->tree_spoiled = true;
		}
		parent = kobj->parent;
		if (kref_read(&kobj->kref) < 1)
			dmc_inv_fail(inv, "'%s' is in the tree with refcount 0",
				     kobj->name);
		if (!dmc_kobject_in_tree(kobj))
			dmc_inv_fail(inv, "'%s' is linked in the tree, not flagged in it",
				     kobj->name);
		if (parent && (!dmc_kobject_in_tree(parent) ||
			       kref_read(&parent->kref) < 1))
			dmc_inv_fail(inv, "'%s' is in the tree under '%s', which is not",
				     kobj->name, parent->name);
		if (!dmc_sib_indexed(kobj))
			dmc_inv_fail(inv, "'%s' is not in the (parent, name) index under its key",
				     kobj->name);
		if (spoil)
			kobj->sib_node.hash ^= 1;
		/* A kset's members: the one index whose members are renamed. */
		if (dmc_kobj_test_flag(kobj, DMC_KOBJ_IS_KSET))
			dmc_inv_klist_each(inv, &to_dmc_kset(kobj)->members, kobj->name,
					   NULL, dmc_inv_kset_member);
		if (dmc_kobject_is_device(kobj))
			inv->devices++;
		/* Depth first: children, then the next sibling up the chain. */
		if (!list_empty(&kobj->children)) {
			kobj = list_first_entry(&kobj->children, struct dmc_kobject,
						sibling);
			continue;
		}
		for (;;) {
			head = kobj->parent ? &kobj->parent->children : roots;
			if (!list_is_last(&kobj->sibling, head)) {
				kobj = list_next_entry(kobj, sibling);
				break;
			}
			kobj = kobj->parent;
			if (!kobj)
				break;
		}
	}
	mutex_unlock(&dmc_tree_mutex);
}

/*
 * Runtime PM, when nothing moves: a device in use with runtime PM enabled
 * (and no callback error) is active, and an active device's enabled
 * parent that counts its children is active too.
 */
static void dmc_inv_runtime(struct dmc_inv *inv, struct dmc_device *dev,
			    const char *name)
{
	struct dmc_dev_pm_info *pw = &dev->p->power;
	struct dmc_device *parent = dev->parent;
	bool active, enabled, err, ignore;
	int usage;

	spin_lock_irq(&pw->lock);
	enabled = !pw->disable_depth;
	active = pw->runtime_status == DMC_RPM_ACTIVE;
	err = pw->runtime_error;
	usage = atomic_read(&pw->usage_count);
	spin_unlock_irq(&pw->lock);
	if (!enabled || err)
		return;
	if (usage > 0 && !active)
		dmc_inv_fail(inv, "'%s' is in use (runtime usage %d) but not active",
			     name, usage);
	if (!active || !parent || !parent->p)
		return;
	spin_lock_irq(&parent->p->power.lock);
	enabled = !parent->p->power.disable_depth;
	ignore = parent->p->power.ignore_children;
	active = parent->p->power.runtime_status == DMC_RPM_ACTIVE;
	spin_unlock_irq(&parent->p->power.lock);
	if (enabled && !ignore && !active)
		dmc_inv_fail(inv, "'%s' is runtime-active under a suspended parent",
			     name);
}

/* ---- each device, under its lock ----------------------------------------- */

static void dmc_inv_device(struct dmc_inv *inv, struct dmc_device *dev)
{
	struct dmc_device_private *p = dev->p;
	const char *name = dev->kobj.name;
	struct dmc_subsys_private *bp, *cp;
	struct dmc_driver *drv;
	bool live;

	if (!p)
		return;
	dmc_device_lock(dev);
	live = READ_ONCE(p->registered) && !READ_ONCE(p->dead);
	drv = dev->driver;
	if (drv) {
		if (!drv->p)
			dmc_inv_fail(inv, "'%s' is bound to unregistered driver '%s'",
				     name, drv->name);
		else if (!dmc_inv_klist_has(&drv->p->klist_devices, &p->knode_driver))
			dmc_inv_fail(inv, "'%s' is bound to '%s' but not on its list",
				     name, drv->name);
		if (drv->bus != dev->bus)
			dmc_inv_fail(inv, "'%s' is bound to '%s' of another bus",
				     name, drv->name);
	} else if (dmc_klist_node_attached(&p->knode_driver)) {
		dmc_inv_fail(inv, "'%s' has no driver but is on a driver's list", name);
	}
	if (live) {
		if (!dmc_kobject_in_tree(&dev->kobj))
			dmc_inv_fail(inv, "registered '%s' is not in the tree", name);
		bp = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
		if (bp && !dmc_inv_klist_has(&bp->klist_devices, &p->knode_bus))
			dmc_inv_fail(inv, "registered '%s' is not on bus '%s'", name,
				     dev->bus->name);
		cp = dev->class ? READ_ONCE(dev->class->p) : NULL;
		if (cp && !dmc_inv_klist_has(&cp->klist_devices, &p->knode_class))
			dmc_inv_fail(inv, "registered '%s' is not in class '%s'", name,
				     dev->class->name);
		if (list_empty(&p->dpm_entry))
			dmc_inv_fail(inv, "registered '%s' is not in the power order",
				     name);
		if (dev->parent && kref_read(&dev->parent->kobj.kref) < 1)
			dmc_inv_fail(inv, "registered '%s' has a released parent", name);
		/* dev->parent and the directory change together (dmc_device_move()). */
		if (dev->parent && dev->kobj.parent != &dev->parent->kobj)
			dmc_inv_fail(inv, "registered '%s' is not in its parent's directory",
				     name);
		if (inv->flags & DMC_INV_QUIESCENT)
			dmc_inv_runtime(inv, dev, name);
	} else if (inv->flags & DMC_INV_QUIESCENT) {
		if (dmc_kobject_in_tree(&dev->kobj))
			dmc_inv_fail(inv, "'%s' is in the tree, not registered", name);
		if (dmc_klist_node_attached(&p->knode_bus) ||
		    dmc_klist_node_attached(&p->knode_class))
			dmc_inv_fail(inv, "'%s' is on a bus or class, not registered",
				     name);
		if (!list_empty(&p->dpm_entry))
			dmc_inv_fail(inv, "'%s' is in the power order, not registered",
				     name);
		if (drv)
			dmc_inv_fail(inv, "'%s' is bound, not registered", name);
	}
	dmc_device_unlock(dev);
}

/* Every device in the devices set, each checked without any other lock. */
static void dmc_inv_devices(struct dmc_inv *inv)
{
	struct dmc_kset_iter it;
	struct dmc_kobject *kobj;

	dmc_kset_iter_start(dmc_devices_kset, &it);
	while ((kobj = dmc_kset_iter_next(&it))) {
		if (dmc_kobject_is_device(kobj))
			dmc_inv_device(inv, to_dmc_device(kobj));
	}
	dmc_kset_iter_exit(&it);
}

/* ---- buses and classes ---------------------------------------------------- */

static void dmc_inv_bus_dev(struct dmc_inv *inv, struct dmc_klist_node *n,
			    void *data)
{
	struct dmc_device_private *p = container_of(n, struct dmc_device_private,
						    knode_bus);
	struct dmc_subsys_private *priv = data;
	struct dmc_device *dev = p->device;

	if (!dev->bus || READ_ONCE(dev->bus->p) != priv)
		dmc_inv_fail(inv, "'%s' is on bus '%s', which is not its own",
			     dev->kobj.name, priv->subsys.kobj.name);
	if (kref_read(&dev->kobj.kref) < 1)
		dmc_inv_fail(inv, "'%s' is on bus '%s' with refcount 0",
			     dev->kobj.name, priv->subsys.kobj.name);
	if (!(inv->flags & DMC_INV_QUIESCENT))
		return;
	if (!READ_ONCE(p->registered) || READ_ONCE(p->dead))
		dmc_inv_fail(inv, "'%s' is on bus '%s', not registered",
			     dev->kobj.name, priv->subsys.kobj.name);
	else if (!dmc_kobject_in_tree(&dev->kobj))
		dmc_inv_fail(inv, "'%s' is on bus '%s', not in the tree",
			     dev->kobj.name, priv->subsys.kobj.name);
}

static void dmc_inv_drv_dev(struct dmc_inv *inv, struct dmc_klist_node *n,
			    void *data)
{
	struct dmc_device_private *p = container_of(n, struct dmc_device_private,
						    knode_driver);
	struct dmc_driver_private *dp = data;
	struct dmc_driver *drv = READ_ONCE(p->device->driver);

	/*
	 * Listed only while bound: dev->driver is set first, cleared last.
	 * The list's lock, held, keeps the device on it, so its driver is
	 * not yet past its unregistration's walk: @drv is not freed under us.
	 */
	if (!drv || READ_ONCE(drv->p) != dp)
		dmc_inv_fail(inv, "'%s' is on driver '%s''s list, bound to %s",
			     p->device->kobj.name, dp->kobj.name,
			     drv ? drv->name : "nothing");
	if (p->device->bus && READ_ONCE(p->device->bus->p) != dp->bus)
		dmc_inv_fail(inv, "'%s' is bound to '%s' of another bus",
			     p->device->kobj.name, dp->kobj.name);
}

static void dmc_inv_bus_drv(struct dmc_inv *inv, struct dmc_klist_node *n,
			    void *data)
{
	struct dmc_driver_private *dp = container_of(n, struct dmc_driver_private,
						     knode_bus);
	struct dmc_subsys_private *priv = data;

	if (dp->bus != priv)
		dmc_inv_fail(inv, "driver '%s' is on bus '%s', which is not its own",
			     dp->kobj.name, priv->subsys.kobj.name);
	if (kref_read(&dp->kobj.kref) < 1)
		dmc_inv_fail(inv, "driver '%s' is listed with refcount 0",
			     dp->kobj.name);
}

static void dmc_inv_class_dev(struct dmc_inv *inv, struct dmc_klist_node *n,
			      void *data)
{
	struct dmc_device_private *p = container_of(n, struct dmc_device_private,
						    knode_class);
	struct dmc_subsys_private *priv = data;
	struct dmc_device *dev = p->device;

	if (!dev->class || READ_ONCE(dev->class->p) != priv)
		dmc_inv_fail(inv, "'%s' is in class '%s', which is not its own",
			     dev->kobj.name, priv->subsys.kobj.name);
	if (kref_read(&dev->kobj.kref) < 1)
		dmc_inv_fail(inv, "'%s' is in class '%s' with refcount 0",
			     dev->kobj.name, priv->subsys.kobj.name);
	if (!(inv->flags & DMC_INV_QUIESCENT))
		return;
	if (!READ_ONCE(p->registered) || READ_ONCE(p->dead))
		dmc_inv_fail(inv, "'%s' is in class '%s', not registered",
			     dev->kobj.name, priv->subsys.kobj.name);
	else if (!dmc_kobject_in_tree(&dev->kobj))
		dmc_inv_fail(inv, "'%s' is in class '%s', not in the tree",
			     dev->kobj.name, priv->subsys.kobj.name);
}

/* The drivers of a bus, each referenced while its devices are checked. */
static void dmc_inv_bus_drivers(struct dmc_inv *inv, struct dmc_subsys_private *priv)
{
	struct dmc_driver_private *dp;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	dmc_klist_iter_start(&priv->klist_drivers, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		dp = container_of(n, struct dmc_driver_private, knode_bus);
		dmc_inv_klist_each(inv, &dp->klist_devices, dp->kobj.name, dp,
				   dmc_inv_drv_dev);
	}
	dmc_klist_iter_exit(&it);
}

static void dmc_inv_match_index(struct dmc_inv *inv, struct dmc_subsys_private *priv)
{
	const char *what = NULL;
	unsigned int bad = dmc_match_index_check(priv, &what);

	if (bad)
		dmc_inv_fail(inv, "bus '%s': match index: %s (%u bad entries)",
			     priv->subsys.kobj.name, what, bad);
}

static void dmc_inv_subsystems(struct dmc_inv *inv, struct dmc_kset *kset,
			       bool is_bus)
{
	struct dmc_subsys_private *priv;
	struct dmc_kobject *kobj;
	struct dmc_kset_iter it;

	dmc_kset_iter_start(kset, &it);
	while ((kobj = dmc_kset_iter_next(&it))) {
		priv = to_subsys_private(kobj);
		if (is_bus) {
			dmc_inv_klist_each(inv, &priv->klist_devices, kobj->name,
					   priv, dmc_inv_bus_dev);
			dmc_inv_klist_each(inv, &priv->klist_drivers, kobj->name,
					   priv, dmc_inv_bus_drv);
			dmc_inv_bus_drivers(inv, priv);
			dmc_inv_match_index(inv, priv);
		} else {
			dmc_inv_klist_each(inv, &priv->klist_devices, kobj->name,
					   priv, dmc_inv_class_dev);
		}
	}
	dmc_kset_iter_exit(&it);
}

/* ---- the power order ------------------------------------------------------ */

/*
 * Position of @p in the power order, which is the list followed by the
 * suspended list (power.c), or -1 if it is on neither. dmc_dpm_mutex held.
 */
static long dmc_inv_dpm_pos(struct dmc_device_private *p)
{
	struct dmc_device_private *q;
	long pos = 0;

	if (list_empty(&p->dpm_entry))
		return -1;
	list_for_each_entry(q, &dmc_dpm_list, dpm_entry) {
		if (q == p)
			return pos;
		pos++;
	}
	list_for_each_entry(q, &dmc_dpm_suspended, dpm_entry) {
		if (q == p)
			return pos;
		pos++;
	}
	return -1;
}

/* Check @p against @pp, its parent or supplier, which must come first. */
static void dmc_inv_dpm_after(struct dmc_inv *inv, struct dmc_device_private *p,
			      long pos, struct dmc_device_private *pp,
			      const char *what)
{
	long ppos = dmc_inv_dpm_pos(pp);

	if (ppos >= 0 && ppos > pos)
		dmc_inv_fail(inv, "power order: '%s' before its %s '%s'",
			     p->device->kobj.name, what, pp->device->kobj.name);
}

/*
 * A link with its device (devlink.c) and both ends alive shows its
 * symlinks, its device in the tree; dmc_links_mutex and dmc_tree_mutex
 * held, so a link is never seen between its publication and its showing.
 */
static void dmc_inv_devlink(struct dmc_inv *inv, struct dmc_device_link *link)
{
	if (!link->dev_added || READ_ONCE(link->consumer->p->dead) ||
	    READ_ONCE(link->supplier->p->dead))
		return;
	if (link->link_dev.p->devlink != link ||
	    !dmc_kobject_in_tree(&link->link_dev.kobj))
		dmc_inv_fail(inv, "link '%s' -> '%s': its device '%s' is not shown",
			     link->consumer->kobj.name, link->supplier->kobj.name,
			     link->link_dev.kobj.name);
}

static void dmc_inv_power_order_one(struct dmc_inv *inv,
				    struct dmc_device_private *p, long pos)
{
	struct dmc_device *dev = p->device;
	struct dmc_device_link *link;

	if (kref_read(&dev->kobj.kref) < 1)
		dmc_inv_fail(inv, "'%s' is in the power order with refcount 0",
			     dev->kobj.name);
	if (dev->parent)
		dmc_inv_dpm_after(inv, p, pos, dev->parent->p, "parent");
	list_for_each_entry(link, &p->suppliers, c_node) {
		if (kref_read(&link->supplier->kobj.kref) < 1)
			dmc_inv_fail(inv, "'%s' links to a released supplier",
				     dev->kobj.name);
		dmc_inv_dpm_after(inv, p, pos, link->supplier->p, "supplier");
		dmc_inv_devlink(inv, link);
	}
	list_for_each_entry(link, &p->devlink_sups, con_tnode)
		if (link->consumer != dev || link->link_dev.p->devlink != link)
			dmc_inv_fail(inv, "'%s' shows a devlink symlink of another link",
				     dev->kobj.name);
}

static void dmc_inv_power_order(struct dmc_inv *inv)
{
	struct dmc_device_private *p;
	long pos = 0;

	mutex_lock(&dmc_links_mutex);
	mutex_lock(&dmc_dpm_mutex);
	mutex_lock(&dmc_tree_mutex);	/* the devlink view's lists */
	list_for_each_entry(p, &dmc_dpm_list, dpm_entry)
		dmc_inv_power_order_one(inv, p, pos++);
	list_for_each_entry(p, &dmc_dpm_suspended, dpm_entry)
		dmc_inv_power_order_one(inv, p, pos++);
	mutex_unlock(&dmc_tree_mutex);
	mutex_unlock(&dmc_dpm_mutex);
	mutex_unlock(&dmc_links_mutex);
}

/* ---- deferred probe ------------------------------------------------------- */

/* A device parked by what it waits for: a name, and the lists' reference. */
static void dmc_inv_deferred_dev(struct dmc_inv *inv, struct dmc_klist_node *n,
				 void *data)
{
	struct dmc_device_private *p = container_of(n, struct dmc_device_private,
						    knode_waits);

	if (!p->waits_for)
		dmc_inv_fail(inv, "'%s' is parked by name but waits for nothing",
			     p->device->kobj.name);
	if (!READ_ONCE(p->deferred_held))
		dmc_inv_fail(inv, "'%s' is parked but the lists hold no reference",
			     p->device->kobj.name);
}

/* The index of devices parked by name: each filed under its name. */
static void dmc_inv_deferred(struct dmc_inv *inv)
{
	dmc_inv_klist_each(inv, dmc_deferred_named_list(), "deferred (by name)", NULL,
			   dmc_inv_deferred_dev);
}

/**
 * dmc_check_invariants() - check the model's invariants
 * @flags: 0 while the model may change concurrently; DMC_INV_QUIESCENT
 *	when the caller knows nothing changes it during the call (no add,
 *	delete, bind or unbind running, no probe queued), so that the
 *	states of an operation half done count as violations too;
 *	DMC_INV_SELFTEST: spoil two indexes for the duration of the check,
 *	under their locks, to show that it sees them (two more violations)
 *
 * Checks the tree under dmc_tree_mutex; each device under its device
 * lock (and, briefly, the klist locks of its bus, class and driver);
 * each bus's and class's lists under their klist locks; the power order
 * under dmc_links_mutex and dmc_dpm_mutex. These are taken one after the
 * other, never nested beyond the order of base.h, so the caller must hold
 * none of them: call it from process context, outside any probe, remove,
 * suspend, resume, listener or notifier callback.
 *
 * Each violation is logged once, as a "dmcore: INVARIANT:" line (the
 * first 20 of a call; the rest are only counted).
 *
 * Context: may sleep.
 * Return: the number of violations found; 0 when the model is sound.
 */
unsigned int dmc_check_invariants(unsigned int flags)
{
	struct dmc_inv inv = { .flags = flags };

	if (!dmc_devices_kset || !dmc_bus_kset || !dmc_class_kset)
		return 0;
	dmc_inv_tree(&inv, &dmc_roots);
	dmc_inv_devices(&inv);
	dmc_inv_subsystems(&inv, dmc_bus_kset, true);
	dmc_inv_subsystems(&inv, dmc_class_kset, false);
	dmc_inv_power_order(&inv);
	dmc_inv_deferred(&inv);
	if (inv.violations > DMC_INV_PRINT_MAX)
		pr_err("dmcore: INVARIANT: %u violations in all (%u printed)\n",
		       inv.violations, DMC_INV_PRINT_MAX);
	return inv.violations;
}
EXPORT_SYMBOL_GPL(dmc_check_invariants);

/**
 * dmc_live_objects() - the live-object census
 *
 * Counts every kobject initialized and not yet released, the core's own
 * (its root sets, the bridge's objects) included: compare with a count
 * taken before, as the torture module does. At module exit the core
 * reports each one still alive as a leak.
 *
 * Context: any; takes a spinlock.
 * Return: the number of live kobjects.
 */
unsigned long dmc_live_objects(void)
{
	return dmc_kobject_live_count();
}
EXPORT_SYMBOL_GPL(dmc_live_objects);

// SPDX-License-Identifier: GPL-2.0
/*
 * The real-event bridge: the running kernel's PCI and platform buses,
 * mirrored into dmcore.
 *
 * For each mirrored bus (module parameter "bridge", default "pci,platform")
 * the bridge registers a shadow dmc_bus_type of the same name and a bus
 * notifier on the real bus_type. Each real device on it becomes a shadow
 * dmc_device of the same name, under a shadow of its real parent, so that
 * dmcore/devices/ repeats the real /sys/devices/ path of every mirrored
 * device (taken from the device's kobject when the add is recorded, so
 * class directories on the way, as in pnp0/00:06/rtc/rtc0, are repeated
 * too); ancestors that are on no mirrored bus (pci0000:00, platform, rtc)
 * are "glue" devices: plain dmc_devices made when their first shadow child
 * comes and deleted with their last. A real binding becomes a shadow
 * dmc_driver of the real driver's name, bound to the shadow device.
 *
 * Two halves, so that the real kernel is never delayed:
 *
 *  - The notifier and the coldplug walk run in the real kernel's context.
 *    They only record: under dmc_bridge_lock they look the device up in
 *    the record map, take or drop the record and queue an operation. A
 *    record holds a reference on its real device from the device's add
 *    (or coldplug import) to its removal, and no longer.
 *
 *  - One work item applies the queued operations in order to dmcore: it
 *    makes and deletes shadow devices, makes shadow drivers, binds and
 *    unbinds. Everything it does is dmcore's own locking; it never takes a
 *    real device's lock, so the real kernel never waits for it.
 *
 * Coldplug without loss or duplication: the notifier is registered first,
 * then the devices already there are walked. A device seen by both is
 * queued once (the record map answers "already known"). A device whose
 * removal the notifier saw while the walk was running is remembered in a
 * list of pointers kept only during the walk, so that a walk that reaches
 * it late does not bring it back. The walk reads a device's driver under
 * the device lock, which also orders it against the notifier's bind and
 * unbind events (the real core sends them with that lock held).
 *
 * What is mirrored: devices (name, parent chain, bus) and bindings of the
 * mirrored buses; PCI vendor, device and class IDs; the real sysfs path.
 * What is not: the real devices' other attributes, classes, links, power
 * states, and drivers registered after the load until they bind a device
 * (real drivers have no registration notifier; the coldplug imports the
 * drivers registered at load). A shadow driver stays until the bridge
 * goes, since the real core does not say when a driver is unregistered.
 */

#include <linux/device.h>
#include <linux/device/bus.h>
#include <linux/hashtable.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/workqueue.h>

#include <dmcore/device.h>

#include "base.h"

static char *bridge = "pci,platform";
module_param(bridge, charp, 0444);
MODULE_PARM_DESC(bridge,
		 "real buses to mirror, comma-separated: pci, platform (default both; empty: off)");

/* A mirrored real bus and its shadow. */
struct dmc_bridge_bus {
	const char *name;
	struct bus_type *real;
	const struct dmc_device_type *type;
	struct dmc_bus_type shadow;
	struct notifier_block nb;
	struct list_head drivers;	/* dmc_bridge_driver.node; worker only */
	bool on;			/* shadow registered, notifier set */
};

/* A shadow driver: named after a real driver of the bus. */
struct dmc_bridge_driver {
	struct dmc_driver drv;
	struct list_head node;
	char name[];
};

/*
 * A shadow device: of a real device on a mirrored bus, or glue for a real
 * ancestor on none (a device or a class directory). Identified by the real
 * sysfs path it stands for. Freed by the release of @dev.
 */
struct dmc_bridge_node {
	struct dmc_device dev;
	struct hlist_node hnode;	/* dmc_bridge_nodes, keyed by @sysfs_path */
	struct list_head link;		/* dmc_bridge_node_list, in creation order */
	char *sysfs_path;		/* "/devices/pci0000:00/0000:00:03.0" */
	struct dmc_bridge_node *parent;
	unsigned int children;		/* shadow children still there */
	bool glue;
	bool dead;
	struct dmc_driver *want;	/* the real device's driver's shadow */
	u16 vendor;
	u16 device;
	u32 class;
};

/*
 * A real device the bridge knows: from its add (or coldplug import) to
 * its removal. Owned by the map until removal, then by the queued
 * DMC_BRIDGE_DEL, which frees it.
 */
struct dmc_bridge_rec {
	struct hlist_node hnode;	/* dmc_bridge_recs, under dmc_bridge_lock */
	struct device *real;		/* referenced */
	char *path;			/* its sysfs path when it was recorded */
	struct dmc_bridge_bus *bb;
	struct dmc_bridge_node *node;	/* worker only */
};

enum dmc_bridge_op {
	DMC_BRIDGE_ADD,
	DMC_BRIDGE_BIND,
	DMC_BRIDGE_UNBIND,
	DMC_BRIDGE_DEL,
	DMC_BRIDGE_DRIVER,
};

struct dmc_bridge_item {
	struct list_head node;
	enum dmc_bridge_op op;
	struct dmc_bridge_bus *bb;
	struct dmc_bridge_rec *rec;
	const struct device *real;	/* on dmc_bridge_gone_list: the key */
	char name[];			/* BIND and DRIVER: the real driver */
};

#define DMC_BRIDGE_HASH_BITS	8

/*
 * Notifier side: the record map, the queue, and the devices removed while
 * the coldplug walk ran (items with @real set, not to be imported).
 */
static DEFINE_SPINLOCK(dmc_bridge_lock);
static DEFINE_HASHTABLE(dmc_bridge_recs, DMC_BRIDGE_HASH_BITS);
static LIST_HEAD(dmc_bridge_queue);
static LIST_HEAD(dmc_bridge_gone_list);
static bool dmc_bridge_coldplugging;
static unsigned long dmc_bridge_lost;

/* Worker side: the shadow nodes. */
static DEFINE_HASHTABLE(dmc_bridge_nodes, DMC_BRIDGE_HASH_BITS);
static LIST_HEAD(dmc_bridge_node_list);

static void dmc_bridge_work_fn(struct work_struct *work);
static DECLARE_WORK(dmc_bridge_work, dmc_bridge_work_fn);

/* ---- the shadows' attributes ------------------------------------------------- */

static struct dmc_bridge_node *to_node(struct dmc_device *dev)
{
	return container_of(dev, struct dmc_bridge_node, dev);
}

static ssize_t sysfs_path_show(struct dmc_device *dev,
			       struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "/sys%s\n", to_node(dev)->sysfs_path);
}
static DMC_DEVICE_ATTR(sysfs_path, 0444, sysfs_path_show, NULL);

static ssize_t vendor_show(struct dmc_device *dev,
			   struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", to_node(dev)->vendor);
}
static DMC_DEVICE_ATTR(vendor, 0444, vendor_show, NULL);

static ssize_t device_show(struct dmc_device *dev,
			   struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", to_node(dev)->device);
}
static DMC_DEVICE_ATTR(device, 0444, device_show, NULL);

static ssize_t class_show(struct dmc_device *dev,
			  struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%06x\n", to_node(dev)->class);
}
static DMC_DEVICE_ATTR(class, 0444, class_show, NULL);

static struct dmc_attribute *dmc_bridge_attrs[] = {
	&dmc_dev_attr_sysfs_path.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_bridge_group = {
	.attrs = dmc_bridge_attrs,
};

static const struct dmc_attribute_group *dmc_bridge_groups[] = {
	&dmc_bridge_group,
	NULL,
};

static struct dmc_attribute *dmc_bridge_pci_attrs[] = {
	&dmc_dev_attr_sysfs_path.attr,
	&dmc_dev_attr_vendor.attr,
	&dmc_dev_attr_device.attr,
	&dmc_dev_attr_class.attr,
	NULL,
};

static const struct dmc_attribute_group dmc_bridge_pci_group = {
	.attrs = dmc_bridge_pci_attrs,
};

static const struct dmc_attribute_group *dmc_bridge_pci_groups[] = {
	&dmc_bridge_pci_group,
	NULL,
};

static void dmc_bridge_node_release(struct dmc_device *dev)
{
	struct dmc_bridge_node *node = to_node(dev);

	kfree(node->sysfs_path);
	kfree(node);
}

static const struct dmc_device_type dmc_bridge_glue_type = {
	.name = "bridge-glue",
	.groups = dmc_bridge_groups,
	.release = dmc_bridge_node_release,
};

/* No names: real PCI and platform devices send no DEVTYPE either. */
static const struct dmc_device_type dmc_bridge_platform_type = {
	.groups = dmc_bridge_groups,
	.release = dmc_bridge_node_release,
};

static const struct dmc_device_type dmc_bridge_pci_type = {
	.groups = dmc_bridge_pci_groups,
	.release = dmc_bridge_node_release,
};

/**
 * dmc_bridge_is_shadow() - is @dev one of the bridge's shadows or glue?
 * @dev: a device, or NULL
 *
 * Only the real kernel's events change those: control refuses to put
 * its devices under one or to link one.
 *
 * Return: true for a shadow or glue device.
 */
bool dmc_bridge_is_shadow(const struct dmc_device *dev)
{
	return dev && (dev->type == &dmc_bridge_glue_type ||
		       dev->type == &dmc_bridge_platform_type ||
		       dev->type == &dmc_bridge_pci_type);
}

/* ---- the shadow buses and drivers ------------------------------------------------ */

/* A shadow device matches only the shadow of its real device's driver. */
static int dmc_bridge_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	return READ_ONCE(to_node(dev)->want) == drv;
}

/* The real driver has bound already: the shadow's probe has nothing to do. */
static int dmc_bridge_probe(struct dmc_device *dev)
{
	return 0;
}

static int dmc_bridge_notify(struct notifier_block *nb, unsigned long action,
			     void *data);

static struct dmc_bridge_bus dmc_bridge_buses[] = {
#if IS_ENABLED(CONFIG_PCI)
	{
		.name = "pci",
		.real = &pci_bus_type,
		.type = &dmc_bridge_pci_type,
	},
#endif
	{
		.name = "platform",
		.real = &platform_bus_type,
		.type = &dmc_bridge_platform_type,
	},
};

/* The shadow driver called @name on @bb, made on first use. Worker only. */
static struct dmc_driver *dmc_bridge_driver_get(struct dmc_bridge_bus *bb,
						const char *name)
{
	struct dmc_bridge_driver *bd;
	int err;

	list_for_each_entry(bd, &bb->drivers, node)
		if (!strcmp(bd->name, name))
			return &bd->drv;

	bd = kzalloc(struct_size(bd, name, strlen(name) + 1), GFP_KERNEL);
	if (!bd)
		return NULL;
	strcpy(bd->name, name);
	bd->drv.name = bd->name;
	bd->drv.bus = &bb->shadow;
	bd->drv.probe = dmc_bridge_probe;
	bd->drv.suppress_bind_attrs = true;
	err = dmc_driver_register(&bd->drv);
	if (err) {
		pr_err_ratelimited("dmcore: bridge: shadow driver %s/%s: error %d\n",
				   bb->name, name, err);
		kfree(bd);
		return NULL;
	}
	list_add_tail(&bd->node, &bb->drivers);
	return &bd->drv;
}

/* ---- worker: shadow devices ------------------------------------------------------ */

static struct workqueue_struct *dmc_bridge_wq;

static u32 dmc_bridge_path_hash(const char *path, size_t len)
{
	return full_name_hash(NULL, path, len);
}

/* The shadow standing for the real sysfs path @path (@len bytes of it). */
static struct dmc_bridge_node *dmc_bridge_node_find(const char *path, size_t len)
{
	struct dmc_bridge_node *node;

	hash_for_each_possible(dmc_bridge_nodes, node, hnode,
			       dmc_bridge_path_hash(path, len))
		if (!strncmp(node->sysfs_path, path, len) && !node->sysfs_path[len])
			return node;
	return NULL;
}

static struct dmc_bridge_rec *dmc_bridge_rec_find(const struct device *real)
{
	struct dmc_bridge_rec *rec;

	lockdep_assert_held(&dmc_bridge_lock);
	hash_for_each_possible(dmc_bridge_recs, rec, hnode, (unsigned long)real)
		if (rec->real == real)
			return rec;
	return NULL;
}

/* A recorded device at @path whose shadow is not made yet (a rare miss). */
static struct dmc_bridge_rec *dmc_bridge_rec_find_path(const char *path,
						       size_t len)
{
	struct dmc_bridge_rec *rec, *found = NULL;
	unsigned int bkt;

	spin_lock(&dmc_bridge_lock);
	hash_for_each(dmc_bridge_recs, bkt, rec, hnode) {
		if (!rec->node && !strncmp(rec->path, path, len) && !rec->path[len]) {
			found = rec;
			break;
		}
	}
	spin_unlock(&dmc_bridge_lock);
	/* Only this worker frees records: @found stays valid. */
	return found;
}

static void dmc_bridge_node_del(struct dmc_bridge_node *node);

/* One shadow child fewer: glue goes with its last child. */
static void dmc_bridge_node_put_parent(struct dmc_bridge_node *pn)
{
	if (pn && !--pn->children && pn->glue && !pn->dead)
		dmc_bridge_node_del(pn);
}

/*
 * Take a shadow node out: its dmc_device is unregistered (its own shadow
 * children, if the real kernel removed a parent before its children, go
 * with it, as dmc_device_del() deletes children first; their nodes stay
 * until their own removal).
 */
static void dmc_bridge_node_del(struct dmc_bridge_node *node)
{
	struct dmc_bridge_node *pn = node->parent;

	hash_del(&node->hnode);
	list_del(&node->link);
	node->dead = true;
	/*
	 * The parent's node lives as long as its device: when the real
	 * kernel removed the parent first, this child's reference may be
	 * the last, dropped by the unregistration below. Hold it until the
	 * child count is done with.
	 */
	if (pn)
		dmc_device_get(&pn->dev);
	dmc_device_unregister(&node->dev);
	dmc_bridge_node_put_parent(pn);
	if (pn)
		dmc_device_put(&pn->dev);
}

static struct dmc_bridge_node *dmc_bridge_rec_node(struct dmc_bridge_rec *rec);
static struct dmc_bridge_node *dmc_bridge_node_make(const char *path,
						    struct dmc_bridge_bus *bb,
						    struct device *real);

/*
 * The shadow of the parent directory of the real sysfs path @path, with
 * one more child counted; NULL for a child of /devices itself. Made as
 * glue when no mirrored device stands there, mirrored first when one does
 * but its own add is still queued.
 */
static struct dmc_bridge_node *dmc_bridge_parent_hold(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? slash - path : 0;
	struct dmc_bridge_node *pn;
	struct dmc_bridge_rec *rec;
	char *ppath;

	if (len <= strlen("/devices"))
		return NULL;
	pn = dmc_bridge_node_find(path, len);
	if (!pn) {
		rec = dmc_bridge_rec_find_path(path, len);
		if (rec) {
			pn = dmc_bridge_rec_node(rec);
		} else {
			ppath = kstrndup(path, len, GFP_KERNEL);
			if (!ppath)
				return ERR_PTR(-ENOMEM);
			pn = dmc_bridge_node_make(ppath, NULL, NULL);
			kfree(ppath);
		}
		if (IS_ERR(pn))
			return pn;
	}
	pn->children++;
	return pn;
}

/*
 * Make the shadow of the real sysfs path @path: of @real on @bb's shadow
 * bus, or glue when @bb is NULL. Its name is the path's last component
 * and, through its parents, its path under dmcore/devices is @path's.
 */
static struct dmc_bridge_node *dmc_bridge_node_make(const char *path,
						    struct dmc_bridge_bus *bb,
						    struct device *real)
{
	struct dmc_bridge_node *node, *pn;
	int err;

	pn = dmc_bridge_parent_hold(path);
	if (IS_ERR(pn))
		return pn;

	err = -ENOMEM;
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		goto err_parent;
	node->sysfs_path = kstrdup(path, GFP_KERNEL);
	if (!node->sysfs_path) {
		kfree(node);
		goto err_parent;
	}
	node->parent = pn;
	node->glue = !bb;
	if (bb && dev_is_pci(real)) {
		struct pci_dev *pdev = to_pci_dev(real);

		node->vendor = pdev->vendor;
		node->device = pdev->device;
		node->class = pdev->class;
	}

	dmc_device_initialize(&node->dev);
	node->dev.parent = pn ? &pn->dev : NULL;
	node->dev.bus = bb ? &bb->shadow : NULL;
	node->dev.type = bb ? bb->type : &dmc_bridge_glue_type;
	err = dmc_device_set_name(&node->dev, "%s", strrchr(path, '/') + 1);
	if (!err)
		err = dmc_device_add(&node->dev);
	if (err) {
		pr_err_ratelimited("dmcore: bridge: cannot mirror %s: error %d\n",
				   path, err);
		dmc_device_put(&node->dev);
		goto err_parent;
	}
	hash_add(dmc_bridge_nodes, &node->hnode,
		 dmc_bridge_path_hash(path, strlen(path)));
	list_add_tail(&node->link, &dmc_bridge_node_list);
	return node;

err_parent:
	dmc_bridge_node_put_parent(pn);
	return ERR_PTR(err);
}

/* The shadow of a record's device, made on first need. */
static struct dmc_bridge_node *dmc_bridge_rec_node(struct dmc_bridge_rec *rec)
{
	struct dmc_bridge_node *node;

	if (rec->node)
		return rec->node;
	node = dmc_bridge_node_make(rec->path, rec->bb, rec->real);
	if (!IS_ERR(node))
		rec->node = node;
	return node;
}

/* The real device bound to a driver called @name: bind the shadows alike. */
static void dmc_bridge_bind(struct dmc_bridge_rec *rec, const char *name)
{
	struct dmc_bridge_node *node = rec->node;
	struct dmc_driver *drv;
	int err;

	/* Not mirrored, or deleted with a parent the real kernel removed first. */
	if (!node || node->dead || !dmc_device_is_registered(&node->dev))
		return;
	drv = dmc_bridge_driver_get(rec->bb, name);
	if (!drv)
		return;
	if (node->want == drv && dmc_device_is_bound(&node->dev))
		return;
	WRITE_ONCE(node->want, NULL);
	dmc_device_release_driver(&node->dev);
	WRITE_ONCE(node->want, drv);
	err = dmc_device_driver_attach(drv, &node->dev);
	if (err)
		pr_err_ratelimited("dmcore: bridge: cannot bind shadow %s to %s: error %d\n",
				   dmc_dev_name(&node->dev), name, err);
}

static void dmc_bridge_unbind(struct dmc_bridge_rec *rec)
{
	struct dmc_bridge_node *node = rec->node;

	if (!node || node->dead)
		return;
	WRITE_ONCE(node->want, NULL);
	dmc_device_release_driver(&node->dev);
}

/* The real device is gone: so are its shadow and the bridge's reference. */
static void dmc_bridge_del(struct dmc_bridge_rec *rec)
{
	if (rec->node)
		dmc_bridge_node_del(rec->node);
	put_device(rec->real);
	kfree(rec->path);
	kfree(rec);
}

static void dmc_bridge_apply(struct dmc_bridge_item *it)
{
	switch (it->op) {
	case DMC_BRIDGE_ADD:
		dmc_bridge_rec_node(it->rec);
		break;
	case DMC_BRIDGE_BIND:
		dmc_bridge_bind(it->rec, it->name);
		break;
	case DMC_BRIDGE_UNBIND:
		dmc_bridge_unbind(it->rec);
		break;
	case DMC_BRIDGE_DEL:
		dmc_bridge_del(it->rec);
		break;
	case DMC_BRIDGE_DRIVER:
		dmc_bridge_driver_get(it->bb, it->name);
		break;
	}
}

/* Apply the queued operations, oldest first. */
static void dmc_bridge_work_fn(struct work_struct *work)
{
	struct dmc_bridge_item *it;

	for (;;) {
		spin_lock(&dmc_bridge_lock);
		it = list_first_entry_or_null(&dmc_bridge_queue,
					      struct dmc_bridge_item, node);
		if (it)
			list_del(&it->node);
		spin_unlock(&dmc_bridge_lock);
		if (!it)
			return;
		dmc_bridge_apply(it);
		kfree(it);
		cond_resched();
	}
}

/* ---- the real kernel's side: notifier and coldplug --------------------------------- */

static struct dmc_bridge_item *dmc_bridge_item_alloc(struct dmc_bridge_bus *bb,
						     enum dmc_bridge_op op,
						     const char *name)
{
	size_t len = name ? strlen(name) + 1 : 0;
	struct dmc_bridge_item *it;

	it = kzalloc(struct_size(it, name, len), GFP_KERNEL);
	if (!it)
		return NULL;
	it->op = op;
	it->bb = bb;
	if (name)
		memcpy(it->name, name, len);
	return it;
}

static void dmc_bridge_queue_locked(struct dmc_bridge_item *it)
{
	lockdep_assert_held(&dmc_bridge_lock);
	list_add_tail(&it->node, &dmc_bridge_queue);
	queue_work(dmc_bridge_wq, &dmc_bridge_work);
}

static void dmc_bridge_lose(struct dmc_bridge_bus *bb, struct device *dev,
			    const char *what)
{
	spin_lock(&dmc_bridge_lock);
	dmc_bridge_lost++;
	spin_unlock(&dmc_bridge_lock);
	pr_err_ratelimited("dmcore: bridge: out of memory: %s of %s device %s not mirrored\n",
			   what, bb->name, dev_name(dev));
}

/* Was @dev removed while the coldplug walk ran? */
static bool dmc_bridge_was_removed(const struct device *dev)
{
	struct dmc_bridge_item *it;

	lockdep_assert_held(&dmc_bridge_lock);
	list_for_each_entry(it, &dmc_bridge_gone_list, node)
		if (it->real == dev)
			return true;
	return false;
}

/*
 * A real device joined @bb's bus (@coldplug false) or was found there by
 * the coldplug walk: record it, with a reference, once.
 */
static void dmc_bridge_record_add(struct dmc_bridge_bus *bb, struct device *dev,
				  bool coldplug)
{
	struct dmc_bridge_rec *rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	struct dmc_bridge_item *it = dmc_bridge_item_alloc(bb, DMC_BRIDGE_ADD, NULL);
	char *path = kobject_get_path(&dev->kobj, GFP_KERNEL);

	if (!rec || !it || !path) {
		kfree(path);
		kfree(rec);
		kfree(it);
		dmc_bridge_lose(bb, dev, "add");
		return;
	}
	spin_lock(&dmc_bridge_lock);
	if (dmc_bridge_rec_find(dev) ||
	    (coldplug && dmc_bridge_was_removed(dev))) {
		spin_unlock(&dmc_bridge_lock);
		kfree(path);
		kfree(rec);
		kfree(it);
		return;
	}
	rec->path = path;
	rec->real = get_device(dev);
	rec->bb = bb;
	hash_add(dmc_bridge_recs, &rec->hnode, (unsigned long)dev);
	it->rec = rec;
	dmc_bridge_queue_locked(it);
	spin_unlock(&dmc_bridge_lock);
}

/*
 * A bind (@name: the driver), unbind or removal of a recorded device.
 * A removal takes the record out of the map; the queued operation frees
 * it. A removal of an unrecorded device during the coldplug walk is
 * remembered, so that the walk does not import it afterwards.
 */
static void dmc_bridge_record_op(struct dmc_bridge_bus *bb, struct device *dev,
				 enum dmc_bridge_op op, const char *name)
{
	struct dmc_bridge_item *it = dmc_bridge_item_alloc(bb, op, name);
	struct dmc_bridge_rec *rec;

	if (!it) {
		dmc_bridge_lose(bb, dev, op == DMC_BRIDGE_DEL ? "removal" : "binding");
		return;
	}
	spin_lock(&dmc_bridge_lock);
	rec = dmc_bridge_rec_find(dev);
	if (!rec) {
		if (op == DMC_BRIDGE_DEL && dmc_bridge_coldplugging) {
			it->real = dev;
			list_add_tail(&it->node, &dmc_bridge_gone_list);
			it = NULL;
		}
		spin_unlock(&dmc_bridge_lock);
		kfree(it);
		return;
	}
	if (op == DMC_BRIDGE_DEL)
		hash_del(&rec->hnode);
	it->rec = rec;
	dmc_bridge_queue_locked(it);
	spin_unlock(&dmc_bridge_lock);
}

/*
 * The real core calls this in its own context (for binding events with
 * the device lock held): only record, never wait for the shadow.
 */
static int dmc_bridge_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct dmc_bridge_bus *bb = container_of(nb, struct dmc_bridge_bus, nb);
	struct device *dev = data;

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		dmc_bridge_record_add(bb, dev, false);
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_BIND, dev->driver->name);
		break;
	case BUS_NOTIFY_UNBOUND_DRIVER:
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_UNBIND, NULL);
		break;
	case BUS_NOTIFY_REMOVED_DEVICE:
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_DEL, NULL);
		break;
	}
	return NOTIFY_DONE;
}

/*
 * Coldplug, one device: the device lock keeps its driver from changing
 * until its bind is queued, behind any binding event already queued.
 */
static int dmc_bridge_coldplug_dev(struct device *dev, void *data)
{
	struct dmc_bridge_bus *bb = data;

	device_lock(dev);
	dmc_bridge_record_add(bb, dev, true);
	if (dev->driver)
		dmc_bridge_record_op(bb, dev, DMC_BRIDGE_BIND, dev->driver->name);
	device_unlock(dev);
	return 0;
}

/* Coldplug, one driver: its shadow is made even with nothing bound. */
static int dmc_bridge_coldplug_drv(struct device_driver *drv, void *data)
{
	struct dmc_bridge_bus *bb = data;
	struct dmc_bridge_item *it;

	it = dmc_bridge_item_alloc(bb, DMC_BRIDGE_DRIVER, drv->name);
	if (!it)
		return -ENOMEM;
	spin_lock(&dmc_bridge_lock);
	dmc_bridge_queue_locked(it);
	spin_unlock(&dmc_bridge_lock);
	return 0;
}

/**
 * dmc_bridge_owns_name() - does the bridge use /devices/@name?
 * @name: a name for a device at the top of dmcore/devices
 *
 * True while a real device the bridge mirrors lives at or under
 * /sys/devices/@name: its shadow, or the glue on its way, has (or is
 * about to have) that path, which control must not take.
 *
 * Context: any; takes dmc_bridge_lock.
 * Return: true if the path is the bridge's.
 */
bool dmc_bridge_owns_name(const char *name)
{
	static const char top[] = "/devices/";
	size_t len = strlen(name);
	struct dmc_bridge_rec *rec;
	unsigned int bkt;
	bool owned = false;
	const char *p;

	spin_lock(&dmc_bridge_lock);
	hash_for_each(dmc_bridge_recs, bkt, rec, hnode) {
		if (strncmp(rec->path, top, sizeof(top) - 1))
			continue;
		p = rec->path + sizeof(top) - 1;
		if (!strncmp(p, name, len) && (p[len] == '/' || !p[len])) {
			owned = true;
			break;
		}
	}
	spin_unlock(&dmc_bridge_lock);
	return owned;
}

/* ---- setup and teardown ------------------------------------------------------------ */

/* Which buses "bridge" names; -EINVAL for a name the bridge does not know. */
static int dmc_bridge_parse(bool *want)
{
	const char *s = bridge ?: "";
	unsigned int i;
	size_t len;

	while (*s) {
		len = strcspn(s, ",");
		for (i = 0; len && i < ARRAY_SIZE(dmc_bridge_buses); i++) {
			if (strlen(dmc_bridge_buses[i].name) == len &&
			    !strncmp(dmc_bridge_buses[i].name, s, len))
				break;
		}
		if (len && i == ARRAY_SIZE(dmc_bridge_buses)) {
			pr_err("dmcore: bridge=%s: unknown bus '%.*s' (known: pci, platform)\n",
			       bridge, (int)len, s);
			return -EINVAL;
		}
		if (len)
			want[i] = true;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

static void dmc_bridge_bus_teardown(struct dmc_bridge_bus *bb)
{
	struct dmc_bridge_driver *bd, *tmp;

	list_for_each_entry_safe(bd, tmp, &bb->drivers, node) {
		list_del(&bd->node);
		dmc_driver_unregister(&bd->drv);
		kfree(bd);
	}
	dmc_bus_unregister(&bb->shadow);
	bb->on = false;
}

/* Forget the devices removed during the coldplug walk, which is over. */
static void dmc_bridge_coldplug_done(void)
{
	struct dmc_bridge_item *it, *tmp;
	LIST_HEAD(gone);

	spin_lock(&dmc_bridge_lock);
	dmc_bridge_coldplugging = false;
	list_splice_init(&dmc_bridge_gone_list, &gone);
	spin_unlock(&dmc_bridge_lock);
	list_for_each_entry_safe(it, tmp, &gone, node)
		kfree(it);
}

/* Everything the bridge made, with its notifiers already gone. */
static void dmc_bridge_teardown(void)
{
	struct dmc_bridge_node *node;
	struct dmc_bridge_rec *rec;
	struct hlist_node *tmp;
	unsigned int i;

	flush_workqueue(dmc_bridge_wq);
	/* Newest first: children before their parents; glue goes with them. */
	while (!list_empty(&dmc_bridge_node_list)) {
		node = list_last_entry(&dmc_bridge_node_list,
				       struct dmc_bridge_node, link);
		dmc_bridge_node_del(node);
	}
	hash_for_each_safe(dmc_bridge_recs, i, tmp, rec, hnode) {
		hash_del(&rec->hnode);
		put_device(rec->real);
		kfree(rec->path);
		kfree(rec);
	}
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++)
		if (dmc_bridge_buses[i].on)
			dmc_bridge_bus_teardown(&dmc_bridge_buses[i]);
	destroy_workqueue(dmc_bridge_wq);
	dmc_bridge_wq = NULL;
	if (dmc_bridge_lost)
		pr_err("dmcore: bridge: %lu real events were lost (out of memory)\n",
		       dmc_bridge_lost);
}

/**
 * dmc_bridge_init() - mirror the running kernel's buses named by "bridge"
 *
 * For each: registers the shadow bus, then the real bus's notifier, then
 * imports the devices, bindings and drivers already there. Returns once
 * the import is applied, so the shadow is complete when dmcore's load
 * returns. Called by dmcore's init after the core is up.
 *
 * Context: process context, may sleep; takes each real device's lock
 * briefly during the import.
 * Return: 0 (also when "bridge" is empty); -EINVAL for an unknown bus
 * name; -ENOMEM; an error of the shadow bus's or the notifier's
 * registration. On failure nothing is left behind.
 */
int dmc_bridge_init(void)
{
	bool want[ARRAY_SIZE(dmc_bridge_buses)] = { };
	unsigned int i, n = 0;
	int err;

	err = dmc_bridge_parse(want);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++)
		n += want[i];
	if (!n)
		return 0;

	dmc_bridge_wq = alloc_ordered_workqueue("dmc_bridge", 0);
	if (!dmc_bridge_wq)
		return -ENOMEM;

	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		struct dmc_bridge_bus *bb = &dmc_bridge_buses[i];

		if (!want[i])
			continue;
		INIT_LIST_HEAD(&bb->drivers);
		memset(&bb->shadow, 0, sizeof(bb->shadow));
		bb->shadow.name = bb->name;
		bb->shadow.match = dmc_bridge_match;
		err = dmc_bus_register(&bb->shadow);
		if (err) {
			pr_err("dmcore: bridge: shadow bus %s: error %d\n",
			       bb->name, err);
			goto err_buses;
		}
		/* The shadow binds only when the real kernel has bound. */
		dmc_bus_set_autoprobe(&bb->shadow, false);
		bb->on = true;
	}

	spin_lock(&dmc_bridge_lock);
	dmc_bridge_coldplugging = true;
	spin_unlock(&dmc_bridge_lock);
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		struct dmc_bridge_bus *bb = &dmc_bridge_buses[i];

		if (!bb->on)
			continue;
		bb->nb.notifier_call = dmc_bridge_notify;
		err = bus_register_notifier(bb->real, &bb->nb);
		if (err) {
			pr_err("dmcore: bridge: notifier on %s: error %d\n",
			       bb->name, err);
			goto err_notifiers;
		}
	}
	/* Drivers first, then devices in the real buses' own order. */
	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		struct dmc_bridge_bus *bb = &dmc_bridge_buses[i];

		if (!bb->on)
			continue;
		err = bus_for_each_drv(bb->real, NULL, bb, dmc_bridge_coldplug_drv);
		if (!err)
			err = bus_for_each_dev(bb->real, NULL, bb,
					       dmc_bridge_coldplug_dev);
		if (err)
			goto err_all_notifiers;
	}
	dmc_bridge_coldplug_done();
	flush_workqueue(dmc_bridge_wq);

	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++)
		if (dmc_bridge_buses[i].on)
			pr_info("dmcore: bridge: mirroring %s: %u devices\n",
				dmc_bridge_buses[i].name,
				dmc_bus_device_count(&dmc_bridge_buses[i].shadow));
	return 0;

err_all_notifiers:
	i = ARRAY_SIZE(dmc_bridge_buses);
err_notifiers:
	while (i--)
		if (dmc_bridge_buses[i].on)
			bus_unregister_notifier(dmc_bridge_buses[i].real,
						&dmc_bridge_buses[i].nb);
	dmc_bridge_coldplug_done();
	dmc_bridge_teardown();
	return err;

err_buses:
	while (i--)
		if (dmc_bridge_buses[i].on)
			dmc_bridge_bus_teardown(&dmc_bridge_buses[i]);
	destroy_workqueue(dmc_bridge_wq);
	dmc_bridge_wq = NULL;
	return err;
}

/**
 * dmc_bridge_exit() - stop mirroring and remove every shadow
 *
 * Unregisters the notifiers (which waits for calls in progress), applies
 * what they queued, then deletes the shadow devices, drops every real
 * device reference and removes the shadow drivers and buses. Real devices
 * may still be present: nothing of theirs is touched but the references.
 *
 * Context: process context, may sleep. Called by dmcore's exit first.
 */
void dmc_bridge_exit(void)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dmc_bridge_buses); i++) {
		if (!dmc_bridge_buses[i].on)
			continue;
		any = true;
		bus_unregister_notifier(dmc_bridge_buses[i].real,
					&dmc_bridge_buses[i].nb);
	}
	if (any)
		dmc_bridge_teardown();
}

/**
 * dmc_bridge_settle() - wait until every real event seen is applied
 *
 * What the control file's "settle" runs: after it, the shadow buses show
 * every real add, removal, bind and unbind notified before the call. Does
 * nothing when the bridge is off.
 *
 * Context: process context, may sleep; not from the bridge's own work, nor
 * concurrently with dmcore's unload.
 */
void dmc_bridge_settle(void)
{
	if (dmc_bridge_wq)
		flush_workqueue(dmc_bridge_wq);
}

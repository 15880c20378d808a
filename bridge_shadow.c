// SPDX-License-Identifier: GPL-2.0
/*
 * The real-event bridge, dmcore's side: the record map and the queue that
 * the real kernel's side (bridge.c) fills, the one work item that applies
 * the queue in order, and the shadow buses, drivers and devices it makes.
 *
 * Everything the worker does is dmcore's own locking: it never takes a
 * real device's lock, so the real kernel never waits for it. Shadow
 * nodes are identified by the real sysfs path they stand for, so that
 * dmcore/devices/ repeats the real /sys/devices/ path of every mirrored
 * device; ancestors on no mirrored bus are "glue" devices, made with
 * their first shadow child and deleted with their last.
 */

#include <linux/device.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/workqueue.h>

#include <dmcore/bus.h>
#include <dmcore/device.h>
#include <dmcore/driver.h>

#include "base.h"
#include "clients.h"
#include "bridge.h"

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

#define DMC_BRIDGE_HASH_BITS	8

/*
 * The record map and the queue, filled by bridge.c under dmc_bridge_lock,
 * emptied by the worker.
 */
DEFINE_SPINLOCK(dmc_bridge_lock);
static DEFINE_HASHTABLE(dmc_bridge_recs, DMC_BRIDGE_HASH_BITS);
static LIST_HEAD(dmc_bridge_queue);

/* Worker side: the shadow nodes. */
static DEFINE_HASHTABLE(dmc_bridge_nodes, DMC_BRIDGE_HASH_BITS);
static LIST_HEAD(dmc_bridge_node_list);

static struct workqueue_struct *dmc_bridge_wq;
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
const struct dmc_device_type dmc_bridge_platform_type = {
	.groups = dmc_bridge_groups,
	.release = dmc_bridge_node_release,
};

const struct dmc_device_type dmc_bridge_pci_type = {
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

/* ---- the shadow drivers ---------------------------------------------------------- */

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

/* ---- the shadow buses ------------------------------------------------------------ */

/* Register @bb's shadow bus; it binds only when the real kernel has bound. */
int dmc_bridge_shadow_bus_register(struct dmc_bridge_bus *bb)
{
	int err;

	INIT_LIST_HEAD(&bb->drivers);
	memset(&bb->shadow, 0, sizeof(bb->shadow));
	bb->shadow.name = bb->name;
	bb->shadow.match = dmc_bridge_match;
	err = dmc_bus_register(&bb->shadow);
	if (err)
		return err;
	dmc_bus_set_autoprobe(&bb->shadow, false);
	bb->on = true;
	return 0;
}

/* Unregister @bb's shadow drivers and its shadow bus. */
void dmc_bridge_shadow_bus_unregister(struct dmc_bridge_bus *bb)
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

/* ---- the record map and the queue -------------------------------------------------- */

/* The record of @real, or NULL. Called with dmc_bridge_lock held. */
struct dmc_bridge_rec *dmc_bridge_rec_find(const struct device *real)
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

/* Enter @rec in the map, keyed by its real device. dmc_bridge_lock held. */
void dmc_bridge_rec_insert(struct dmc_bridge_rec *rec)
{
	lockdep_assert_held(&dmc_bridge_lock);
	hash_add(dmc_bridge_recs, &rec->hnode, (unsigned long)rec->real);
}

/* Take @rec out of the map (its DEL item owns it now). dmc_bridge_lock held. */
void dmc_bridge_rec_remove(struct dmc_bridge_rec *rec)
{
	lockdep_assert_held(&dmc_bridge_lock);
	hash_del(&rec->hnode);
}

/* Queue @it for the worker, which frees it. dmc_bridge_lock held. */
void dmc_bridge_queue_locked(struct dmc_bridge_item *it)
{
	lockdep_assert_held(&dmc_bridge_lock);
	list_add_tail(&it->node, &dmc_bridge_queue);
	queue_work(dmc_bridge_wq, &dmc_bridge_work);
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

/* ---- worker: shadow devices ------------------------------------------------------ */

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

/* ---- the worker's life ------------------------------------------------------------- */

/* The ordered workqueue that applies the queue: before any record. */
int dmc_bridge_worker_start(void)
{
	dmc_bridge_wq = alloc_ordered_workqueue("dmc_bridge", 0);
	return dmc_bridge_wq ? 0 : -ENOMEM;
}

/* After dmc_bridge_shadows_teardown(), or when nothing was ever queued. */
void dmc_bridge_worker_stop(void)
{
	destroy_workqueue(dmc_bridge_wq);
	dmc_bridge_wq = NULL;
}

/*
 * Everything the worker made, with the notifiers already gone: apply
 * what they queued, delete every shadow device, drop every record and
 * its real device reference. The shadow buses and drivers stay, for
 * dmc_bridge_shadow_bus_unregister().
 */
void dmc_bridge_shadows_teardown(void)
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

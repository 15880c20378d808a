// SPDX-License-Identifier: GPL-2.0
/*
 * A device's children: the klist of them its parent keeps, made on the
 * first child, joining and leaving it, and the walks and lookups over it.
 * The counterpart of the children part of drivers/base/core.c
 * (klist_children_get/put(), device_for_each_child(),
 * device_find_child(), device_find_child_by_name()). The klist is freed
 * with its device's private part, in the device's release (device.c).
 */

#include <linux/export.h>
#include <linux/slab.h>

#include "base.h"

static bool dmc_child_get(struct dmc_klist_node *n)
{
	struct dmc_device_private *p = container_of(n, struct dmc_device_private,
						    knode_parent);

	return dmc_kobject_get_unless_zero(&p->device->kobj);
}

static void dmc_child_put(struct dmc_klist_node *n)
{
	struct dmc_device_private *p = container_of(n, struct dmc_device_private,
						    knode_parent);

	dmc_device_put(p->device);
}

static const char *dmc_child_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_device_private, knode_parent)->device->kobj.name;
}

/*
 * The children of @p, made on the first child: most devices never have
 * one, and an indexed klist is most of a device's private part. Siblings
 * added at once race here; one klist wins, the others are thrown away.
 */
static struct dmc_klist *dmc_device_children_alloc(struct dmc_device_private *p)
{
	struct dmc_klist *k = dmc_device_children(p), *old;

	if (k)
		return k;
	k = kmalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return ERR_PTR(-ENOMEM);
	if (dmc_klist_init(k, dmc_child_get, dmc_child_put, dmc_child_name, false)) {
		kfree(k);
		return ERR_PTR(-ENOMEM);
	}
	old = cmpxchg(&p->klist_children, NULL, k);
	if (old) {
		dmc_klist_destroy(k);
		kfree(k);
		return old;
	}
	return k;
}

/*
 * Make @parent's list of children now (NULL: nothing to make), so that a
 * child joining it later cannot fail (dmc_device_move()). 0 or -ENOMEM.
 */
int dmc_device_children_prepare(struct dmc_device *parent)
{
	struct dmc_klist *children;

	if (!parent)
		return 0;
	children = dmc_device_children_alloc(parent->p);
	return IS_ERR(children) ? PTR_ERR(children) : 0;
}

/* Join @dev to its parent's children (made on the first child). */
int dmc_device_join_parent(struct dmc_device *dev)
{
	struct dmc_klist *children;

	if (!dev->parent)
		return 0;
	children = dmc_device_children_alloc(dev->parent->p);
	if (IS_ERR(children))
		return PTR_ERR(children);
	return dmc_klist_add(children, &dev->p->knode_parent, false);
}

/* Take @dev off its parent's children. */
void dmc_device_leave_parent(struct dmc_device *dev)
{
	struct dmc_device *parent = dev->parent;

	/* A child's parent has its klist: made when the child was added. */
	if (parent && dmc_device_children(parent->p))
		dmc_klist_del(dmc_device_children(parent->p), &dev->p->knode_parent);
}

/**
 * dmc_device_walk_children() - call @fn for each child device
 * @parent: the parent
 * @data: passed to @fn
 * @fn: called with a referenced child; a nonzero return stops the walk
 *
 * Safe against children being added and removed meanwhile, including by
 * @fn.
 *
 * Context: may sleep.
 * Return: the first nonzero value @fn returned, or 0.
 */
int dmc_device_walk_children(struct dmc_device *parent,
			     void *data, int (*fn)(struct dmc_device *dev, void *data))
{
	struct dmc_klist *children;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	int ret = 0;

	if (!parent || !parent->p || !fn)
		return -EINVAL;
	children = dmc_device_children(parent->p);
	if (!children)
		return 0;
	dmc_klist_iter_start(children, &it);
	while (!ret && (n = dmc_klist_iter_next(&it)))
		ret = fn(container_of(n, struct dmc_device_private,
				      knode_parent)->device, data);
	dmc_klist_iter_exit(&it);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_device_walk_children);

/**
 * dmc_device_find_child() - find a child device
 * @parent: the parent
 * @data: passed to @match
 * @match: returns nonzero for the wanted child
 *
 * Context: may sleep.
 * Return: the first child @match accepts, with a reference the caller
 * drops with dmc_device_put(), or NULL.
 */
struct dmc_device *dmc_device_find_child(struct dmc_device *parent, const void *data,
					 int (*match)(struct dmc_device *dev,
						      const void *data))
{
	struct dmc_device *found = NULL;
	struct dmc_klist *children;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	if (!parent || !parent->p || !match)
		return NULL;
	children = dmc_device_children(parent->p);
	if (!children)
		return NULL;
	dmc_klist_iter_start(children, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		struct dmc_device *dev = container_of(n, struct dmc_device_private,
						      knode_parent)->device;

		if (match(dev, data)) {
			found = dmc_device_get(dev);
			break;
		}
	}
	dmc_klist_iter_exit(&it);
	return found;
}
EXPORT_SYMBOL_GPL(dmc_device_find_child);

/**
 * dmc_device_find_child_by_name() - find a child device by name
 * @parent: the parent
 * @name: the child's name
 *
 * O(1) expected time.
 *
 * Return: the child with a reference (drop it with dmc_device_put()), or
 * NULL.
 */
struct dmc_device *dmc_device_find_child_by_name(struct dmc_device *parent,
						 const char *name)
{
	struct dmc_kobject *kobj;
	struct dmc_device *child;

	if (!parent || !parent->p || !name)
		return NULL;
	/* The tree's (parent, name) index: children have no index of their own. */
	kobj = dmc_kobject_find_child(&parent->kobj, name);
	if (!kobj)
		return NULL;
	child = dmc_kobj_test_flag(kobj, DMC_KOBJ_IS_DEVICE) ? to_dmc_device(kobj) : NULL;
	if (child && child->parent == parent && child->p &&
	    dmc_klist_node_attached(&child->p->knode_parent))
		return child;
	dmc_kobject_put(kobj);
	return NULL;
}
EXPORT_SYMBOL_GPL(dmc_device_find_child_by_name);

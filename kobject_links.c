// SPDX-License-Identifier: GPL-2.0
/*
 * A kobject's links, derived from the model. Every symbolic link the
 * tree shows is a relation the model keeps anyway: a device's "driver"
 * (its driver while bound) and "subsystem" (its bus, else its class),
 * and a device's entry in its bus's devices/ set, in its driver's
 * directory and in its class's directory. The object types that have
 * links say which through their walk_links() (dmc_kobj_type), so a view
 * can ask a directory for its links when someone looks instead of
 * keeping a node per link (fs/sysfs keeps a kernfs node for each), and
 * a listener registering late is told the links there are.
 *
 * The links are read under dmc_tree_mutex: an object in the tree and
 * every object it links to stay in the tree, and alive, while it is
 * held (an unregistration deletes under that mutex before it drops the
 * last reference).
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "base.h"

/**
 * dmc_kobject_walk_links() - call @fn for each link in @kobj's directory
 * @kobj: the object; the caller holds a reference
 * @data: passed to @fn
 * @fn: called with @kobj, the link's name and its target, which stay
 *	valid for the call only (take a reference to keep the target); a
 *	nonzero return stops the walk
 *
 * The links are those the model implies now (see struct dmc_kobj_type's
 * walk_links); the same that a listener was told of through link_added
 * and not yet through link_removed, once the operations under way are
 * done. An object not in the tree has none.
 *
 * Context: may sleep; takes dmc_tree_mutex, so @fn runs under it and
 * must not change the tree (as a listener's callbacks).
 * Return: the first nonzero value of @fn, 0, or -EINVAL for NULL.
 */
int dmc_kobject_walk_links(struct dmc_kobject *kobj, void *data,
			   int (*fn)(struct dmc_kobject *kobj, const char *name,
				     struct dmc_kobject *target, void *data))
{
	int ret = 0;

	if (!kobj || !fn)
		return -EINVAL;
	if (!kobj->ktype || !kobj->ktype->walk_links)
		return 0;
	mutex_lock(&dmc_tree_mutex);
	if (dmc_kobject_in_tree(kobj))
		ret = kobj->ktype->walk_links(kobj, NULL, data, fn);
	mutex_unlock(&dmc_tree_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_kobject_walk_links);

static int dmc_link_take(struct dmc_kobject *kobj, const char *name,
			 struct dmc_kobject *target, void *data)
{
	struct dmc_kobject **found = data;

	*found = dmc_kobject_get(target);
	return 1;
}

/**
 * dmc_kobject_find_link() - the target of the link @name in @kobj's directory
 * @kobj: the object; the caller holds a reference
 * @name: the link's name
 *
 * What a lookup of @name in @kobj's directory finds when it is a link.
 * Links named by a device are found through the model's indexes (a bus's
 * or class's devices by name), not by a walk.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: the target with a new reference (dmc_kobject_put() it), or
 * NULL when @kobj has no such link now.
 */
struct dmc_kobject *dmc_kobject_find_link(struct dmc_kobject *kobj,
					  const char *name)
{
	struct dmc_kobject *found = NULL;

	if (!kobj || !name || !kobj->ktype || !kobj->ktype->walk_links)
		return NULL;
	mutex_lock(&dmc_tree_mutex);
	if (dmc_kobject_in_tree(kobj))
		kobj->ktype->walk_links(kobj, name, &found, dmc_link_take);
	mutex_unlock(&dmc_tree_mutex);
	return found;
}
EXPORT_SYMBOL_GPL(dmc_kobject_find_link);

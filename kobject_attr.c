// SPDX-License-Identifier: GPL-2.0
/*
 * A kobject's attributes: its groups, and reading and writing one through
 * its type's sysfs_ops; the counterpart of the show/store dispatch of
 * fs/sysfs/file.c. Below kobject_tree.c, which asks for a directory's
 * groups to keep its names apart from an object's files.
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/ratelimit.h>

#include "base.h"

/**
 * dmc_kobject_walk_groups() - call @fn for each attribute group of @kobj
 * @kobj: the object
 * @data: passed to @fn
 * @fn: called for each group; a nonzero return stops the walk
 *
 * The groups are the type's walk_groups() when it has one (a device has
 * its own, its type's, its bus's and its class's), else its
 * default_groups. This is how a view such as the debugfs export learns
 * which files an object has.
 *
 * Return: the first nonzero value of @fn, or 0.
 */
int dmc_kobject_walk_groups(struct dmc_kobject *kobj, void *data,
			    int (*fn)(struct dmc_kobject *kobj,
				      const struct dmc_attribute_group *grp,
				      void *data))
{
	const struct dmc_attribute_group **g;
	int ret = 0;

	if (!kobj || !kobj->ktype || !fn)
		return 0;
	if (kobj->ktype->walk_groups)
		return kobj->ktype->walk_groups(kobj, data, fn);
	for (g = kobj->ktype->default_groups; g && *g && !ret; g++)
		ret = fn(kobj, *g, data);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_kobject_walk_groups);

/**
 * dmc_kobject_attr_show() - read an attribute through the object's type
 * @kobj: the object; the caller holds a reference
 * @attr: one of its attributes
 * @buf: a PAGE_SIZE buffer
 *
 * Context: may sleep.
 * Return: the length written, -EIO if the type cannot show it, or the
 * show method's error.
 */
ssize_t dmc_kobject_attr_show(struct dmc_kobject *kobj,
			      struct dmc_attribute *attr, char *buf)
{
	const struct dmc_sysfs_ops *ops = kobj->ktype ? kobj->ktype->sysfs_ops : NULL;
	ssize_t ret;

	if (!ops || !ops->show)
		return -EIO;
	ret = ops->show(kobj, attr, buf);
	if (ret > (ssize_t)PAGE_SIZE) {
		pr_err_ratelimited("dmcore: show of '%s' returned %zd bytes\n",
				   attr->name, ret);
		ret = PAGE_SIZE;
	}
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_kobject_attr_show);

/**
 * dmc_kobject_attr_store() - write an attribute through the object's type
 * @kobj: the object; the caller holds a reference
 * @attr: one of its attributes
 * @buf: the value, NUL-terminated
 * @count: its length
 *
 * Context: may sleep.
 * Return: @count or the store method's result, -EIO if the type cannot
 * store it.
 */
ssize_t dmc_kobject_attr_store(struct dmc_kobject *kobj,
			       struct dmc_attribute *attr, const char *buf,
			       size_t count)
{
	const struct dmc_sysfs_ops *ops = kobj->ktype ? kobj->ktype->sysfs_ops : NULL;

	if (!ops || !ops->store)
		return -EIO;
	return ops->store(kobj, attr, buf, count);
}
EXPORT_SYMBOL_GPL(dmc_kobject_attr_store);

/**
 * dmc_sysfs_notify() - tell the views that an attribute's value changed
 * @kobj: the object; the caller holds a reference (or otherwise keeps it
 *	from being released for the call)
 * @dir: the name of the attribute's group, or NULL for an unnamed group
 * @attr: the attribute's name
 *
 * The counterpart of sysfs_notify(): a process that poll()s the
 * attribute's open file in the tree wakes with POLLPRI|POLLERR and
 * reads the new value from position 0 (lseek(), then read()). Nothing
 * is checked: a name the object does not have wakes nobody.
 *
 * Context: any context but NMI (the tree takes an irq-safe spinlock);
 * does not sleep.
 */
void dmc_sysfs_notify(struct dmc_kobject *kobj, const char *dir,
		      const char *attr)
{
	if (!kobj || !attr)
		return;
	dmc_listeners_attr_changed(kobj, dir, attr);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_notify);

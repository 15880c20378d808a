// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute groups and files added to an object after it was added:
 * dmc_sysfs_create_group() and its family, the counterpart of
 * fs/sysfs/group.c and of sysfs_create_file() in fs/sysfs/file.c. The
 * table of added groups, their active references and the walk that
 * shows them are kobject_attr.c's; here: the checks (names unique in the
 * object's directory, which its children, files, groups and links
 * share), adding, updating (is_visible() asked again) and removing, each
 * all or nothing.
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

static const char *dmc_grp_label(const struct dmc_attribute_group *grp)
{
	return grp && grp->name ? grp->name : "(unnamed)";
}

static bool dmc_bad_file_name(const char *name)
{
	return !name || !*name || strchr(name, '/') || !strcmp(name, ".") ||
	       !strcmp(name, "..");
}

/* -EINVAL, logged, for a group that cannot be added to anything. */
static int dmc_group_check(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp, const char *op)
{
	const char *why = NULL;
	unsigned int i;

	if (!kobj || !grp)
		why = kobj ? "NULL group" : "NULL kobject";
	else if (!grp->attrs && !grp->bin_attrs)
		why = "group without attrs or bin_attrs";
	else if (grp->name && dmc_bad_file_name(grp->name))
		why = "bad group name";
	for (i = 0; !why && grp->attrs && grp->attrs[i]; i++)
		if (dmc_bad_file_name(grp->attrs[i]->name))
			why = "attribute with a bad name";
	for (i = 0; !why && grp->bin_attrs && grp->bin_attrs[i]; i++)
		if (dmc_bad_file_name(grp->bin_attrs[i]->attr.name))
			why = "binary attribute with a bad name";
	if (!why)
		return 0;
	pr_err_ratelimited("dmcore: %s of group '%s' on '%s': %s\n", op,
			   dmc_grp_label(grp), kobj && kobj->name ? kobj->name : "?", why);
	return -EINVAL;
}

/* A new entry for @grp (or @file_grp) on @kobj, its modes asked now; NULL: -ENOMEM. */
static struct dmc_dgroup *dmc_dgroup_new(struct dmc_kobject *kobj,
					 const struct dmc_attribute_group *grp,
					 const void *key)
{
	unsigned int n = 0, nb = 0, i;
	struct dmc_dgroup *e;

	while (grp->attrs && grp->attrs[n])
		n++;
	while (grp->bin_attrs && grp->bin_attrs[nb])
		nb++;
	e = kzalloc(struct_size(e, modes, n + nb), GFP_KERNEL);
	if (!e)
		return NULL;
	e->kobj = kobj;
	e->key = key;
	e->grp = grp;
	e->nattrs = n;
	e->nbin = nb;
	for (i = 0; i < n; i++)
		e->modes[i] = dmc_group_mode_now(kobj, grp, i, false);
	for (i = 0; i < nb; i++)
		e->modes[n + i] = dmc_group_mode_now(kobj, grp, i, true);
	return e;
}

static const char *dmc_dgroup_name(const struct dmc_dgroup *e, unsigned int i)
{
	return i < e->nattrs ? e->grp->attrs[i]->name :
			       e->grp->bin_attrs[i - e->nattrs]->attr.name;
}

struct dmc_name_check {
	const char *name;
	const struct dmc_attribute_group *skip;
};

/*
 * Does a group of @kobj other than @c->skip give the name @c->name: a
 * named group's directory, or a file of an unnamed one (of an added
 * group only if shown; of a type's group even if is_visible() hides it)?
 */
static int dmc_group_has_name(struct dmc_kobject *kobj,
			      const struct dmc_attribute_group *grp, void *data)
{
	struct dmc_name_check *c = data;
	bool added;
	unsigned int i;

	if (grp == c->skip)
		return 0;
	if (grp->name)
		return !strcmp(grp->name, c->name);
	added = dmc_group_is_added(kobj, grp);
	for (i = 0; grp->attrs && grp->attrs[i]; i++)
		if (!strcmp(grp->attrs[i]->name, c->name) &&
		    (!added || dmc_group_attr_mode(kobj, grp, i, false)))
			return 1;
	for (i = 0; grp->bin_attrs && grp->bin_attrs[i]; i++)
		if (!strcmp(grp->bin_attrs[i]->attr.name, c->name) &&
		    (!added || dmc_group_attr_mode(kobj, grp, i, true)))
			return 1;
	return 0;
}

static int dmc_link_found(struct dmc_kobject *kobj, const char *name,
			  struct dmc_kobject *target, void *data)
{
	return 1;
}

/*
 * Is @name taken in @kobj's directory by something other than the group
 * @skip: a child, a link, a file or a group? Caller holds dmc_tree_mutex.
 */
static bool dmc_dir_name_taken(struct dmc_kobject *kobj, const char *name,
			       const struct dmc_attribute_group *skip)
{
	struct dmc_name_check c = { .name = name, .skip = skip };
	const char * const *link;

	lockdep_assert_held(&dmc_tree_mutex);
	if (dmc_kobject_has_child(kobj, name))
		return true;
	for (link = kobj->ktype->link_names; link && *link; link++)
		if (!strcmp(*link, name))
			return true;
	if (kobj->ktype->walk_links &&
	    kobj->ktype->walk_links(kobj, name, NULL, dmc_link_found) > 0)
		return true;
	return dmc_kobject_walk_groups(kobj, &c, dmc_group_has_name) > 0;
}

/*
 * The first name of @e's group that is taken, in its own directory
 * (twice in the group) or, for an unnamed group, in @kobj's (skipping
 * @skip, the group it updates); NULL if none. Caller holds dmc_tree_mutex.
 */
static const char *dmc_dgroup_clash(struct dmc_dgroup *e,
				    const struct dmc_attribute_group *skip)
{
	unsigned int i, j, total = e->nattrs + e->nbin;
	const char *name;

	if (e->grp->name) {
		if (!skip && dmc_dir_name_taken(e->kobj, e->grp->name, NULL))
			return e->grp->name;
	}
	for (i = 0; i < total; i++) {
		if (!e->modes[i])
			continue;
		name = dmc_dgroup_name(e, i);
		for (j = 0; j < i; j++)
			if (e->modes[j] && !strcmp(dmc_dgroup_name(e, j), name))
				return name;
		if (!e->grp->name && dmc_dir_name_taken(e->kobj, name, skip))
			return name;
	}
	return NULL;
}

/*
 * Add @e, or with @update put it in place of the entry of its key; the
 * replaced entry is returned in *@old to be drained (NULL if none).
 */
static int dmc_dgroup_add(struct dmc_dgroup *e, bool update, struct dmc_dgroup **old)
{
	struct dmc_kobject *kobj = e->kobj;
	const char *clash;
	int err = 0;

	*old = NULL;
	mutex_lock(&dmc_tree_mutex);
	if (!dmc_kobject_in_tree(kobj) || dmc_kobj_test_flag(kobj, DMC_KOBJ_DELETED)) {
		pr_err_ratelimited("dmcore: group '%s' on '%s', which is not in the tree\n",
				   dmc_grp_label(e->grp), kobj->name ?: "(unnamed)");
		err = -EINVAL;
		goto out;
	}
	down_read(&dmc_groups_rwsem);
	*old = dmc_dgroup_find(kobj, e->key);
	up_read(&dmc_groups_rwsem);
	if (*old && !update) {
		err = -EEXIST;
		pr_err_ratelimited("dmcore: group '%s' added to '%s' twice\n",
				   dmc_grp_label(e->grp), kobj->name);
		*old = NULL;
		goto out;
	}
	clash = dmc_dgroup_clash(e, *old ? (*old)->grp : NULL);
	if (clash) {
		err = -EEXIST;
		pr_err_ratelimited("dmcore: cannot add group '%s' to '%s': '%s' exists\n",
				   dmc_grp_label(e->grp), kobj->name, clash);
		*old = NULL;
		goto out;
	}
	down_write(&dmc_groups_rwsem);
	if (*old)
		dmc_dgroup_replace(*old, e);
	else
		dmc_dgroup_insert(e);
	up_write(&dmc_groups_rwsem);
out:
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

static int dmc_create_group(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group *grp, bool update)
{
	struct dmc_dgroup *e, *old;
	int err;

	err = dmc_group_check(kobj, grp, update ? "update" : "create");
	if (err)
		return err;
	e = dmc_dgroup_new(kobj, grp, grp);
	if (!e)
		return -ENOMEM;
	err = dmc_dgroup_add(e, update, &old);
	if (err) {
		kfree(e);
		return err;
	}
	dmc_dgroup_drain_free(old);
	return 0;
}

/**
 * dmc_sysfs_create_group() - add a group of attributes to an object
 * @kobj: an object in the tree; the caller holds a reference
 * @grp: the group; it and its attributes must stay until it is removed
 *	(dmc_sysfs_remove_group(), or the object leaving the tree)
 *
 * The group's files appear in @kobj's directory, or in a subdirectory
 * @grp->name; is_visible() and is_bin_visible() are asked for each file
 * now (0 hides it) and again only by dmc_sysfs_update_group(). As
 * Linux's sysfs_create_group(), all or nothing.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0; -EINVAL for a NULL object or group, a group without
 * attributes, a bad name, or an object not in the tree; -EEXIST if the
 * group was added already, or one of its names (the group's own for a
 * named group, else each shown file's) is taken in the directory by a
 * child, a link, a file or a group, or appears twice in the group;
 * -ENOMEM. On error nothing changed.
 */
int dmc_sysfs_create_group(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp)
{
	return dmc_create_group(kobj, grp, false);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_create_group);

static int dmc_is_type_group(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group *grp, void *data)
{
	return grp == data && !dmc_group_is_added(kobj, grp);
}

/**
 * dmc_sysfs_update_group() - ask is_visible() again for a group's files
 * @kobj: the object; the caller holds a reference
 * @grp: a group of @kobj
 *
 * As Linux's sysfs_update_group(): the files of @grp that is_visible()
 * now hides go (their running callbacks drained first, their open files
 * failing with -ENODEV from then on), those it shows appear, with the
 * modes it gives. An unnamed group not added yet is added. A group that
 * @kobj's type shows is asked at each look, so there is nothing to do.
 *
 * Context: may sleep; takes dmc_tree_mutex; must not be called with a
 * lock that a show or store of the group takes.
 * Return: 0; -EINVAL as dmc_sysfs_create_group() and for a named group
 * @kobj does not have; -EEXIST if a name it would now show is taken;
 * -ENOMEM. On error nothing changed.
 */
int dmc_sysfs_update_group(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp)
{
	bool added;

	if (kobj && grp) {
		added = dmc_group_is_added(kobj, grp);
		if (!added && dmc_kobject_walk_groups(kobj, (void *)grp, dmc_is_type_group) > 0)
			return 0;
		if (!added && grp->name) {
			pr_err_ratelimited("dmcore: update of group '%s', which '%s' does not have\n",
					   grp->name, kobj->name);
			return -EINVAL;
		}
	}
	return dmc_create_group(kobj, grp, true);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_update_group);

/**
 * dmc_sysfs_remove_group() - remove a group added to an object
 * @kobj: the object; the caller holds a reference
 * @grp: the group given to dmc_sysfs_create_group()
 *
 * The group's files go: lookups and new opens fail at once, and this
 * waits for the shows, stores, reads and writes running through them
 * (which hold an active reference, as with kernfs's drain); an open file
 * fails with -ENODEV after. A group the object does not have (removed
 * already, or by the object leaving the tree) is logged and ignored.
 *
 * Context: may sleep; takes dmc_tree_mutex; must not be called with a
 * lock that a show or store of the group takes (lockdep reports it), nor
 * from one of the group's own stores.
 */
void dmc_sysfs_remove_group(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group *grp)
{
	struct dmc_dgroup *e = NULL;

	if (!kobj || !grp) {
		pr_err_ratelimited("dmcore: remove of a group: NULL %s\n",
				   kobj ? "group" : "kobject");
		return;
	}
	mutex_lock(&dmc_tree_mutex);
	down_write(&dmc_groups_rwsem);
	e = dmc_dgroup_find(kobj, grp);
	if (e)
		dmc_dgroup_unlink(e);
	up_write(&dmc_groups_rwsem);
	mutex_unlock(&dmc_tree_mutex);
	if (!e && dmc_kobject_in_tree(kobj))
		pr_warn_ratelimited("dmcore: remove of group '%s' that '%s' does not have\n",
				    dmc_grp_label(grp), kobj->name);
	dmc_dgroup_drain_free(e);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_remove_group);

static int dmc_create_groups(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group **groups, bool update)
{
	int err = 0, i;

	if (!groups)
		return 0;
	for (i = 0; groups[i]; i++) {
		err = update ? dmc_sysfs_update_group(kobj, groups[i]) :
			       dmc_sysfs_create_group(kobj, groups[i]);
		if (err)
			break;
	}
	/* As Linux: an update that failed removes the groups before, too. */
	while (err && --i >= 0)
		dmc_sysfs_remove_group(kobj, groups[i]);
	return err;
}

/**
 * dmc_sysfs_create_groups() - add the groups of a NULL-terminated list
 * @kobj: the object, as dmc_sysfs_create_group()
 * @groups: the groups, or NULL (nothing to do)
 *
 * Context: may sleep.
 * Return: 0, or the first error of dmc_sysfs_create_group(), with the
 * groups of the list added before it removed again.
 */
int dmc_sysfs_create_groups(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group **groups)
{
	return dmc_create_groups(kobj, groups, false);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_create_groups);

/**
 * dmc_sysfs_update_groups() - dmc_sysfs_update_group() for each of a list
 * @kobj: the object
 * @groups: NULL-terminated groups, or NULL
 *
 * Context: may sleep.
 * Return: 0 or the first error, after which the groups of the list
 * before it are removed, as Linux's sysfs_update_groups() does.
 */
int dmc_sysfs_update_groups(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group **groups)
{
	return dmc_create_groups(kobj, groups, true);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_update_groups);

/**
 * dmc_sysfs_remove_groups() - remove each group of a NULL-terminated list
 * @kobj: the object
 * @groups: the groups, or NULL
 *
 * Context: as dmc_sysfs_remove_group().
 */
void dmc_sysfs_remove_groups(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group **groups)
{
	int i;

	for (i = 0; groups && groups[i]; i++)
		dmc_sysfs_remove_group(kobj, groups[i]);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_remove_groups);

/* A file: a group of its own, unnamed, keyed by the attribute. */
static int dmc_create_file(struct dmc_kobject *kobj, const struct dmc_attribute *attr,
			   const struct dmc_bin_attribute *battr)
{
	const char *name = battr ? battr->attr.name : attr ? attr->name : NULL;
	struct dmc_dgroup *e, *old;
	int err;

	if (!kobj || (!attr && !battr) || dmc_bad_file_name(name)) {
		pr_err_ratelimited("dmcore: create of a file: %s\n",
				   !kobj ? "NULL kobject" : !attr && !battr ?
				   "NULL attribute" : "bad name");
		return -EINVAL;
	}
	e = kzalloc(struct_size(e, modes, 1), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->kobj = kobj;
	e->grp = &e->file_grp;
	if (battr) {
		e->key = battr;
		e->file_bin_attrs[0] = (struct dmc_bin_attribute *)battr;
		e->file_grp.bin_attrs = e->file_bin_attrs;
		e->nbin = 1;
		e->modes[0] = battr->attr.mode & 0777;
	} else {
		e->key = attr;
		e->file_attrs[0] = (struct dmc_attribute *)attr;
		e->file_grp.attrs = e->file_attrs;
		e->nattrs = 1;
		e->modes[0] = attr->mode & 0777;
	}
	err = dmc_dgroup_add(e, false, &old);
	if (err)
		kfree(e);
	return err;
}

/**
 * dmc_sysfs_create_file() - add one attribute to an object
 * @kobj: an object in the tree; the caller holds a reference
 * @attr: the attribute, kept until removed
 *
 * As Linux's sysfs_create_file(); the attribute is shown with its own
 * mode and read and written through @kobj's type's sysfs_ops.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: 0; -EINVAL for NULL, a bad name or an object not in the tree;
 * -EEXIST if the name is taken in the directory; -ENOMEM.
 */
int dmc_sysfs_create_file(struct dmc_kobject *kobj, const struct dmc_attribute *attr)
{
	return dmc_create_file(kobj, attr, NULL);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_create_file);

/**
 * dmc_sysfs_create_bin_file() - add one binary attribute to an object
 * @kobj: as dmc_sysfs_create_file()
 * @attr: the binary attribute, kept until removed
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: as dmc_sysfs_create_file().
 */
int dmc_sysfs_create_bin_file(struct dmc_kobject *kobj,
			      const struct dmc_bin_attribute *attr)
{
	if (!attr) {
		pr_err_ratelimited("dmcore: create of a binary file: NULL attribute\n");
		return -EINVAL;
	}
	return dmc_create_file(kobj, NULL, attr);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_create_bin_file);

static void dmc_remove_file(struct dmc_kobject *kobj, const void *key, const char *name)
{
	struct dmc_dgroup *e;

	if (!kobj || !key) {
		pr_err_ratelimited("dmcore: remove of a file: NULL %s\n",
				   kobj ? "attribute" : "kobject");
		return;
	}
	mutex_lock(&dmc_tree_mutex);
	down_write(&dmc_groups_rwsem);
	e = dmc_dgroup_find(kobj, key);
	if (e)
		dmc_dgroup_unlink(e);
	up_write(&dmc_groups_rwsem);
	mutex_unlock(&dmc_tree_mutex);
	if (!e && dmc_kobject_in_tree(kobj))
		pr_warn_ratelimited("dmcore: remove of file '%s' that '%s' was not given\n",
				    name, kobj->name);
	dmc_dgroup_drain_free(e);
}

/**
 * dmc_sysfs_remove_file() - remove an attribute added by dmc_sysfs_create_file()
 * @kobj: the object
 * @attr: the attribute
 *
 * Drains as dmc_sysfs_remove_group(). Unlike Linux's, which removes any
 * file of that name, only a file added by dmc_sysfs_create_file() is:
 * a group's files go with their group.
 *
 * Context: as dmc_sysfs_remove_group().
 */
void dmc_sysfs_remove_file(struct dmc_kobject *kobj, const struct dmc_attribute *attr)
{
	dmc_remove_file(kobj, attr, attr ? attr->name : NULL);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_remove_file);

/**
 * dmc_sysfs_remove_bin_file() - remove a binary attribute added by
 *	dmc_sysfs_create_bin_file()
 * @kobj: the object
 * @attr: the binary attribute
 *
 * Context: as dmc_sysfs_remove_group().
 */
void dmc_sysfs_remove_bin_file(struct dmc_kobject *kobj,
			       const struct dmc_bin_attribute *attr)
{
	dmc_remove_file(kobj, attr, attr ? attr->attr.name : NULL);
}
EXPORT_SYMBOL_GPL(dmc_sysfs_remove_bin_file);

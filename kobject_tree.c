// SPDX-License-Identifier: GPL-2.0
/*
 * The tree of kobjects and of their names: the counterpart of the
 * directory half of sysfs (fs/sysfs/dir.c, fs/kernfs/dir.c) and of
 * kobject_get_path() in lib/kobject.c.
 *
 * Names are unique among siblings. Linux learns of a duplicate only when
 * sysfs refuses the directory; dmcore keeps one hashed index keyed by
 * (parent, name), so a duplicate is found in O(1) expected time, before
 * anything changed, and the index also serves dmc_kobject_find_child()
 * and dmc_kobject_lookup_path().
 *
 * Here: the tree's locks and root list, the index, the names reserved in
 * a directory, kset membership (joining, leaving, the kset's name index,
 * the kset that gives an object its subsystem), an object entering and
 * leaving the tree (index, kset, siblings, tree listeners), paths, the
 * index's half of rename and move, lookups, and listeners joining and
 * leaving (with the replay of the tree to a new one) and being told of
 * links; listener.c keeps their list.
 *
 * The life of the objects themselves, and the API around these steps
 * (checks, events), is kobject.c's, on top of this file: this file sends
 * no event and drops no reference. It takes references (a lookup's, a
 * member's on its kset, a child's on a new parent), but a reference that
 * must go is handed back to kobject.c, since the last put of an object
 * still in the tree deletes it and sends "remove".
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

/* The shape of the tree and the tree listeners; see base.h. */
DEFINE_MUTEX(dmc_tree_mutex);
DEFINE_RWLOCK(dmc_name_lock);

/* Top-level objects (no parent): the children of the tree's root. */
LIST_HEAD(dmc_roots);

/* ---- the (parent, name) index ---------------------------------------- */

static struct dmc_htab dmc_sib_index;	/* dmc_tree_mutex */

/* Any string @name as a child of @parent: hashed here. */
static u32 dmc_sib_hash(const struct dmc_kobject *parent, const char *name)
{
	return dmc_name_hash(name, (unsigned long)parent);
}

/* @kobj's slot: its name's kept hash (dmc_name_dup()), salted with its parent. */
static u32 dmc_sib_kobj_hash(const struct dmc_kobject *kobj)
{
	return dmc_name_salt(dmc_name_hash_of(kobj->name), (unsigned long)kobj->parent);
}

/*
 * The child @name of @parent, hashed to @hash (salted with @parent). The
 * hash each member keeps in the index is compared before the member is
 * touched. Caller holds dmc_tree_mutex.
 */
static struct dmc_kobject *__dmc_sib_lookup(const struct dmc_kobject *parent,
					    const char *name, u32 hash)
{
	struct dmc_kobject *kobj;
	struct dmc_hnode *h;

	lockdep_assert_held(&dmc_tree_mutex);
	for (h = dmc_htab_first(&dmc_sib_index, hash); h; h = h->next) {
		if (h->hash != hash)
			continue;
		kobj = container_of(h, struct dmc_kobject, sib_node);
		if (kobj->parent == parent && !strcmp(kobj->name, name))
			return kobj;
	}
	return NULL;
}

static struct dmc_kobject *dmc_sib_lookup(const struct dmc_kobject *parent,
					  const char *name)
{
	return __dmc_sib_lookup(parent, name, dmc_sib_hash(parent, name));
}

/* Has @parent a child named @name? Caller holds dmc_tree_mutex. */
bool dmc_kobject_has_child(const struct dmc_kobject *parent, const char *name)
{
	return !!dmc_sib_lookup(parent, name);
}

/*
 * For the invariant checker: is @kobj, in the tree, indexed under its
 * parent and name as they are now? Caller holds dmc_tree_mutex.
 */
bool dmc_sib_indexed(const struct dmc_kobject *kobj)
{
	return kobj->sib_node.hash == dmc_sib_kobj_hash(kobj) &&
	       __dmc_sib_lookup(kobj->parent, kobj->name, kobj->sib_node.hash) == kobj;
}

/* Resize the index for @count members, if due. Caller holds dmc_tree_mutex. */
static void dmc_sib_resize(unsigned int count)
{
	struct dmc_htab_resize r;

	dmc_htab_resize_prepare(&dmc_sib_index, count, &r);
	dmc_htab_resize_commit(&dmc_sib_index, &r);
	dmc_htab_resize_finish(&r);
}

/*
 * Index @kobj under its parent and name, hashed to @hash. Caller holds
 * dmc_tree_mutex.
 */
static void dmc_sib_insert(struct dmc_kobject *kobj, u32 hash)
{
	dmc_sib_resize(dmc_sib_index.count + 1);
	dmc_htab_add(&dmc_sib_index, &kobj->sib_node, hash);
}

static void dmc_sib_remove(struct dmc_kobject *kobj)
{
	dmc_htab_del(&dmc_sib_index, &kobj->sib_node);
	dmc_sib_resize(dmc_sib_index.count);
}

/*
 * Move @kobj to the slot of its new parent or name, set by @set under
 * dmc_name_lock (readers of names and parents take it). Cannot fail: the
 * table keeps its size. Caller holds dmc_tree_mutex and checked for a
 * clash.
 */
static void dmc_sib_rekey(struct dmc_kobject *kobj,
			  void (*set)(struct dmc_kobject *kobj, const void *arg),
			  const void *arg)
{
	dmc_htab_del(&dmc_sib_index, &kobj->sib_node);
	write_lock(&dmc_name_lock);
	set(kobj, arg);
	write_unlock(&dmc_name_lock);
	dmc_htab_add(&dmc_sib_index, &kobj->sib_node, dmc_sib_kobj_hash(kobj));
}

/* ---- reserved names ------------------------------------------------- */

/* One group of the parent: does it give a file or directory @data? */
static int dmc_name_in_group(struct dmc_kobject *kobj,
			     const struct dmc_attribute_group *grp, void *data)
{
	struct dmc_bin_attribute **b;
	struct dmc_attribute **a;

	const char *name = data;

	/* The first byte before the call: most names differ there. */
	if (grp->name)
		return grp->name[0] == name[0] && !strcmp(grp->name, name);
	for (a = grp->attrs; a && *a; a++)
		if ((*a)->name[0] == name[0] && !strcmp((*a)->name, name))
			return 1;
	for (b = grp->bin_attrs; b && *b; b++)
		if (!strcmp((*b)->attr.name, name))
			return 1;
	return 0;
}

static int dmc_name_is_link(struct dmc_kobject *kobj, const char *name,
			    struct dmc_kobject *target, void *data)
{
	return 1;
}

/**
 * dmc_kobject_name_reserved() - is @name one of @parent's own entries?
 * @parent: a kobject, or NULL for the top level
 * @name: a candidate name for a child of @parent, or for a link in it
 *
 * The model's reserved names. An object's directory holds its children,
 * its attributes (a named group is a subdirectory) and the links the
 * core makes in it; these share one namespace, as in sysfs, so a child
 * may not take the name of an attribute or attribute group of its
 * parent, nor a link name of its parent's type (under a device, "driver"
 * or "subsystem": dmc_kobj_type.link_names), nor, under a device, a
 * link derived now (its devlink symlinks). The same rule refuses to
 * bind a device named like a file of the driver (bind, unbind, uevent,
 * the driver's own attributes), where the driver's link to the device
 * would go. Enforced by the core, with
 * or without the debugfs export.
 *
 * Context: dmc_tree_mutex held when @parent is a device.
 * Return: true if @name is reserved under @parent.
 */
bool dmc_kobject_name_reserved(struct dmc_kobject *parent, const char *name)
{
	const char * const *link;

	if (!parent || !name)
		return false;
	if (parent->ktype && parent->ktype->link_names)
		for (link = parent->ktype->link_names; *link; link++)
			if ((*link)[0] == name[0] && !strcmp(name, *link))
				return true;
	/* A device's derived links (its devlink symlinks); dmc_tree_mutex held. */
	if (dmc_kobj_test_flag(parent, DMC_KOBJ_IS_DEVICE) && parent->ktype &&
	    parent->ktype->walk_links &&
	    parent->ktype->walk_links(parent, name, NULL, dmc_name_is_link) > 0)
		return true;
	return dmc_kobject_walk_groups(parent, (void *)name, dmc_name_in_group) > 0;
}

/* ---- kset membership --------------------------------------------------- */

/*
 * Join @kobj to its kset (if any), taking a reference on the kset, as
 * @kobj enters the tree. Caller holds dmc_tree_mutex.
 */
static int dmc_kset_join(struct dmc_kobject *kobj)
{
	struct dmc_kset *kset = kobj->kset;
	int err;

	if (!kset)
		return 0;
	lockdep_assert_held(&dmc_tree_mutex);
	if (!dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_IS_KSET) ||
	    !dmc_kobject_in_tree(&kset->kobj) ||
	    dmc_kobj_test_flag(&kset->kobj, DMC_KOBJ_DELETED)) {
		pr_err_ratelimited("dmcore: cannot add '%s': its kset is not registered\n",
				   kobj->name);
		return -ENOENT;
	}
	/*
	 * An owner may drop its last reference without unregistering: the
	 * kset is then still in the tree, its release about to delete it.
	 */
	if (!kref_get_unless_zero(&kset->kobj.kref)) {
		pr_err_ratelimited("dmcore: cannot add '%s': its kset is being released\n",
				   kobj->name);
		return -ENOENT;
	}
	err = dmc_klist_add(&kset->members, &kobj->kset_node, false);
	if (err)
		refcount_dec(&kset->kobj.kref.refcount);
	return err;
}

/*
 * Leave the kset joined by dmc_kset_join(). Return: the kset whose
 * reference the caller drops (kobject.c), or NULL if @kobj was in none.
 */
static struct dmc_kset *dmc_kset_leave(struct dmc_kobject *kobj)
{
	struct dmc_kset *kset = kobj->kset;

	if (kset && dmc_klist_del(&kset->members, &kobj->kset_node))
		return kset;
	return NULL;
}

/**
 * dmc_kobject_subsystem_kset() - the kset that gives an object its subsystem
 * @kobj: an object in the tree
 *
 * Its own kset, or that of its nearest ancestor with one, as Linux's
 * kobject_uevent_env() finds it. No reference is taken: while @kobj is in
 * the tree so are its ancestors (children leave first), and the one found
 * is a member of the kset and holds a reference on it; an object leaves
 * the tree under dmc_name_lock (__dmc_kobject_del()), so the caller, who
 * holds it for reading and has seen @kobj in the tree, may use the kset
 * until it unlocks.
 *
 * Context: dmc_name_lock held for reading.
 * Return: the kset, or NULL if no ancestor has one.
 */
struct dmc_kset *dmc_kobject_subsystem_kset(const struct dmc_kobject *kobj)
{
	const struct dmc_kobject *top = kobj;

	lockdep_assert_held(&dmc_name_lock);
	while (!top->kset && top->parent)
		top = top->parent;
	return top->kset;
}

/* ---- entering and leaving the tree ---------------------------------- */

/*
 * Enter the tree under kobj->parent (already referenced and named):
 * index, kset, siblings, then the tree listeners. For kobject.c's add.
 */
int __dmc_kobject_add(struct dmc_kobject *kobj)
{
	struct dmc_kobject *parent = kobj->parent;
	u32 hash;
	int err;

	mutex_lock(&dmc_tree_mutex);
	if (parent && (!dmc_kobject_in_tree(parent) ||
		       dmc_kobj_test_flag(parent, DMC_KOBJ_DELETED))) {
		pr_err_ratelimited("dmcore: cannot add '%s': parent '%s' is not in the tree\n",
				   kobj->name, parent->name);
		err = -ENOENT;
		goto out_unlock;
	}
	if (dmc_kobject_name_reserved(parent, kobj->name)) {
		pr_err_ratelimited("dmcore: cannot add '%s': '%s' has a file or link of that name\n",
				   kobj->name, parent->name);
		err = -EEXIST;
		goto out_unlock;
	}
	hash = dmc_name_salt(dmc_name_hash_of(kobj->name), (unsigned long)parent);
	if (__dmc_sib_lookup(parent, kobj->name, hash)) {
		pr_err_ratelimited("dmcore: cannot add '%s': '%s%s%s' exists\n",
				   kobj->name, parent ? parent->name : "",
				   parent ? "/" : "", kobj->name);
		err = -EEXIST;
		goto out_unlock;
	}
	dmc_sib_insert(kobj, hash);
	err = dmc_kset_join(kobj);
	if (err)
		goto out_unindex;

	list_add_tail(&kobj->sibling, parent ? &parent->children : &dmc_roots);
	dmc_kobj_set_flag(kobj, DMC_KOBJ_IN_TREE);
	dmc_listeners_kobj_added(kobj);
	mutex_unlock(&dmc_tree_mutex);
	return 0;

out_unindex:
	dmc_sib_remove(kobj);
out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

/*
 * Take @kobj out of the tree; its children are already out. For
 * kobject.c's del and release. The flag is cleared under dmc_name_lock
 * too, before the kset is left: see dmc_kobject_subsystem_kset(). Then,
 * with no lock held, the listeners' kobj_gone.
 * Return: the kset @kobj left, whose reference the caller drops outside
 * any lock (that may free it), or NULL.
 */
struct dmc_kset *__dmc_kobject_del(struct dmc_kobject *kobj)
{
	struct dmc_kset *kset;
	bool was_in;

	mutex_lock(&dmc_tree_mutex);
	write_lock(&dmc_name_lock);
	was_in = dmc_kobj_test_and_clear_flag(kobj, DMC_KOBJ_IN_TREE);
	write_unlock(&dmc_name_lock);
	if (!was_in) {
		mutex_unlock(&dmc_tree_mutex);
		return NULL;
	}
	WARN_ON(!list_empty(&kobj->children));
	dmc_listeners_kobj_removed(kobj);
	list_del_init(&kobj->sibling);
	dmc_sib_remove(kobj);
	mutex_unlock(&dmc_tree_mutex);
	kset = dmc_kset_leave(kobj);
	dmc_listeners_kobj_gone(kobj);
	return kset;
}

/* ---- paths, rename and move ------------------------------------------- */

/*
 * @kobj's path into @buf (NULL: just measure); caller holds dmc_name_lock.
 * The names' lengths are kept with them (dmc_name_dup()).
 */
static size_t dmc_fill_path(const struct dmc_kobject *kobj, char *buf,
			    size_t size)
{
	const struct dmc_kobject *pos;
	size_t len = 0, n;

	for (pos = kobj; pos; pos = pos->parent)
		len += dmc_name_len_of(pos->name) + 1;
	if (!buf || len + 1 > size)
		return len;
	buf[len] = '\0';
	n = len;
	for (pos = kobj; pos; pos = pos->parent) {
		size_t l = dmc_name_len_of(pos->name);

		n -= l;
		memcpy(buf + n, pos->name, l);
		buf[--n] = '/';
	}
	return len;
}

/*
 * Write @kobj's path into @buf, for an event's DEVPATH. Return: its
 * length, or -E2BIG when it does not fit in @size bytes with its NUL.
 */
int dmc_kobject_path_into(const struct dmc_kobject *kobj, char *buf, size_t size)
{
	int len;

	read_lock(&dmc_name_lock);
	len = __dmc_kobject_path_into(kobj, buf, size);
	read_unlock(&dmc_name_lock);
	return len;
}

/* dmc_kobject_path_into() for a caller holding dmc_name_lock. */
int __dmc_kobject_path_into(const struct dmc_kobject *kobj, char *buf, size_t size)
{
	size_t len = dmc_fill_path(kobj, buf, size);

	return len + 1 > size ? -E2BIG : len;
}

/**
 * dmc_kobject_get_path() - the object's path from the root, "/a/b/c"
 * @kobj: a named object
 * @gfp: allocation flags
 *
 * Safe against concurrent rename and move of any ancestor.
 *
 * Return: a string the caller kfree()s, or NULL on allocation failure or
 * for an unnamed object.
 */
char *dmc_kobject_get_path(const struct dmc_kobject *kobj, gfp_t gfp)
{
	size_t len, got;
	char *path;

	if (!kobj || !kobj->name)
		return NULL;
	for (;;) {
		read_lock(&dmc_name_lock);
		len = dmc_fill_path(kobj, NULL, 0);
		read_unlock(&dmc_name_lock);

		path = kmalloc(len + 1, gfp);
		if (!path)
			return NULL;
		read_lock(&dmc_name_lock);
		got = dmc_fill_path(kobj, path, len + 1);
		read_unlock(&dmc_name_lock);
		if (got == len)
			return path;
		kfree(path);	/* renamed meanwhile: measure again */
	}
}
EXPORT_SYMBOL_GPL(dmc_kobject_get_path);

static void dmc_kobject_set_name_ptr(struct dmc_kobject *kobj, const void *name)
{
	kobj->name = name;
}

/*
 * Give @kobj the name @name in the tree's index; *@old_name is the name
 * it had. Caller holds dmc_tree_mutex and has checked for a sibling
 * clash. Called by dmc_kset_rename_member() with the kset lock held.
 */
static int dmc_kobject_swap_name(struct dmc_kobject *kobj, char *name,
				 const char **old_name)
{
	lockdep_assert_held(&dmc_tree_mutex);
	*old_name = kobj->name;
	dmc_sib_rekey(kobj, dmc_kobject_set_name_ptr, name);
	return 0;
}

struct dmc_kset_rename {
	struct dmc_kobject *kobj;
	char *new_name;
	const char **old_name;
};

static int dmc_kset_swap_name(void *arg)
{
	struct dmc_kset_rename *r = arg;

	return dmc_kobject_swap_name(r->kobj, r->new_name, r->old_name);
}

/*
 * Rename a kobject, keeping its kset's index in step: a lookup by name
 * in the kset meanwhile finds it under one name or the other. Caller
 * holds dmc_tree_mutex and has checked for a sibling clash.
 */
static int dmc_kset_rename_member(struct dmc_kobject *kobj, char *new_name,
				  const char **old_name)
{
	struct dmc_kset_rename r = { kobj, new_name, old_name };

	lockdep_assert_held(&dmc_tree_mutex);
	if (!kobj->kset || !dmc_klist_node_attached(&kobj->kset_node))
		return dmc_kobject_swap_name(kobj, new_name, old_name);
	return dmc_klist_rename(&kobj->kset->members, &kobj->kset_node,
				dmc_kset_swap_name, &r);
}

/*
 * The tree's half of dmc_kobject_rename() (kobject.c): give @kobj, in the
 * tree, the name @name (checked, kmalloc'ed) in the index and its kset.
 * Return: 0 (@name is @kobj's now), 1 (it had that name already; @name is
 * still the caller's), -EINVAL (not in the tree), -EEXIST (a sibling or
 * a reserved entry has that name) or -ENOMEM. Nothing changed on error.
 */
int __dmc_kobject_rename(struct dmc_kobject *kobj, char *name)
{
	const char *old_name;
	int err;

	mutex_lock(&dmc_tree_mutex);
	if (!dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: rename of '%s', which is not in the tree\n",
				   kobj->name);
		err = -EINVAL;
		goto out_unlock;
	}
	if (!strcmp(kobj->name, name)) {
		err = 1;
		goto out_unlock;
	}
	if (dmc_sib_lookup(kobj->parent, name) ||
	    dmc_kobject_name_reserved(kobj->parent, name)) {
		pr_err_ratelimited("dmcore: cannot rename '%s' to '%s': exists\n",
				   kobj->name, name);
		err = -EEXIST;
		goto out_unlock;
	}
	err = dmc_kset_rename_member(kobj, name, &old_name);
	if (err)
		goto out_unlock;
	dmc_listeners_kobj_renamed(kobj, old_name);
	mutex_unlock(&dmc_tree_mutex);
	dmc_name_free(old_name);
	return 0;

out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

struct dmc_rename_in {
	struct dmc_kobject *kobj;
	char *name;
};

static int dmc_rename_in_swap(void *arg)
{
	struct dmc_rename_in *r = arg;

	lockdep_assert_held(&dmc_tree_mutex);
	dmc_sib_rekey(r->kobj, dmc_kobject_set_name_ptr, r->name);
	return 0;
}

/*
 * The tree's half of dmc_device_rename() (device_move.c): as
 * __dmc_kobject_rename(), and in the same step @kobj's nodes in the @nr
 * (at most 3) klists of @m follow the new name, refused with -EEXIST
 * where one marked unique has another member named @name. On success
 * *@old_name is the name @kobj had, which the caller frees with
 * dmc_name_free(); tree listeners were told (kobj_renamed) under
 * dmc_tree_mutex, and @renamed(@kobj, *@old_name, @arg) was called there
 * too, for the caller to tell the listeners of its links. Return: as
 * __dmc_kobject_rename(), without a log line for a clash in @m.
 */
int __dmc_kobject_rename_in(struct dmc_kobject *kobj, char *name,
			    const struct dmc_klist_member *m, unsigned int nr,
			    const char **old_name,
			    void (*renamed)(struct dmc_kobject *kobj,
					    const char *old_name, void *arg),
			    void *arg)
{
	struct dmc_klist_member all[4];
	struct dmc_rename_in r = { kobj, name };
	unsigned int n = 0;
	int err;

	if (WARN_ON_ONCE(nr > ARRAY_SIZE(all) - 1))
		return -EINVAL;
	mutex_lock(&dmc_tree_mutex);
	err = -EINVAL;
	if (!dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: rename of '%s', which is not in the tree\n",
				   kobj->name);
		goto out_unlock;
	}
	err = 1;
	if (!strcmp(kobj->name, name))
		goto out_unlock;
	if (dmc_sib_lookup(kobj->parent, name) ||
	    dmc_kobject_name_reserved(kobj->parent, name)) {
		pr_err_ratelimited("dmcore: cannot rename '%s' to '%s': exists\n",
				   kobj->name, name);
		err = -EEXIST;
		goto out_unlock;
	}
	/* The kset's index first: its lock is the outermost, as for a kobject. */
	if (kobj->kset && dmc_klist_node_attached(&kobj->kset_node))
		all[n++] = (struct dmc_klist_member){ &kobj->kset->members,
						      &kobj->kset_node, false };
	memcpy(all + n, m, nr * sizeof(*m));
	*old_name = kobj->name;
	err = dmc_klist_rename_many(all, n + nr, name, dmc_rename_in_swap, &r);
	if (err)
		goto out_unlock;
	dmc_listeners_kobj_renamed(kobj, *old_name);
	if (renamed)
		renamed(kobj, *old_name, arg);
	mutex_unlock(&dmc_tree_mutex);
	return 0;

out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

static void dmc_kobject_set_parent_ptr(struct dmc_kobject *kobj, const void *parent)
{
	kobj->parent = (struct dmc_kobject *)parent;
}

static bool dmc_is_ancestor(const struct dmc_kobject *a,
			    const struct dmc_kobject *kobj)
{
	for (; kobj; kobj = kobj->parent)
		if (kobj == a)
			return true;
	return false;
}

/*
 * The tree's half of dmc_kobject_move() (kobject.c): put @kobj under
 * @new_parent (NULL: the top level) in the index and the siblings' list,
 * taking a reference on it; *@old_parent is set to the old parent, whose
 * reference the caller drops.
 * Return: 0 (moved), 1 (already there), -EINVAL (not in the tree, or
 * @new_parent is @kobj or below it), -ENOENT (@new_parent not in the
 * tree or being deleted), -EEXIST (name taken there) or -ENOMEM. Nothing
 * changed on error.
 */
int __dmc_kobject_move(struct dmc_kobject *kobj, struct dmc_kobject *new_parent,
		       struct dmc_kobject **old_parent_out)
{
	struct dmc_kobject *old_parent;
	int err;

	mutex_lock(&dmc_tree_mutex);
	err = -EINVAL;
	if (!dmc_kobject_in_tree(kobj)) {
		pr_err_ratelimited("dmcore: move of '%s', which is not in the tree\n",
				   kobj->name);
		goto out_unlock;
	}
	if (new_parent && dmc_is_ancestor(kobj, new_parent)) {
		pr_err_ratelimited("dmcore: cannot move '%s' under itself\n", kobj->name);
		goto out_unlock;
	}
	err = -ENOENT;
	if (new_parent && (!dmc_kobject_in_tree(new_parent) ||
			   dmc_kobj_test_flag(new_parent, DMC_KOBJ_DELETED) ||
			   !kref_read(&new_parent->kref))) {
		pr_err_ratelimited("dmcore: cannot move '%s': new parent '%s' is not in the tree\n",
				   kobj->name, new_parent->name);
		goto out_unlock;
	}
	err = 1;
	old_parent = kobj->parent;
	if (old_parent == new_parent)
		goto out_unlock;
	if (dmc_sib_lookup(new_parent, kobj->name) ||
	    dmc_kobject_name_reserved(new_parent, kobj->name)) {
		pr_err_ratelimited("dmcore: cannot move '%s': name taken under '%s'\n",
				   kobj->name, new_parent ? new_parent->name : "/");
		err = -EEXIST;
		goto out_unlock;
	}

	dmc_sib_rekey(kobj, dmc_kobject_set_parent_ptr, new_parent);
	/*
	 * Not zero, checked above: a count reaches zero only by a put, and
	 * the caller holds a reference on @new_parent (kobject.c).
	 */
	if (new_parent)
		kref_get(&new_parent->kref);
	list_move_tail(&kobj->sibling,
		       new_parent ? &new_parent->children : &dmc_roots);
	dmc_listeners_kobj_moved(kobj, old_parent);
	mutex_unlock(&dmc_tree_mutex);
	*old_parent_out = old_parent;
	return 0;

out_unlock:
	mutex_unlock(&dmc_tree_mutex);
	return err;
}

/* ---- lookups ----------------------------------------------------------- */

/**
 * dmc_kobject_find_child() - look up a child by name
 * @parent: the parent, or NULL for the top level
 * @name: the child's name
 *
 * O(1) expected time through the (parent, name) index.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: the child with a new reference (put it), or NULL.
 */
struct dmc_kobject *dmc_kobject_find_child(struct dmc_kobject *parent,
					   const char *name)
{
	struct dmc_kobject *kobj;

	if (!name)
		return NULL;
	mutex_lock(&dmc_tree_mutex);
	kobj = dmc_kobject_get_unless_zero(dmc_sib_lookup(parent, name));
	mutex_unlock(&dmc_tree_mutex);
	return kobj;
}
EXPORT_SYMBOL_GPL(dmc_kobject_find_child);

/**
 * dmc_kobject_lookup_path() - find an object by its path
 * @path: "/devices/a/b" (the leading '/' may be left out)
 *
 * Each component is looked up in the (parent, name) index.
 *
 * Context: may sleep; takes dmc_tree_mutex.
 * Return: the object with a reference (put it), or NULL.
 */
struct dmc_kobject *dmc_kobject_lookup_path(const char *path)
{
	struct dmc_kobject *kobj = NULL, *next;
	const char *p = path, *slash;
	char name[DMC_NAME_MAX + 1];
	size_t len;

	if (!path)
		return NULL;
	mutex_lock(&dmc_tree_mutex);
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		slash = strchrnul(p, '/');
		len = slash - p;
		if (len > DMC_NAME_MAX)
			goto fail;
		memcpy(name, p, len);
		name[len] = '\0';
		next = dmc_sib_lookup(kobj, name);
		if (!next)
			goto fail;
		kobj = next;
		p = slash;
	}
	kobj = dmc_kobject_get_unless_zero(kobj);
	mutex_unlock(&dmc_tree_mutex);
	return kobj;
fail:
	mutex_unlock(&dmc_tree_mutex);
	return NULL;
}
EXPORT_SYMBOL_GPL(dmc_kobject_lookup_path);

int dmc_kobject_index_init(void)
{
	dmc_hash_init();
	return dmc_htab_init(&dmc_sib_index);
}

void dmc_kobject_index_exit(void)
{
	dmc_htab_destroy(&dmc_sib_index);
}

/* ---- listeners: joining, the replay, links ------------------------------ */

/* The next object after @kobj in a parents-first walk of the tree. */
static struct dmc_kobject *dmc_tree_next(struct dmc_kobject *kobj)
{
	struct list_head *head;

	if (!list_empty(&kobj->children))
		return list_first_entry(&kobj->children, struct dmc_kobject, sibling);
	for (; kobj; kobj = kobj->parent) {
		head = kobj->parent ? &kobj->parent->children : &dmc_roots;
		if (!list_is_last(&kobj->sibling, head))
			return list_next_entry(kobj, sibling);
	}
	return NULL;
}

static int dmc_link_replay(struct dmc_kobject *kobj, const char *name,
			   struct dmc_kobject *target, void *data)
{
	struct dmc_listener *l = data;

	l->link_added(l, kobj, name, target);
	return 0;
}

/*
 * Tell a listener registering now of the links in @kobj's directory
 * (dmc_tree_replay(), dmc_tree_mutex held). Each link is derived from
 * state that is set before the link is announced and cleared before it
 * is withdrawn, so a link told here twice (replayed, then announced) is
 * possible, and so is a withdrawal of a link being removed as the
 * listener registers, never told; a link told after its withdrawal is
 * not.
 */
static void dmc_kobject_replay_links(struct dmc_kobject *kobj, struct dmc_listener *l)
{
	lockdep_assert_held(&dmc_tree_mutex);
	if (kobj->ktype && kobj->ktype->walk_links)
		kobj->ktype->walk_links(kobj, NULL, l, dmc_link_replay);
}

/*
 * Tell a new listener of every object already in the tree, parents
 * first, then of every link there is now (a link may point anywhere in
 * the tree, so objects come first). Caller holds dmc_tree_mutex. A walk,
 * not a recursion: the tree can be as deep as its users make it.
 */
static void dmc_tree_replay(struct dmc_listener *l)
{
	struct dmc_kobject *first, *kobj;

	lockdep_assert_held(&dmc_tree_mutex);
	first = list_first_entry_or_null(&dmc_roots, struct dmc_kobject, sibling);
	if (l->kobj_added)
		for (kobj = first; kobj; kobj = dmc_tree_next(kobj))
			l->kobj_added(l, kobj);
	if (l->link_added)
		for (kobj = first; kobj; kobj = dmc_tree_next(kobj))
			dmc_kobject_replay_links(kobj, l);
}

/**
 * dmc_listener_register() - start telling @l of every change
 * @l: the listener, with the callbacks it wants
 *
 * Before this returns, @l->kobj_added is called for every object already
 * in the tree, parents first, then @l->link_added for every link there is
 * (a link may be told twice: replayed, then announced by a change under
 * way), so the listener starts from a complete picture; events sent
 * before registration are not replayed (read them from the event log).
 *
 * Context: may sleep; takes dmc_tree_mutex and dmc_event_mutex.
 * Return: 0, or -EINVAL for NULL.
 */
int dmc_listener_register(struct dmc_listener *l)
{
	if (!l)
		return -EINVAL;
	mutex_lock(&dmc_tree_mutex);
	mutex_lock(&dmc_event_mutex);
	dmc_listeners_add(l);
	dmc_tree_replay(l);
	mutex_unlock(&dmc_event_mutex);
	mutex_unlock(&dmc_tree_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_listener_register);

/**
 * dmc_listener_unregister() - stop telling @l of changes
 * @l: a registered listener
 *
 * When this returns no callback of @l is running or will run (a
 * kobj_gone callback in flight is waited for).
 *
 * Context: may sleep; takes dmc_tree_mutex and dmc_event_mutex. Must not
 * be called from a callback of @l.
 */
void dmc_listener_unregister(struct dmc_listener *l)
{
	if (!l)
		return;
	mutex_lock(&dmc_tree_mutex);
	mutex_lock(&dmc_event_mutex);
	dmc_listeners_del(l);
	mutex_unlock(&dmc_event_mutex);
	mutex_unlock(&dmc_tree_mutex);
	dmc_listeners_sync(l);
}
EXPORT_SYMBOL_GPL(dmc_listener_unregister);

/**
 * dmc_sysfs_link() - tell listeners that @kobj has a link to @target
 * @kobj: where the link lives
 * @name: the link's name
 * @target: what it points to
 *
 * The core keeps no list of links: they follow from the model (a bound
 * device's "driver", a device's "subsystem"...), and the core calls this
 * wherever one appears. Takes dmc_tree_mutex, so links and objects reach
 * listeners in one order.
 */
void dmc_sysfs_link(struct dmc_kobject *kobj, const char *name,
		    struct dmc_kobject *target)
{
	if (!dmc_listeners_want_links())
		return;		/* nobody to tell: a registering one replays it */
	mutex_lock(&dmc_tree_mutex);
	dmc_listeners_link_added(kobj, name, target);
	mutex_unlock(&dmc_tree_mutex);
}

/* The counterpart of dmc_sysfs_link(). */
void dmc_sysfs_unlink(struct dmc_kobject *kobj, const char *name)
{
	if (!dmc_listeners_want_links())
		return;
	mutex_lock(&dmc_tree_mutex);
	dmc_listeners_link_removed(kobj, name);
	mutex_unlock(&dmc_tree_mutex);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A kobject's attributes: its groups, and reading and writing one through
 * its type's sysfs_ops; the counterpart of the show/store dispatch of
 * fs/sysfs/file.c. Below kobject_tree.c, which asks for a directory's
 * groups to keep its names apart from an object's files.
 */

#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/ratelimit.h>
#include <linux/rculist.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "base.h"

/* The table of groups added to objects: see "groups added to an object" below. */
#define DMC_DGROUP_BITS		6

static DEFINE_HASHTABLE(dmc_dgroups, DMC_DGROUP_BITS);
DECLARE_RWSEM(dmc_groups_rwsem);
static DECLARE_WAIT_QUEUE_HEAD(dmc_dgroup_drain_wq);

#ifdef CONFIG_DEBUG_LOCK_ALLOC
/* As dmcfs's "dmcfs_active": read around callbacks, written by each drain. */
static struct lock_class_key dmc_group_active_key;
static struct lockdep_map dmc_group_active_map =
	STATIC_LOCKDEP_MAP_INIT("dmc_group_active", &dmc_group_active_key);
#define dmc_group_active_acquire() rwsem_acquire_read(&dmc_group_active_map, 0, 0, _RET_IP_)
#define dmc_group_active_release() rwsem_release(&dmc_group_active_map, _RET_IP_)
#define dmc_group_drain_acquire() rwsem_acquire(&dmc_group_active_map, 0, 0, _RET_IP_)
#define dmc_group_drain_release() rwsem_release(&dmc_group_active_map, _RET_IP_)
#else
#define dmc_group_active_acquire()	do { } while (0)
#define dmc_group_active_release()	do { } while (0)
#define dmc_group_drain_acquire()	do { } while (0)
#define dmc_group_drain_release()	do { } while (0)
#endif

/**
 * dmc_kobject_walk_groups() - call @fn for each attribute group of @kobj
 * @kobj: the object
 * @data: passed to @fn
 * @fn: called for each group; a nonzero return stops the walk
 *
 * The groups are the type's walk_groups() when it has one (a device has
 * its own, its type's, its bus's and its class's), else its
 * default_groups; then those added with dmc_sysfs_create_group() and
 * dmc_sysfs_create_file(), in the order they were. This is how a view
 * such as the tree learns which files an object has; attributes that
 * is_visible() hides are in their groups too (dmc_group_attr_mode()).
 *
 * Context: may sleep; @fn runs with dmc_groups_rwsem held for reading
 * while it is given added groups, so it must not add or remove groups.
 *
 * Return: the first nonzero value of @fn, or 0.
 */
int dmc_kobject_walk_groups(struct dmc_kobject *kobj, void *data,
			    int (*fn)(struct dmc_kobject *kobj,
				      const struct dmc_attribute_group *grp,
				      void *data))
{
	const struct dmc_attribute_group **g;
	struct dmc_dgroup *e;
	int ret = 0;

	if (!kobj || !kobj->ktype || !fn)
		return 0;
	if (kobj->ktype->walk_groups)
		ret = kobj->ktype->walk_groups(kobj, data, fn);
	else
		for (g = kobj->ktype->default_groups; g && *g && !ret; g++)
			ret = fn(kobj, *g, data);
	if (ret || !dmc_kobj_test_flag(kobj, DMC_KOBJ_HAS_GROUPS))
		return ret;
	/* Then the groups added to it, in the order they were. */
	down_read(&dmc_groups_rwsem);
	hash_for_each_possible(dmc_dgroups, e, node, (unsigned long)kobj) {
		if (e->kobj == kobj)
			ret = fn(kobj, e->grp, data);
		if (ret)
			break;
	}
	up_read(&dmc_groups_rwsem);
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

/* ---- plain kobjects' attributes ----------------------------------------- */

static ssize_t dmc_kobj_attr_show(struct dmc_kobject *kobj,
				  struct dmc_attribute *attr, char *buf)
{
	struct dmc_kobj_attribute *ka = container_of(attr, struct dmc_kobj_attribute, attr);

	return ka->show ? ka->show(kobj, ka, buf) : -EIO;
}

static ssize_t dmc_kobj_attr_store(struct dmc_kobject *kobj,
				   struct dmc_attribute *attr, const char *buf,
				   size_t count)
{
	struct dmc_kobj_attribute *ka = container_of(attr, struct dmc_kobj_attribute, attr);

	return ka->store ? ka->store(kobj, ka, buf, count) : -EIO;
}

/*
 * The sysfs_ops of dmc_kobject_create_and_add()'s objects, for struct
 * dmc_kobj_attribute, as Linux's kobj_sysfs_ops; a type of one's own
 * whose attributes are struct dmc_kobj_attribute may use them too.
 */
const struct dmc_sysfs_ops dmc_kobj_sysfs_ops = {
	.show = dmc_kobj_attr_show,
	.store = dmc_kobj_attr_store,
};
EXPORT_SYMBOL_GPL(dmc_kobj_sysfs_ops);

/* ---- groups added to an object (kobject_group.c's table) ---------------- */

/*
 * The groups added with dmc_sysfs_create_group() and dmc_sysfs_create_file()
 * (a file is a group of its own, unnamed), in a table by object, in the
 * order they were added: nothing is kept in the objects themselves, and
 * DMC_KOBJ_HAS_GROUPS spares the others the look. Each entry has the
 * modes is_visible() gave when it was made (0: hidden) and active
 * references, as a kernfs node's: every show, store, read and write of
 * the tree through one of its attributes holds one, and the removal of
 * the group waits for them to drain after deactivating the entry, so a
 * removed group's files fail from then on (-ENODEV) and its callbacks have
 * all returned when dmc_sysfs_remove_group() does.
 *
 * Writers (kobject_group.c) hold dmc_tree_mutex and dmc_groups_rwsem for
 * writing; walks hold dmc_groups_rwsem for reading (their callbacks may
 * sleep); the look-ups of one entry (a mode, an active reference) are
 * under RCU.
 */
/* The entry of group @grp (by the group the tree sees) of @kobj; RCU or rwsem. */
static struct dmc_dgroup *dmc_dgroup_find_grp(struct dmc_kobject *kobj,
					      const struct dmc_attribute_group *grp)
{
	struct dmc_dgroup *e;

	hash_for_each_possible_rcu(dmc_dgroups, e, node, (unsigned long)kobj,
				   lockdep_is_held(&dmc_groups_rwsem))
		if (e->kobj == kobj && e->grp == grp)
			return e;
	return NULL;
}

/**
 * dmc_dgroup_find() - the entry of @kobj added for @key
 * @kobj: the object
 * @key: the group given to dmc_sysfs_create_group(), or the attribute
 *	given to dmc_sysfs_create_file()
 *
 * Context: dmc_groups_rwsem held.
 * Return: the entry or NULL.
 */
struct dmc_dgroup *dmc_dgroup_find(struct dmc_kobject *kobj, const void *key)
{
	struct dmc_dgroup *e;

	lockdep_assert_held(&dmc_groups_rwsem);
	hash_for_each_possible(dmc_dgroups, e, node, (unsigned long)kobj)
		if (e->kobj == kobj && e->key == key)
			return e;
	return NULL;
}

/* The named group @name of @kobj's added ones; dmc_groups_rwsem held. */
struct dmc_dgroup *dmc_dgroup_find_name(struct dmc_kobject *kobj, const char *name)
{
	struct dmc_dgroup *e;

	lockdep_assert_held(&dmc_groups_rwsem);
	hash_for_each_possible(dmc_dgroups, e, node, (unsigned long)kobj)
		if (e->kobj == kobj && e->grp->name && !strcmp(e->grp->name, name))
			return e;
	return NULL;
}

/* Add @e (new, active) to the table after @kobj's others; under the writers' locks. */
void dmc_dgroup_insert(struct dmc_dgroup *e)
{
	lockdep_assert_held(&dmc_groups_rwsem);
	atomic_set(&e->active, 0);
	hlist_add_tail_rcu(&e->node,
			   &dmc_dgroups[hash_min((unsigned long)e->kobj, DMC_DGROUP_BITS)]);
	dmc_kobj_set_flag(e->kobj, DMC_KOBJ_HAS_GROUPS);
}

/* Put @new in @old's place (an update), deactivating @old; then drain @old. */
void dmc_dgroup_replace(struct dmc_dgroup *old, struct dmc_dgroup *new)
{
	lockdep_assert_held(&dmc_groups_rwsem);
	atomic_set(&new->active, 0);
	hlist_replace_rcu(&old->node, &new->node);
	atomic_add(DMC_DGROUP_DEACTIVATED, &old->active);
}

/* Take @e out of the table and deactivate it; then drain it. */
void dmc_dgroup_unlink(struct dmc_dgroup *e)
{
	struct dmc_dgroup *o;
	bool more = false;

	lockdep_assert_held(&dmc_groups_rwsem);
	hash_del_rcu(&e->node);
	atomic_add(DMC_DGROUP_DEACTIVATED, &e->active);
	hash_for_each_possible(dmc_dgroups, o, node, (unsigned long)e->kobj)
		more |= o->kobj == e->kobj;
	if (!more)
		dmc_kobj_clear_flag(e->kobj, DMC_KOBJ_HAS_GROUPS);
}

/*
 * Wait until no callback runs through @e (taken out and deactivated), then
 * free it. Called with no lock that a show or store may take: lockdep's
 * "dmc_group_active" reports one the first time both orders are seen.
 */
void dmc_dgroup_drain_free(struct dmc_dgroup *e)
{
	if (!e)
		return;
	dmc_group_drain_acquire();
	wait_event(dmc_dgroup_drain_wq,
		   atomic_read(&e->active) == DMC_DGROUP_DEACTIVATED);
	dmc_group_drain_release();
	kfree_rcu(e, rcu);
}

/**
 * dmc_kobject_groups_drop() - remove every group added to @kobj
 * @kobj: an object that just left the tree
 *
 * Its groups go with its directory, as sysfs removes a deleted kobject's
 * files: after draining the callbacks running through them.
 *
 * Context: may sleep; no lock that a show or store takes.
 */
void dmc_kobject_groups_drop(struct dmc_kobject *kobj)
{
	struct dmc_dgroup *e;

	while (dmc_kobj_test_flag(kobj, DMC_KOBJ_HAS_GROUPS)) {
		down_write(&dmc_groups_rwsem);
		e = NULL;
		hash_for_each_possible(dmc_dgroups, e, node, (unsigned long)kobj)
			if (e->kobj == kobj)
				break;
		if (e && e->kobj == kobj)
			dmc_dgroup_unlink(e);
		else
			e = NULL;
		up_write(&dmc_groups_rwsem);
		if (!e)
			break;
		dmc_dgroup_drain_free(e);
	}
}

/* The mode is_visible() gives attribute @n (of bin_attrs if @bin) now. */
umode_t dmc_group_mode_now(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp,
			   unsigned int n, bool bin)
{
	umode_t mode;

	if (bin) {
		mode = grp->bin_attrs[n]->attr.mode;
		if (grp->is_bin_visible)
			mode = grp->is_bin_visible(kobj, grp->bin_attrs[n], n);
	} else {
		mode = grp->attrs[n]->mode;
		if (grp->is_visible)
			mode = grp->is_visible(kobj, grp->attrs[n], n);
	}
	return mode & 0777;
}

/**
 * dmc_group_attr_mode() - the mode attribute @n of @grp has on @kobj
 * @kobj: the object, which shows @grp
 * @grp: one of its groups, as a walk gave it
 * @n: the index in @grp->attrs, or in @grp->bin_attrs if @bin
 * @bin: a binary attribute
 *
 * For an added group, the mode computed when it was added or updated; for
 * a group the type shows, is_visible() now.
 *
 * Context: may sleep (is_visible()); under a walk of @kobj's groups or
 * an active reference of the tree on @kobj.
 * Return: the mode, 0 if the attribute is hidden.
 */
umode_t dmc_group_attr_mode(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group *grp,
			    unsigned int n, bool bin)
{
	struct dmc_dgroup *e;
	umode_t mode = 0;
	bool found = false;

	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_HAS_GROUPS)) {
		rcu_read_lock();
		e = dmc_dgroup_find_grp(kobj, grp);
		if (e) {
			found = true;
			mode = e->modes[bin ? e->nattrs + n : n];
		}
		rcu_read_unlock();
	}
	return found ? mode : dmc_group_mode_now(kobj, grp, n, bin);
}

static int dmc_is_group(struct dmc_kobject *kobj,
			const struct dmc_attribute_group *grp, void *data)
{
	return grp == data;
}

/* The index of @attr in @grp (of bin_attrs if @bin), or -1. */
static int dmc_group_index(const struct dmc_attribute_group *grp,
			   const struct dmc_attribute *attr, bool bin)
{
	int i;

	if (bin) {
		for (i = 0; grp->bin_attrs && grp->bin_attrs[i]; i++)
			if (&grp->bin_attrs[i]->attr == attr)
				return i;
	} else {
		for (i = 0; grp->attrs && grp->attrs[i]; i++)
			if (grp->attrs[i] == attr)
				return i;
	}
	return -1;
}

/* Stands for a group the type shows: it lives as long as the object. */
static struct dmc_dgroup dmc_dgroup_static;

/**
 * dmc_group_active_get() - begin a callback through an attribute's file
 * @kobj: the object, held by the tree's active reference on it
 * @grp: the group the attribute was found in, which may be gone since
 *	(only compared until found among @kobj's)
 * @attr: the attribute (&bin->attr for a binary one), likewise
 * @bin: @attr is a struct dmc_bin_attribute's
 *
 * Context: may sleep (is_visible() of a type's group).
 * Return: a handle for dmc_group_active_put(), or NULL if the attribute
 * is gone (its group removed, the attribute hidden by an update).
 */
struct dmc_dgroup *dmc_group_active_get(struct dmc_kobject *kobj,
					const struct dmc_attribute_group *grp,
					const struct dmc_attribute *attr, bool bin)
{
	struct dmc_dgroup *e = NULL;
	int n;

	/* @grp and @attr may be stale: compared until @grp is found alive. */
	if (dmc_kobj_test_flag(kobj, DMC_KOBJ_HAS_GROUPS)) {
		rcu_read_lock();
		e = dmc_dgroup_find_grp(kobj, grp);
		n = e ? dmc_group_index(grp, attr, bin) : -1;
		if (e && (n < 0 || !e->modes[bin ? e->nattrs + n : n] ||
			  !atomic_inc_unless_negative(&e->active)))
			e = ERR_PTR(-ENODEV);
		rcu_read_unlock();
		if (IS_ERR(e))
			return NULL;
		if (e) {
			dmc_group_active_acquire();
			return e;
		}
	}
	/* Not added: one the type shows, unless it was removed meanwhile. */
	if (kobj->ktype->walk_groups) {
		if (kobj->ktype->walk_groups(kobj, (void *)grp, dmc_is_group) <= 0)
			return NULL;
	} else {
		const struct dmc_attribute_group **g = kobj->ktype->default_groups;

		while (g && *g && *g != grp)
			g++;
		if (!g || !*g)
			return NULL;
	}
	n = dmc_group_index(grp, attr, bin);
	return n >= 0 && dmc_group_mode_now(kobj, grp, n, bin) ? &dmc_dgroup_static : NULL;
}

/* End a callback begun by dmc_group_active_get(). */
void dmc_group_active_put(struct dmc_dgroup *e)
{
	if (!e || e == &dmc_dgroup_static)
		return;
	dmc_group_active_release();
	if (atomic_dec_return(&e->active) == DMC_DGROUP_DEACTIVATED)
		wake_up_all(&dmc_dgroup_drain_wq);
}

/* Is @grp one added to @kobj (not one its type shows)? */
bool dmc_group_is_added(struct dmc_kobject *kobj, const struct dmc_attribute_group *grp)
{
	bool added;

	if (!dmc_kobj_test_flag(kobj, DMC_KOBJ_HAS_GROUPS))
		return false;
	rcu_read_lock();
	added = !!dmc_dgroup_find_grp(kobj, grp);
	rcu_read_unlock();
	return added;
}
